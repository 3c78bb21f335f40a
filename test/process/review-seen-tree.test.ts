// An approval covers only what the reviewer could have seen (issue 22),
// through the plugin's own hook commands and the real CLI, in a real git
// repository: the tree is taken at the reviewer's SubagentStart, a file
// written after it (seen by no hook) is named at `roz decide`, and the
// approval's covers list leaves out roz's own .orchestration/ files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { payloads, roz, runHook, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const SID = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const REV = 'a5eed7ee1234abcd0';
const made: string[] = [];
afterEach(() => made.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function repo(): string {
  const dir = tempDir('roz-seen-');
  made.push(dir);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README.md'), '# p\n');
  git('add', 'README.md');
  git('commit', '-qm', 'init');
  return dir;
}

describe('the tree a reviewer could have seen (real hooks, real git)', () => {
  it('a file written after the reviewer started re-arms at its decision, by name; covers lists only project files', async () => {
    const dir = repo();
    const { env, home } = sandbox();
    made.push(home);
    const p = payloads(SID, dir);
    await runHook('SessionStart', p.sessionStart(), env);
    await runHook('UserPromptSubmit', p.prompt('#roz write hello.txt'), env);
    writeFileSync(join(dir, 'hello.txt'), 'hello\n');
    // roz's own ledger in the project: not the agent's work.
    mkdirSync(join(dir, '.orchestration'));
    writeFileSync(join(dir, '.orchestration', 'agent_trace.jsonl'), '{}\n');
    expect((await runHook('Stop', p.stop(), env)).json?.decision).toBe('block');

    await runHook('SubagentStart', p.subagentStart(REV), env);
    const as = { agent_id: REV, agent_type: 'roz:roz' };
    // The reviewer reads with plain git diff; then the agent writes a file no hook sees.
    await runHook('PreToolUse', p.pre('Bash', { command: 'git diff HEAD' }, as), env);
    writeFileSync(join(dir, 'late.txt'), 'late\n');

    const pre = await runHook('PreToolUse', p.pre('Bash', { command: `roz decide ${SID} COMPLETE "hello.txt is right"` }, as), env);
    expect(pre.json?.hookSpecificOutput?.permissionDecision).toBe('allow');
    const decided = await roz(['decide', 'COMPLETE', 'hello.txt is right'], { ...env, CLAUDE_CODE_SESSION_ID: SID });
    expect(decided.code, decided.stderr).toBe(0);
    expect(decided.stdout).toMatch(/decision recorded: COMPLETE[\s\S]*Since then late\.txt changed \(written by another agent while you reviewed\)/);
    await runHook('SubagentStop', p.subagentStop(REV), env);

    const stop = await runHook('Stop', p.stop(), env);
    expect(stop.json?.decision).toBe('block');
    expect(stop.json?.reason).toMatch(/^roz: late\.txt was written while the review ran, after the reviewer last read the change/);
    const state = JSON.parse((await roz(['debug', SID, '--json'], env)).stdout);
    expect(state.review.decision_history.map((d: { covers?: string[] }) => d.covers)).toEqual([['hello.txt']]);
    expect(state.review.reviewers[REV].seen_tree).toBe(state.review.decision_history[0].tree);
  });
});
