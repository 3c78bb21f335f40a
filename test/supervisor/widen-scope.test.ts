// The `g` answer: the broker hands a scope question to the supervisor's widen
// callback and answers allow; widenScope edits active_intents.yaml keeping
// the human's comments, refuses globs that reach outside the project or into
// .orchestration/, and records the change in the ledger with the human named.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOnDemand } from '../../src/core/on-demand.js';
import { ApprovalBroker } from '../../src/supervisor/approval-broker.js';
import type { HookFrame, ReplyFrame } from '../../src/supervisor/hooks/channel-protocol.js';
import type { HookConnection } from '../../src/supervisor/hooks/channel-server.js';
import { acceptableGlob, widenScope } from '../../src/supervisor/widen-scope.js';
import { makeProject } from '../governance/helpers.js';
import { rozBin } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';
import { GIT_ISOLATED } from '../helpers/test-git.js';
import { relay, preToolUse, startSupervisor, until } from './helpers/channel.js';

beforeAll(loadAllOnDemand);

const YAML = `# intents for the team: keep this comment
active_intents:
  - id: INT-001
    name: Auth
    status: IN_PROGRESS
    owned_scope:
      - "src/auth/**" # the auth module
`;

function conn(): HookConnection & { replies: ReplyFrame[] } {
  const replies: ReplyFrame[] = [];
  return { replies, reply: (f) => void replies.push(f), closed: false, onClose: () => {} };
}

function frame(widen?: { intent_id: string; globs: string[] }): HookFrame {
  return {
    v: 1,
    id: 'req-1',
    token: 't',
    event: 'PreToolUse',
    input: { session_id: 's1', cwd: '/p', tool_name: 'Write', tool_input: { file_path: 'src/billing/x.ts' } },
    verdict: { kind: 'ask', code: 'SCOPE_VIOLATION', reason: 'roz: outside scope', ...(widen ? { widen } : {}) },
  } as HookFrame;
}

describe('widenScope', () => {
  it('adds the glob to the intent, keeps comments, and records the human in the ledger', () => {
    const p = makeProject({ intents: YAML });
    const out = widenScope({
      root: p.root,
      intentId: 'INT-001',
      globs: ['src/billing/x.ts'],
      sessionId: 's1',
      human: 'alice',
      now: new Date('2026-03-01T10:00:00Z'),
    });
    expect(out).toEqual({ ok: true, added: ['src/billing/x.ts'] });
    const text = readFileSync(join(p.root, '.orchestration/active_intents.yaml'), 'utf8');
    expect(text).toMatch(/# intents for the team: keep this comment/);
    expect(text).toMatch(/# the auth module/);
    expect(text).toMatch(/- src\/billing\/x\.ts/);
    const rec = JSON.parse(readFileSync(join(p.root, '.orchestration/agent_trace.jsonl'), 'utf8').trim());
    expect(rec.metadata['dev.roz']).toMatchObject({
      intent_id: 'INT-001',
      tool_name: 'roz:scope-widened',
      scope_added: ['src/billing/x.ts'],
      decided_by: 'alice',
    });
    expect(rec.files[0].conversations[0].contributor).toEqual({ type: 'human' });
  });

  it('refuses globs outside the project or into .orchestration/, and unknown intents', () => {
    for (const g of ['/etc/passwd', '../x', 'src/../../x', '.orchestration/active_intents.yaml', '~/x', '']) expect(acceptableGlob(g), g).toBe(false);
    const p = makeProject({ intents: YAML });
    expect(widenScope({ root: p.root, intentId: 'INT-001', globs: ['../outside'], sessionId: 's', human: 'a', now: new Date() }).ok).toBe(false);
    expect(widenScope({ root: p.root, intentId: 'NOPE', globs: ['src/x'], sessionId: 's', human: 'a', now: new Date() }).ok).toBe(false);
  });
});

describe('ApprovalBroker g (widen)', () => {
  it('allows the call after the callback widened the scope, and only for a scope question', () => {
    const seen: string[][] = [];
    const broker = new ApprovalBroker({
      timeoutMs: 60_000,
      record: () => {},
      onChange: () => {},
      widen: (a) => (seen.push(a.widen!.globs), { ok: true, added: a.widen!.globs }),
    });
    const c = conn();
    broker.request(frame({ intent_id: 'INT-001', globs: ['src/billing/x.ts'] }), c);
    expect(broker.pending()[0]).toMatchObject({ widen: { intent_id: 'INT-001', globs: ['src/billing/x.ts'] }, cwd: '/p' });
    expect(broker.answer(broker.pending()[0]!.id, { action: 'widen' })).toBe(true);
    expect(seen).toEqual([['src/billing/x.ts']]);
    expect(c.replies.at(-1)).toMatchObject({
      // The hook's own frame id, though the human answered by the short one.
      id: 'req-1',
      type: 'answer',
      decision: 'allow',
      reason: expect.stringMatching(/added src\/billing\/x\.ts to the owned_scope of intent INT-001/),
    });
    broker.dispose();

    const plain = new ApprovalBroker({ timeoutMs: 60_000, record: () => {}, onChange: () => {}, widen: () => ({ ok: true, added: [] }) });
    const c2 = conn();
    plain.request(frame(), c2);
    expect(plain.answer(plain.pending()[0]!.id, { action: 'widen' })).toBe(false);
    expect(plain.pending()).toHaveLength(1);
    plain.dispose();
  });

  it('a failed widen keeps the request pending for another answer', () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000, record: () => {}, onChange: () => {}, widen: () => ({ ok: false, error: 'file invalid' }) });
    broker.request(frame({ intent_id: 'INT-001', globs: ['src/x'] }), conn());
    expect(broker.answer(broker.pending()[0]!.id, { action: 'widen' })).toBe(false);
    expect(broker.pending()).toHaveLength(1);
    broker.dispose();
  });
});

