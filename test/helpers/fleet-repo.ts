// A real temporary repository with roz's throwaway store, and reviews recorded
// through the plugin's real hooks (so a decision's tree is roz's own snapshot
// of the agent's worktree, as in a real session). Shared by the process tests
// of the merge gate's values, `--human` and `agent push`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { payloads, rozBin, runHook, runProcess, sandbox } from './hooks.js';
import { tempDir } from './temp-dir.js';
import { GIT_ENV } from './test-git.js';

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function commitFile(cwd: string, file: string, text: string, msg = `edit ${file}`): void {
  mkdirSync(join(cwd, file, '..'), { recursive: true });
  writeFileSync(join(cwd, file), text);
  git(cwd, 'add', file);
  git(cwd, 'commit', '-q', '-m', msg);
}

export function fleetRepo(extraEnv: Record<string, string> = {}) {
  const tmp = realpathSync(tempDir('roz-fleet-'));
  const repo = join(tmp, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  commitFile(repo, 'README.md', 'hello\n', 'init');
  const sb = sandbox(extraEnv);
  const rozIn = (cwd: string, ...args: string[]) => runProcess(process.execPath, [rozBin, ...args], '', sb.env, cwd);
  return { tmp, repo, env: sb.env, store: sb.store, home: sb.home, rozIn };
}

/** A session in `wt` (its project) that starts, through the real hook: the session a human approval is recorded in. */
export async function startSession(env: NodeJS.ProcessEnv, wt: string): Promise<string> {
  const sid = randomUUID();
  await runHook('SessionStart', payloads(sid, wt).sessionStart(), { ...env, CLAUDE_PROJECT_DIR: wt });
  return sid;
}

/** A session in `wt` that asks for a review (#roz) and whose reviewer records `outcome`, through the real hooks. */
export async function review(env: NodeJS.ProcessEnv, wt: string, outcome: 'COMPLETE' | 'ISSUES'): Promise<string> {
  const sid = randomUUID();
  const e = { ...env, CLAUDE_PROJECT_DIR: wt };
  const p = payloads(sid, wt);
  await runHook('SessionStart', p.sessionStart(), e);
  await runHook('UserPromptSubmit', p.prompt('#roz finish the task'), e);
  expect((await runHook('Stop', p.stop(), e)).json?.decision).toBe('block');
  const agentId = `rev${sid.slice(0, 8)}`;
  await runHook('SubagentStart', p.subagentStart(agentId), e);
  const args = outcome === 'COMPLETE' ? ['COMPLETE', 'checked the diff'] : ['ISSUES', 'broken', '--message', 'fix it'];
  const bash = p.pre('Bash', { command: `roz decide ${sid} ${args.map((a) => JSON.stringify(a)).join(' ')}` }, { agent_id: agentId, agent_type: 'roz:roz' });
  expect((await runHook('PreToolUse', bash, e)).json?.hookSpecificOutput?.permissionDecision).toBe('allow');
  const decided = await runProcess(process.execPath, [rozBin, 'decide', ...args], '', { ...e, CLAUDE_CODE_SESSION_ID: sid }, wt);
  expect(decided.code, decided.stderr).toBe(0);
  await runHook('PostToolUse', { ...bash, hook_event_name: 'PostToolUse', tool_response: { stdout: decided.stdout } }, e);
  await runHook('SubagentStop', p.subagentStop(agentId), e);
  return sid;
}
