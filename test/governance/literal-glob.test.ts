// The `g` key adds the asked path to the intent's owned_scope. The agent names
// that path, so a file called `**`, `*`, `src/*` or `[!x]*` must be added as a
// glob that matches that one file, never as a wildcard that hands the agent
// the repository. Checked through the public matchers (both of them), and
// through the whole path: the engine's ask, the broker's `g`, the intents
// file the supervisor writes, and the engine again on the widened file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseActiveIntents } from '../../src/core/governance/intents-parser.js';
import { literalGlob, literalTreeGlob } from '../../src/core/governance/literal-glob.js';
import { scopeMatcher, scopeMatcherPerGlob } from '../../src/core/governance/scope.js';
import { governanceOf } from '../../src/core/governance/state.js';
import { loadAllOnDemand } from '../../src/core/on-demand.js';
import { governanceOnPreToolUse } from '../../src/engine/governance/gate.js';
import { ApprovalBroker } from '../../src/supervisor/approval-broker.js';
import type { HookFrame, ReplyFrame } from '../../src/supervisor/hooks/channel-protocol.js';
import type { HookConnection } from '../../src/supervisor/hooks/channel-server.js';
import { acceptableGlob, widenScope } from '../../src/supervisor/widen-scope.js';
import { makeProject, pre, session } from './helpers.js';

beforeAll(loadAllOnDemand);

/** Names an agent can give a file, each a glob if taken raw. */
const HOSTILE = ['**', '*', 'src/*', '[!x]*', '?', 'src/**/x', '{a,b}', '!(x)', '@(a|b)', '+(a)', '.*', 'src/[ab].ts', 'a b', 'x,y', 'file(1).ts', '#x', '$^'];
/** Paths a wildcard would reach: the hostile names themselves and ordinary files. */
const PROBES = [
  ...HOSTILE,
  'a',
  'b',
  'x',
  'src/a.ts',
  'src/auth/jwt.ts',
  'src/x',
  'src/a/b/x',
  'README.md',
  '.env',
  'src/b.ts',
  'a\\b',
  'xy',
  'file1.ts',
  'file(1)xts',
  '.orchestration/active_intents.yaml',
];

const MATCHERS = [
  ['scopeMatcher', scopeMatcher],
  ['scopeMatcherPerGlob', scopeMatcherPerGlob],
] as const;

describe('literalGlob', () => {
  it.each(MATCHERS)('with %s, each hostile name becomes a glob that matches that file and no other', (_name, matcher) => {
    for (const name of HOSTILE) {
      const glob = literalGlob(name);
      expect(glob, name).not.toBeNull();
      const m = matcher([glob!]);
      expect(
        PROBES.filter((p) => m(p)),
        `${name} as ${glob}`,
      ).toEqual([name]);
    }
  });

  it.each(MATCHERS)('with %s, random names of glob characters each match only themselves', (_name, matcher) => {
    // A fixed seed: the same 600 names every run.
    let seed = 42;
    // 32-bit integer LCG (Math.imul keeps it exact; a float one degenerates into a short cycle).
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return (seed >>> 8) % n;
    };
    const alphabet = '*?[]{}()!+@|,^$"\'`.#~-ax/ ';
    const names = new Set<string>();
    for (let tries = 0; names.size < 600 && tries < 100_000; tries++) {
      const len = 1 + rand(8);
      let n = '';
      for (let i = 0; i < len; i++) n += alphabet[rand(alphabet.length)];
      if (literalGlob(n) !== null) names.add(n);
    }
    const all = [...names];
    expect(all).toHaveLength(600);
    for (const name of all.slice(0, 150)) {
      const m = matcher([literalGlob(name)!]);
      expect(
        all.filter((q) => m(q)),
        `${name} as ${literalGlob(name)}`,
      ).toEqual([name]);
    }
  });

  it('leaves ordinary paths as they are', () => {
    expect(literalGlob('src/billing/x.ts')).toBe('src/billing/x.ts');
    expect(literalGlob('docs/guard.md')).toBe('docs/guard.md');
    expect(literalGlob('**')).toBe('\\*\\*');
    expect(literalGlob('[!x]*')).toBe('\\[\\!x\\]\\*');
  });

  it('offers nothing for names no glob can stand for exactly', () => {
    for (const name of [' x', 'x ', 'a\nb', 'a\u0007b', '', 'a//b', './a', 'a/../b', 'a\\*', '\\']) expect(literalGlob(name), JSON.stringify(name)).toBeNull();
  });

  it.each(MATCHERS)('with %s, a tree glob covers that directory only, its name taken literally', (_name, matcher) => {
    const m = matcher([literalTreeGlob('*')!]);
    expect(m('*/a.ts')).toBe(true);
    expect(m('*/deep/b.ts')).toBe(true);
    expect(m('src/a.ts')).toBe(false);
    expect(m('x/a.ts')).toBe(false);
  });

  it('the supervisor refuses a raw wildcard from an older hook', () => {
    for (const g of ['**', '*', '**/*', '.*', '{src,.orch*}/**', '.orch*/**']) expect(acceptableGlob(g), g).toBe(false);
    for (const g of ['\\*\\*', 'src/billing/x.ts', 'build/**', 'src/\\*']) expect(acceptableGlob(g), g).toBe(true);
  });
});

