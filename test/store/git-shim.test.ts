// roz's git shim (plugin/git-shim/git) finds the real git past any wrapper
// the agent puts around it, and never loops (a planted `git` that execs the
// one the shell found is what test/e2e/git-trust-plants does).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
/** `git --version` as the agent's shell runs it: by name, on `path`. */
const run = (path: string) => spawnSync('/bin/sh', ['-c', 'git --version'], { env: { PATH: path }, encoding: 'utf8', timeout: 10_000 });

test.each([
  ['a wrapper before the shim, execing it by path', (w: string) => `${w}:${SHIM_DIR}:/usr/bin:/bin`],
  ['a wrapper after the shim, execing it by path', (w: string) => `${SHIM_DIR}:${w}:/usr/bin:/bin`],
  ['the shim not on PATH, a wrapper first', (w: string) => `${w}:/usr/bin:/bin`],
])('%s: the real git answers', (_, path) => {
  const r = run(path(wrapper('w', SHIM)));
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^git version /);
  // The wrapper ran (it stands between the shell and the shim, or the shim and git), and the chain ended.
  expect(readFileSync(join(root, 'marks'), 'utf8')).toMatch(/^(w\n)+$/);
});

test('two wrappers that exec the shim and no real git: it gives up (127), it does not loop', () => {
  const a = wrapper('a', SHIM);
  const b = wrapper('b', SHIM);
  const r = spawnSync(SHIM, ['--version'], { env: { PATH: `${a}:${b}` }, encoding: 'utf8', timeout: 10_000 });
  expect(r.error).toBeUndefined();
  expect(r.status).toBe(127);
  expect(r.stderr).toMatch(/found no other/);
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