describe('g on an agent in its worktree (issue 25)', () => {
  it('the supervisor widens the BASE checkout’s intents file, not the copy in the agent’s worktree', async () => {
    const { sup, env, store } = await startSupervisor();
    try {
      const gitEnv = { ...env, ...GIT_ISOLATED };
      const tmp = realpathSync(tempDir('roz-widen-wt-'));
      const main = join(tmp, 'repo');
      mkdirSync(join(main, '.orchestration'), { recursive: true });
      writeFileSync(join(main, '.orchestration', 'active_intents.yaml'), YAML);
      const git = (...args: string[]) => execFileSync('git', args, { cwd: main, env: gitEnv, stdio: 'pipe' });
      git('init', '-q', '-b', 'main');
      git('add', '-A');
      git('commit', '-q', '-m', 'intents');
      // The built CLI records the agent in the supervisor's store, as a human's `roz agent add` does.
      const add = spawnSync(process.execPath, [rozBin, 'agent', 'add', 'b'], { cwd: main, env: gitEnv, encoding: 'utf8' });
      expect(add.status, add.stderr).toBe(0);
      const wt = join(tmp, 'repo.roz', 'b');
      const copy = readFileSync(join(wt, '.orchestration', 'active_intents.yaml'), 'utf8');
      expect(copy).toBe(YAML);
      expect(store).toBe(sup.store.root);

      const raw = preToolUse('x', { cwd: wt, tool_name: 'Write', tool_input: { file_path: join(wt, 'src/billing/x.ts'), content: 'x' } });
      const pending = relay(
        env,
        { kind: 'ask', code: 'SCOPE_VIOLATION', reason: 'outside scope', widen: { intent_id: 'INT-001', globs: ['src/billing/x.ts'] } },
        raw,
      );
      await until(() => sup.queue().length === 1, 'the scope question to be queued');
      expect(sup.answer(sup.queue()[0]!.id, { action: 'widen' })).toBe(true);
      expect((await pending).verdict.kind).toBe('allow');
      expect(readFileSync(join(main, '.orchestration', 'active_intents.yaml'), 'utf8')).toMatch(/- src\/billing\/x\.ts/);
      expect(readFileSync(join(wt, '.orchestration', 'active_intents.yaml'), 'utf8')).toBe(copy);
      // Recorded where the edited file is: the base checkout's ledger.
      const rec = JSON.parse(readFileSync(join(main, '.orchestration', 'agent_trace.jsonl'), 'utf8').trim());
      expect(rec.metadata['dev.roz']).toMatchObject({ tool_name: 'roz:scope-widened', scope_added: ['src/billing/x.ts'] });
    } finally {
      await sup.close();
    }
  });
});
