// The one line the human reads for an ask or a denial, produced where the
// agent's text is produced: by the guard and the governance policy, carried
// in the verdict, shown by the panel, the status line and `roz trace`.
import { beforeAll, describe, expect, it } from 'vitest';
import { formatTraceLine } from '../../src/cli/commands/inspect.js';
import { governanceOf } from '../../src/core/governance/state.js';
import { guardVerdict } from '../../src/core/guard.js';
import { destructiveLine, HUMAN_MAX, humanReason, outsideScopeLine } from '../../src/core/human-reason.js';
import { loadAllOnDemand } from '../../src/core/on-demand.js';
import { combine } from '../../src/core/verdict.js';
import { governanceOnPreToolUse } from '../../src/engine/governance/gate.js';
import { makeProject, pre, session } from '../governance/helpers.js';

beforeAll(loadAllOnDemand);

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('the human reason', () => {
  it('says what a destructive command destroys, with its operands', () => {
    expect(destructiveLine({ rule: 'rm-recursive-force', command: 'rm -rf build', why: 'rm -rf deletes whole trees without asking' })).toBe(
      'deletes the tree build/',
    );
    expect(destructiveLine({ rule: 'rm-recursive-force', command: 'rm -rf a b/', why: '' })).toBe('deletes the trees a/ b/');
    expect(destructiveLine({ rule: 'mkfs', command: 'mkfs.ext4 /dev/sda1', why: 'mkfs formats a filesystem' })).toBe(
      'mkfs formats a filesystem: mkfs.ext4 /dev/sda1',
    );
  });

  it('is one line of bounded length, whatever the agent wrote', () => {
    const l = destructiveLine({ rule: 'x', command: `rm\n${'y'.repeat(500)}`, why: 'w' });
    expect(l).not.toContain('\n');
    expect(l.length).toBeLessThanOrEqual(HUMAN_MAX);
    expect(outsideScopeLine('a', 'INT-1', ['s/**', 't/**', 'u/**', 'v/**', 'w/**'])).toBe("a is outside INT-1's scope: s/**, t/**, u/** +2 more");
  });

  it('the guard carries it next to the agent text', () => {
    const r = guardVerdict({ destructive: true, findings: [{ rule: 'rm-recursive-force', command: 'rm -rf build', why: 'w' }] }, '`rm -rf build`', 'ask');
    expect(r.verdict).toMatchObject({ kind: 'ask', human: 'deletes the tree build/', reason: expect.stringContaining('If nobody can answer') });
  });

  it('two asks in one: both reasons on one line', () => {
    const v = combine(
      { kind: 'ask', code: 'SCOPE_VIOLATION', reason: 'a', human: 'x is outside' },
      { kind: 'ask', code: 'DESTRUCTIVE_BLOCKED', reason: 'b', human: 'deletes x' },
    );
    expect(v).toMatchObject({ kind: 'ask', reason: 'a\nb', human: 'x is outside; deletes x' });
  });

  it('rm -rf build outside the scope in a governed repo: scope and destruction, no absolute path, no MCP instructions', () => {
    const p = makeProject();
    const s = session();
    governanceOf(s).intent_id = 'INT-001';
    const d = { env: { HOME: p.home }, now: new Date('2026-03-01T10:00:00Z'), storeRoot: p.store, home: p.home };
    const r = governanceOnPreToolUse(s, pre(p.root, 'Bash', { command: 'rm -rf build' }), d);
    expect(r.verdict.kind).toBe('ask');
    const human = humanReason(r.verdict)!;
    expect(human).toBe("build is outside INT-001's scope: src/auth/**, src/middleware/jwt.ts; deletes the tree build/");
    expect(human).not.toContain(p.root);
    // No intent selected: a denial with its own line.
    const none = governanceOnPreToolUse(session('s2'), pre(p.root, 'Write', { file_path: 'src/auth/a.ts', content: '' }), d);
    expect(humanReason(none.verdict)).toBe('changes files with no intent selected');
  });

  it('verdicts from producers without a line fall back to one per code', () => {
    expect(humanReason({ kind: 'deny', code: 'REVIEW_REQUIRED', reason: 'roz: long text for the agent. More.' })).toBe('needs an independent review first');
    expect(humanReason({ kind: 'allow' })).toBeNull();
  });

  it('roz trace shows the line, not the agent text', () => {
    const rec = {
      ts: '2026-03-01T10:00:00.000Z',
      event: 'PreToolUse',
      session_id: 's',
      tool_name: 'Bash',
      tool_input: { value: { command: 'rm -rf build' } },
      verdict: { kind: 'ask', code: 'DESTRUCTIVE_BLOCKED', reason: 'roz: If nobody can answer (claude -p, CI)…', human: 'deletes the tree build/' },
    };
    const line = plain(formatTraceLine(rec, false));
    expect(line).toMatch(/PreToolUse\s+Bash rm -rf build → ask DESTRUCTIVE_BLOCKED: deletes the tree build\/$/);
    expect(line).not.toContain('If nobody can answer');
    // A record written before the line existed: the code's line.
    const old = plain(formatTraceLine({ ...rec, verdict: { kind: 'ask', code: 'DESTRUCTIVE_BLOCKED', reason: 'roz: x' } }, false));
    expect(old).toMatch(/→ ask DESTRUCTIVE_BLOCKED: destructive command$/);
  });
});
