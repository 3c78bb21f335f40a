// A session whose supervisor died (issue 25 part 5): its client got SIGHUP
// with the supervisor's ptys, and an http SessionEnd (clients from 2.1.295)
// had nobody to reach, so the store never saw it end. SessionStart records
// which supervisor served the client (ROZ_SUPERVISOR_PID, from the
// supervisor's own environment); `roz agent ls` shows such a session's
// agent as exited once that process is gone. Real hooks, the built CLI.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { payloads, rozBin, runHook, runProcess, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

describe('roz agent ls after the supervisor died', () => {
  it("an agent whose session's supervisor is gone shows as exited; with its supervisor alive, or none recorded, running", async () => {
    const tmp = realpathSync(tempDir('roz-ls-exited-'));
    const repo = join(tmp, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: GIT_ENV });
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'init'], { cwd: repo, env: GIT_ENV });
    const sb = sandbox();
    const roz = (...args: string[]) => runProcess(process.execPath, [rozBin, ...args], '', sb.env, repo);
    for (const name of ['gone', 'alive', 'plain']) expect((await roz('agent', 'add', name, '--no-start')).code).toBe(0);
    const listed = () => roz('agent', 'ls', '--json').then((r) => JSON.parse(r.stdout) as Array<{ name: string; worktree: string; state: string }>);
    const where = Object.fromEntries((await listed()).map((a) => [a.name, a.worktree]));

    // A pid that was a process and is no more: a supervisor killed with SIGKILL.
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    const started: Record<string, string | undefined> = { gone: String(dead), alive: String(process.pid), plain: undefined };
    for (const [name, pid] of Object.entries(started)) {
      const wt = where[name]!;
      const env = { ...sb.env, CLAUDE_PROJECT_DIR: wt, ...(pid ? { ROZ_SUPERVISOR_PID: pid } : {}) };
      const r = await runHook('SessionStart', payloads(randomUUID(), wt).sessionStart(), env);
      expect(r.code, r.stderr).toBe(0);
    }
    const states = Object.fromEntries((await listed()).map((a) => [a.name, a.state]));
    expect(states).toEqual({ gone: 'exited (its supervisor is gone)', alive: 'running', plain: 'running' });
  });
});
