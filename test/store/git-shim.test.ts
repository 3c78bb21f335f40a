// roz's git shim (plugin/git-shim/git) runs the git the launcher resolved,
// never one found on PATH (the client runs it outside the sandbox, and the
// project's node_modules/.bin may hold a planted git: test/e2e/git-trust-plants),
// and never loops.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';

const SHIM_DIR = resolve(import.meta.dirname, '../../plugin/git-shim');
const SHIM = join(SHIM_DIR, 'git');
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'roz-shim-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A folder holding a `git` that leaves a mark and execs `target`. */
function wrapper(name: string, target: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'git'), `#!/bin/sh\necho ${name} >> "${root}/marks"\nexec "${target}" "$@"\n`);
  chmodSync(join(dir, 'git'), 0o755);
  return dir;
}
/** `git --version` as the client or the agent's shell runs it: by name, on `path`. */
const run = (path: string, env: Record<string, string> = {}) =>
  spawnSync('/bin/sh', ['-c', 'git --version'], { env: { PATH: path, ...env }, encoding: 'utf8', timeout: 10_000 });
const marks = (): string => (existsSync(join(root, 'marks')) ? readFileSync(join(root, 'marks'), 'utf8') : '');

test("a git planted in a PATH folder after the shim never runs: the shim runs the launcher's git, else a system one", () => {
  const planted = wrapper('planted', '/usr/bin/git');
  const r = run(`${SHIM_DIR}:${planted}:/usr/bin:/bin`);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^git version /);
  expect(marks()).toBe('');
  // The launcher's choice (ROZ_REAL_GIT) is what runs.
  const chosen = wrapper('chosen', '/usr/bin/git');
  const c = run(`${SHIM_DIR}:${planted}:/usr/bin:/bin`, { ROZ_REAL_GIT: join(chosen, 'git') });
  expect(c.status, c.stderr).toBe(0);
  expect(marks()).toMatch(/^(chosen\n)+$/);
});

test('a wrapper that execs the shim, and ROZ_REAL_GIT naming the shim itself: the real git answers, no loop', () => {
  const w = wrapper('w', SHIM);
  const r = run(`${w}:${SHIM_DIR}:/usr/bin:/bin`, { ROZ_REAL_GIT: SHIM });
  expect(r.error).toBeUndefined();
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^git version /);
  expect(marks()).toBe('w\n');
});

test('GIT_OBJECT_DIRECTORY already set (by the agent) is left as it is', () => {
  const repo = join(root, 'r');
  execFileSync('git', ['init', '-q', repo]);
  mkdirSync(join(repo, '.git', 'roz-objects'));
  mkdirSync(join(root, 'mine'));
  const r = spawnSync(SHIM, ['rev-parse', '--git-path', 'objects'], {
    cwd: repo,
    env: { PATH: `${SHIM_DIR}:/usr/bin:/bin`, GIT_OBJECT_DIRECTORY: join(root, 'mine') },
    encoding: 'utf8',
  });
  expect(r.stdout.trim()).toBe(join(root, 'mine'));
  const routed = spawnSync(SHIM, ['rev-parse', '--git-path', 'objects'], { cwd: repo, env: { PATH: `${SHIM_DIR}:/usr/bin:/bin` }, encoding: 'utf8' });
  expect(routed.stdout.trim()).toBe(join(repo, '.git', 'roz-objects'));
});
