// `roz agent add NAME --agent codex|gemini|claude`: the client is checked and kept in the fleet's
// registry (and shown by `roz agent ls`); a Codex agent is told how to start it under roz run (a running
// supervisor starts it: test/e2e/fleet-mixed.e2e.test.ts), a Gemini agent under roz exec.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rozBin, runProcess, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';
import { GIT_ENV } from '../helpers/test-git.js';

function repoWithCommit(): string {
  const repo = join(realpathSync(tempDir('roz-agent-client-')), 'repo');
  mkdirSync(repo);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: GIT_ENV, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), 'hello\n');
  git('add', 'README.md');
  git('commit', '-q', '-m', 'init');
  return repo;
}

describe('roz agent add --agent', () => {
  it('keeps the client in the registry, says how to start a Codex or Gemini agent, and refuses an unknown client', async () => {
    const repo = repoWithCommit();
    const sb = sandbox();
    const roz = (...args: string[]) => runProcess(process.execPath, [rozBin, ...args], '', sb.env, repo);
    const codex = await roz('agent', 'add', 'cx', '--agent', 'codex', '--prompt', 'fix it', '--no-start');
    expect(codex.code, codex.stderr).toBe(0);
    expect(codex.stdout).toContain("roz run -- codex 'fix it'");
    const gemini = await roz('agent', 'add', 'gm', '--agent', 'gemini', '--no-start');
    expect(gemini.stdout).toContain('roz run gemini');
    expect(await roz('agent', 'add', 'cl', '--no-start').then((r) => r.code)).toBe(0);
    const bad = await roz('agent', 'add', 'x', '--agent', 'aider');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('the clients are claude, codex, gemini');
    const rows = JSON.parse((await roz('agent', 'ls', '--json')).stdout) as Array<{ name: string; client: string }>;
    expect(Object.fromEntries(rows.map((r) => [r.name, r.client]))).toEqual({ cx: 'codex', cl: 'claude', gm: 'gemini' });
  });
});
