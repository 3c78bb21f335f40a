// roz as a package: `npm pack` (whose prepack builds plugin/dist) and a global
// install of the tarball into a temporary prefix give a `roz` whose `roz run`
// starts a program in a real pty, with no extra npm flags. A copy of the
// plugin without node_modules (Claude Code's plugin cache) borrows the pty
// module from that install, or says in one line how to get it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPtyScreen } from '../supervisor/helpers/pty-screen.js';
import { tempDir } from '../helpers/temp-dir.js';

const repo = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
const work = tempDir('roz-pack-');
const prefix = join(work, 'prefix');
const installed = join(prefix, 'lib', 'node_modules', 'roz');
// No roz on this PATH but the ones a test puts there; node for the #! lines.
const basePath = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');

/** The environment of a fresh shell: none of the npm_* variables `npm test` sets. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('npm_') && !k.startsWith('ROZ_') && !k.startsWith('CLAUDE')) env[k] = v;
  return { ...env, PATH: basePath, ROZ_STORAGE_PATH: join(work, 'store'), ROZ_CODE_CACHE: 'off', ...extra };
}

function sh(cmd: string, args: string[], cwd: string, env = cleanEnv()) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 180_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  // A copy of the checkout without its build, so the test shows that packing builds it.
  const src = join(work, 'src');
  for (const p of ['package.json', 'package-lock.json', 'README.md', 'tsconfig.json', '.claude-plugin', 'bin', 'docs', 'plugin', 'schemas', 'scripts', 'src']) {
    cpSync(join(repo, p), join(src, p), { recursive: true, filter: (f) => !f.includes(`${'/'}plugin${'/'}dist`) });
  }
  symlinkSync(join(repo, 'node_modules'), join(src, 'node_modules'));
  expect(existsSync(join(src, 'plugin', 'dist'))).toBe(false);
  const npm = 'npm';
  const packed = sh(npm, ['pack', '--pack-destination', work, '--json'], src, cleanEnv({ PATH: `${dirname(process.execPath)}:${process.env.PATH}` }));
  expect(packed.code, packed.err).toBe(0);
  const [info] = JSON.parse(packed.out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  expect(info!.files.map((f) => f.path)).toEqual(expect.arrayContaining(['plugin/dist/cli.mjs', 'plugin/dist/hook.cjs', 'plugin/bin/roz', 'bin/roz']));
  // From npm's cache when it has the packages (it does after `npm ci`), else from the registry.
  const inst = sh(
    npm,
    ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(work, info!.filename)],
    work,
    cleanEnv({ PATH: `${dirname(process.execPath)}:${process.env.PATH}` }),
  );
  expect(inst.code, inst.err).toBe(0);
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('roz installed from a packed tarball', () => {
  const roz = join(prefix, 'bin', 'roz');

  it('has a roz command that reports its version and help', () => {
    const v = sh(roz, ['--version'], work);
    expect(v.code, v.err).toBe(0);
    expect(v.out.trim()).toBe(pkg.version);
    const help = sh(roz, ['run', '--help'], work);
    expect(help.code, help.err).toBe(0);
    expect(help.out).toMatch(/Usage: roz run/);
    // The only dependency is the pty module, shipped prebuilt: nothing was compiled.
    expect(existsSync(join(installed, 'node_modules', '@lydell', 'node-pty'))).toBe(true);
    expect(existsSync(join(installed, 'node_modules', '@lydell', 'node-pty', 'build'))).toBe(false);
  });

  // The child prints, then waits for a line: what it printed is on the screen while it runs.
  const child = ['/bin/sh', '-c', 'echo "hello from the $0"; read line', 'pty'];

  it('roz run starts a program in a pty', async () => {
    const t = startPtyScreen(roz, ['run', '--no-stats', '--', ...child], { cols: 100, rows: 24, env: cleanEnv(), cwd: work });
    try {
      await t.waitFor('hello from the pty', 'the child in the pane');
      await t.waitFor(/roz .*review .*breaker/, "roz's status line");
      t.write('\r');
      expect(await t.exited).toBe(0);
    } finally {
      t.kill();
    }
  });

  it("the plugin's bin/roz without node_modules borrows the pty module from the installed roz, or says in one line how to get it", async () => {
    const cache = join(work, 'plugin-cache');
    cpSync(join(installed, 'plugin'), cache, { recursive: true });
    const alone = startPtyScreen(join(cache, 'bin', 'roz'), ['run', '--', '/bin/echo', 'hi'], { cols: 300, rows: 10, env: cleanEnv(), cwd: work });
    expect(await alone.exited).toBe(1);
    const said = alone.raw().trim().split(/\r?\n/);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^roz run: @lydell\/node-pty is not installed beside this roz.*npm install -g/);

    const withInstall = startPtyScreen(join(cache, 'bin', 'roz'), ['run', '--no-stats', '--', ...child], {
      cols: 100,
      rows: 24,
      env: cleanEnv({ PATH: `${join(prefix, 'bin')}:${basePath}` }),
      cwd: work,
    });
    try {
      await withInstall.waitFor('hello from the pty', 'the child in the pane');
      withInstall.write('\r');
      expect(await withInstall.exited).toBe(0);
    } finally {
      withInstall.kill();
    }
  });
});
