// The scope audit after the fact, on a real git project: a write roz could not
// see (here: straight to disk, as `awk '... > "f"'` or a build script would)
// outside the scope blocks the stop once, is listed, and lands in the ledger
// as unattributed; writes roz judged (in scope, or let through) do not.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HookInput } from '../../src/core/hook-input.js';
import { loadAllOnDemand } from '../../src/core/on-demand.js';
import { governanceOf } from '../../src/core/governance/state.js';
import { governanceOnStop } from '../../src/engine/governance/audit.js';
import { governanceOnPostToolUse } from '../../src/engine/governance/dispatch.js';
import { governanceOnPreToolUse } from '../../src/engine/governance/gate.js';
import { makeProject, post, pre, session } from './helpers.js';

beforeAll(loadAllOnDemand);

const deps = (p: { store: string; home: string }) => ({ env: { HOME: p.home }, now: new Date('2026-03-01T10:00:00Z'), storeRoot: p.store, home: p.home });
const stop = (cwd: string, active = false) =>
  ({ session_id: 'sess-1', cwd, transcript_path: '/tmp/t.jsonl', hook_event_name: 'Stop', stop_hook_active: active }) as HookInput<'Stop'>;

describe('scope audit at Stop', () => {
  it('a write outside the scope that no tool call showed blocks the stop once, listed, and is recorded as unattributed', () => {
    const p = makeProject({ git: true });
    p.write('src/billing/old.ts', 'old\n');
    const s = session('sess-1', p.root);
    governanceOf(s).intent_id = 'INT-001';
    // The first judged call after selection records the base.
    expect(governanceOnPreToolUse(s, pre(p.root, 'Bash', { command: 'ls' }), deps(p)).verdict.kind).toBe('none');
    expect(governanceOf(s).audit?.base?.tree).toMatch(/^[0-9a-f]{40}/);

    // In scope, through a judged Write: fine.
    p.write('src/auth/a.ts', 'a\n');
    governanceOnPostToolUse(s, post(p.root, 'Write', { file_path: join(p.root, 'src/auth/a.ts'), content: 'a\n' }), deps(p));
    // Outside the scope, behind roz's back.
    p.write('src/billing/x.ts', 'sneaky\n');
    writeFileSync(join(p.root, 'src/billing/old.ts'), 'changed\n');

    const first = governanceOnStop(s, stop(p.root), deps(p));
    expect(first.verdict.kind).toBe('block');
    const reason = first.verdict.kind === 'block' ? first.verdict.reason : '';
    expect(reason).toMatch(/^\[SCOPE_VIOLATION\]/);
    expect(reason).toMatch(/src\/billing\/old\.ts/);
    expect(reason).toMatch(/src\/billing\/x\.ts/);
    expect(reason).not.toMatch(/src\/auth\/a\.ts/);
    expect(reason).toMatch(/Revert them|ask the human/);

    const ledger = readFileSync(join(p.root, '.orchestration/agent_trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const un = ledger.filter((r) => r.metadata['dev.roz'].unattributed === true);
    expect(un).toHaveLength(1);
    expect(un[0].files.map((f: { path: string }) => f.path)).toEqual(['src/billing/old.ts', 'src/billing/x.ts']);

    // The same set again: a visible warning, not a second block (no loop).
    const again = governanceOnStop(s, stop(p.root, true), deps(p));
    expect(again.verdict.kind).toBe('none');
    expect(again.warnings.join('\n')).toMatch(/src\/billing\/x\.ts/);
  });

  it('a Bash call the human let through is attributed to it; nothing to block', () => {
    const p = makeProject({ git: true });
    const s = session('sess-1', p.root);
    governanceOf(s).intent_id = 'INT-001';
    const call = pre(p.root, 'Bash', { command: 'bash -c "$GEN"' }, { tool_use_id: 'toolu_gen' });
    expect(governanceOnPreToolUse(s, call, deps(p)).verdict).toMatchObject({ kind: 'ask', code: 'SCOPE_VIOLATION' });
    p.write('docs/generated.md', 'gen\n');
    governanceOnPostToolUse(s, post(p.root, 'Bash', { command: 'bash -c "$GEN"' }, {}, { tool_use_id: 'toolu_gen' }), deps(p));
    expect(governanceOnStop(s, stop(p.root), deps(p)).verdict.kind).toBe('none');
  });

  it("running a project script is allowed, and what it writes outside the scope blocks the stop (issue 22's decision)", () => {
    const p = makeProject({ git: true });
    const s = session();
    governanceOf(s).intent_id = 'INT-001';
    const call = pre(p.root, 'Bash', { command: 'python3 tools/gen.py' }, { tool_use_id: 'toolu_gen' });
    expect(governanceOnPreToolUse(s, call, deps(p)).verdict.kind).toBe('none');
    p.write('docs/generated.md', 'gen\n');
    governanceOnPostToolUse(s, post(p.root, 'Bash', { command: 'python3 tools/gen.py' }, {}, { tool_use_id: 'toolu_gen' }), deps(p));
    const stopped = governanceOnStop(s, stop(p.root), deps(p)).verdict;
    expect(stopped).toMatchObject({ kind: 'block', reason: expect.stringMatching(/^\[SCOPE_VIOLATION\][\s\S]*docs\/generated\.md/) });
  });

  it('outside git, or with no intent selected, there is nothing to audit', () => {
    const p = makeProject();
    const s = session('sess-1', p.root);
    governanceOf(s).intent_id = 'INT-001';
    governanceOnPreToolUse(s, pre(p.root, 'Bash', { command: 'ls' }), deps(p));
    // Outside git the base is recorded as absent, so later calls do not try git again.
    expect(governanceOf(s).audit).toMatchObject({ intent_id: 'INT-001', base: null });
    p.write('src/billing/x.ts', 'x\n');
    expect(governanceOnStop(s, stop(p.root), deps(p)).verdict.kind).toBe('none');
    expect(existsSync(join(p.root, '.orchestration/agent_trace.jsonl'))).toBe(false);
  });
});

describe('git moves are judged by the files they change', () => {
  const gitIn = (root: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      stdio: 'pipe',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
    });

  it('git stash / stash pop / switch REF: in scope when every file they change is, asked otherwise (naming the file)', () => {
    const p = makeProject({ git: true });
    p.write('src/auth/a.ts', 'one\n');
    gitIn(p.root, 'add', '-A');
    gitIn(p.root, 'commit', '-q', '-m', 'a');
    const s = session('sess-1', p.root);
    governanceOf(s).intent_id = 'INT-001';
    const judge = (command: string) => governanceOnPreToolUse(s, pre(p.root, 'Bash', { command }), deps(p)).verdict;

    p.write('src/auth/a.ts', 'two\n');
    expect(judge('git stash').kind).toBe('none');
    gitIn(p.root, 'stash');
    expect(judge('git stash pop').kind).toBe('none');

    p.write('README.md', 'changed\n');
    const v = judge('git stash');
    expect(v).toMatchObject({ kind: 'ask', code: 'SCOPE_VIOLATION' });
    expect(v.kind === 'ask' && v.reason).toMatch(/README\.md/);

    gitIn(p.root, 'checkout', '-q', '--', 'README.md');
    gitIn(p.root, 'switch', '-q', '-c', 'other');
    p.write('src/auth/b.ts', 'b\n');
    gitIn(p.root, 'add', '-A');
    gitIn(p.root, 'commit', '-q', '-m', 'b');
    gitIn(p.root, 'switch', '-q', 'main');
    expect(judge('git switch other').kind).toBe('none');
    expect(judge('git merge other').kind).toBe('none');
    // A ref git cannot resolve: the whole-tree judgement stays (src/auth/** does not own everything).
    expect(judge('git switch no-such-branch')).toMatchObject({ kind: 'ask', code: 'SCOPE_VIOLATION' });
  });
});