function conn(): HookConnection & { replies: ReplyFrame[] } {
  const replies: ReplyFrame[] = [];
  return { replies, reply: (f) => void replies.push(f), closed: false, onClose: () => {} };
}

describe('g on a file named like a glob, end to end', () => {
  it.each(['**', '*', 'src/*', '[!x]*'])('a Write to %s outside the scope: g adds a glob that matches only that file', (name) => {
    const p = makeProject();
    const s = session();
    governanceOf(s).intent_id = 'INT-001';
    const d = { env: { HOME: p.home }, now: new Date('2026-03-01T10:00:00Z'), storeRoot: p.store, home: p.home };
    const input = pre(p.root, 'Write', { file_path: join(p.root, name), content: 'x' });

    // The hook's verdict: an ask that offers the path as a literal glob, and says why in one line.
    const r = governanceOnPreToolUse(s, input, d);
    expect(r.verdict.kind).toBe('ask');
    if (r.verdict.kind !== 'ask') return;
    const glob = literalGlob(name)!;
    expect(r.verdict.widen).toEqual({ intent_id: 'INT-001', globs: [glob] });
    expect(r.verdict.human).toBe(`${name} is outside INT-001's scope: src/auth/**, src/middleware/jwt.ts`);

    // The supervisor: the broker holds the ask, the human presses g, the intents file is edited.
    const broker = new ApprovalBroker({
      timeoutMs: 60_000,
      record: () => {},
      onChange: () => {},
      widen: (a) => widenScope({ root: p.root, intentId: a.widen!.intent_id, globs: a.widen!.globs, sessionId: a.session_id, human: 'alice', now: new Date() }),
    });
    const c = conn();
    const frame = { v: 1, id: 'req-1', token: 't', event: 'PreToolUse', input: input as unknown as Record<string, unknown>, verdict: r.verdict } as HookFrame;
    const queued = broker.request(frame, c)!;
    expect(broker.pending()[0]!.human).toBe(r.verdict.human);
    expect(broker.answer(queued.id, { action: 'widen' })).toBe(true);
    expect(c.replies.at(-1)).toMatchObject({ type: 'answer', decision: 'allow' });
    broker.dispose();

    // The file the supervisor wrote says so: the escaped glob, and nothing that matches more.
    const file = readFileSync(join(p.root, '.orchestration/active_intents.yaml'), 'utf8');
    const parsed = parseActiveIntents(file);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const scope = parsed.intents.find((i) => i.id === 'INT-001')!.owned_scope;
    expect(scope).toEqual(['src/auth/**', 'src/middleware/jwt.ts', glob]);
    const m = scopeMatcher(scope);
    const extra = PROBES.filter((q) => m(q) && !q.startsWith('src/auth/') && q !== 'src/middleware/jwt.ts');
    expect(extra).toEqual([name]);

    // And the hook, reading the widened file: that file is in scope now, its neighbours are not.
    expect(governanceOnPreToolUse(s, input, d).verdict.kind).toBe('none');
    for (const other of ['README.md', 'src/a.ts', 'x']) {
      expect(governanceOnPreToolUse(s, pre(p.root, 'Write', { file_path: join(p.root, other), content: 'x' }), d).verdict, other).toMatchObject({
        kind: 'ask',
        code: 'SCOPE_VIOLATION',
      });
    }
  });
});
