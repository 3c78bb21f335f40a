// roz's launcher tells an agent's hooks which checkout's intents govern it
// (issue 25, docs/fleet.md "Intents"): from roz's registry, by the launch
// directory's real path, into the child's environment (command hooks, the MCP
// server) and into the in-process http hooks' per-agent environment, never
// from the worktree's `.git`; values the caller's environment carried are dropped.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchAgent, prepareLaunch } from '../../src/supervisor/launch/agent-run.js';
import { tempDir } from '../helpers/temp-dir.js';
import { repoRoot } from './helpers/bundle.js';

function world() {
  const top = realpathSync(tempDir('roz-roots-launch-'));
  const [bin, home, repo] = ['bin', 'home', 'repo'].map((d) => join(top, d)) as [string, string, string];
  for (const d of [bin, home, repo]) mkdirSync(d);
  // A child that is not claude (no settings file needed): it writes the environment it got.
  const child = join(bin, 'agent-child');
  writeFileSync(
    child,
    `#!${process.execPath}\nrequire('fs').writeFileSync(process.env.OUT, JSON.stringify({ w: process.env.ROZ_AGENT_WORKTREE ?? null, b: process.env.ROZ_BASE_CHECKOUT ?? null }));\n`,
  );
  chmodSync(child, 0o755);
  const env: Record<string, string> = { PATH: `${bin}:${process.env.PATH}`, HOME: home, ROZ_STORAGE_PATH: join(top, 'store') };
  const gitEnv = {
    ...process.env,
    HOME: home,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: gitEnv });
  execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'first'], { cwd: repo, env: gitEnv });
  execFileSync(process.execPath, [join(repoRoot, 'plugin', 'bin', 'roz'), 'agent', 'add', 'b'], {
    cwd: repo,
    env: { ...env, ...gitEnv, ...env },
    stdio: 'pipe',
  });
  return { top, repo, wt: join(top, 'repo.roz', 'b'), env, child };
}

async function launchIn(w: ReturnType<typeof world>, cwd: string, extra: Record<string, string> = {}) {
  const out = join(w.top, `out-${Math.random().toString(36).slice(2)}.json`);
  const hookEnvs: Record<string, string>[] = [];
  const req = { command: w.child, args: [], cwd, env: { ...w.env, ...extra, OUT: out } };
  const launched = await launchAgent(req, prepareLaunch(req), {
    agent: 'b',
    server: { httpUrl: 'http://127.0.0.1:9', addHookEnv: (e) => void hookEnvs.push(e) },
    reach: {},
  });
  expect(await launched.child.exited).toBe(0);
  const child = JSON.parse(readFileSync(out, 'utf8')) as { w: string | null; b: string | null };
  const hooks = Object.assign({}, ...hookEnvs) as Record<string, string>;
  // Empty in the hooks' env means none (it overrides the launcher's own environment).
  return { child, hooks: { w: hooks.ROZ_AGENT_WORKTREE || null, b: hooks.ROZ_BASE_CHECKOUT || null } };
}

describe('the launcher hands an agent its roots from roz’s registry', () => {
  it('in its worktree (or a folder in it): the worktree and the base checkout, to the child and the in-process hooks', async () => {
    const w = world();
    const roots = { w: w.wt, b: w.repo };
    expect(await launchIn(w, w.wt)).toEqual({ child: roots, hooks: roots });
    mkdirSync(join(w.wt, 'sub'));
    expect(await launchIn(w, join(w.wt, 'sub'))).toEqual({ child: roots, hooks: roots });
    // The agent rewrote its worktree's .git to name another repository: the registry still answers.
    writeFileSync(join(w.wt, '.git'), `gitdir: ${join(w.top, 'elsewhere', '.git')}\n`);
    expect(await launchIn(w, w.wt, { ROZ_BASE_CHECKOUT: '/tmp', ROZ_AGENT_WORKTREE: '/tmp' })).toEqual({ child: roots, hooks: roots });
  });

  it('in the base checkout: none, and a caller’s own values are dropped', async () => {
    const w = world();
    const none = { w: null, b: null };
    expect(await launchIn(w, w.repo, { ROZ_BASE_CHECKOUT: w.top, ROZ_AGENT_WORKTREE: w.repo })).toEqual({ child: none, hooks: none });
    // In the hooks' env both keys are there, empty: they override the launcher's own environment.
    const hookEnvs: Record<string, string>[] = [];
    const req = { command: w.child, args: [], cwd: w.repo, env: { ...w.env, OUT: join(w.top, 'o.json') } };
    const l = await launchAgent(req, prepareLaunch(req), {
      agent: 'b',
      server: { httpUrl: 'http://127.0.0.1:9', addHookEnv: (e) => void hookEnvs.push(e) },
      reach: {},
    });
    await l.child.exited;
    expect(Object.assign({}, ...hookEnvs)).toMatchObject({ ROZ_AGENT_WORKTREE: '', ROZ_BASE_CHECKOUT: '' });
  });
});
