// `roz exec` as a process, with no terminal: it launches claude with a
// per-run --settings file (absolute paths, private, removed afterwards) and
// roz's plugin, and exits with claude's code. A fake `claude` reports what it got.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, realpathSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROZ_BIN } from '../e2e/harness/workspace.js';
import { pluginDir } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function world() {
  const root = tempDir('roz-exec-');
  dirs.push(root);
  const bin = join(root, 'bin');
  const home = join(root, 'home');
  const project = join(root, 'project');
  for (const d of [bin, home, join(project, '.orchestration')]) mkdirSync(d, { recursive: true });
  const report = join(root, 'report.json');
  // Reports its argv, the settings file it was given (and its mode) and the env roz set.
  writeFileSync(
    join(bin, 'claude'),
    `#!/usr/bin/env node
const fs = require('fs');
// Listening before it reports, so a signal sent after the report is always heard.
if (process.env.FAKE_WAIT) process.on('SIGTERM', () => { fs.writeFileSync(${JSON.stringify(report)} + '.term', 'got SIGTERM'); process.exit(143); });
const i = process.argv.indexOf('--settings');
const file = process.argv[i + 1];
fs.writeFileSync(${JSON.stringify(report)} + '.tmp', JSON.stringify({ argv: process.argv.slice(2), file, mode: fs.statSync(file).mode & 0o777, settings: JSON.parse(fs.readFileSync(file, 'utf8')), env: process.env.ROZ_SETTINGS_FILE, token: process.env.ROZ_TOKEN ?? null }));
fs.renameSync(${JSON.stringify(report)} + '.tmp', ${JSON.stringify(report)}); // whole, for a test that polls for it
if (process.env.FAKE_WAIT) setInterval(() => {}, 1000);
else process.exit(Number(process.env.FAKE_EXIT || 0));
`,
  );
  chmodSync(join(bin, 'claude'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH}`, HOME: home, ROZ_STORAGE_PATH: join(root, 'store'), ROZ_ENFORCE_NETWORK: 'open' };
  return { root, project, report, env, store: join(root, 'store') };
}

const exec = (w: ReturnType<typeof world>, args: string[], extra: Record<string, string> = {}) =>
  spawnSync(process.execPath, [ROZ_BIN, 'exec', ...args], {
    cwd: w.project,
    env: { ...w.env, ...extra },
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 20_000,
  });

describe('roz exec', () => {
  it("launches claude with roz's settings and plugin, without a terminal, and exits with claude's code", () => {
    const w = world();
    const r = exec(w, ['--', 'claude', '-p', 'hello', '--settings', '{"model":"opus","sandbox":{"enabled":false}}'], { FAKE_EXIT: '7' });
    expect(r.status, r.stderr).toBe(7);
    const got = JSON.parse(readFileSync(w.report, 'utf8'));
    expect(got.argv.slice(0, 2)).toEqual(['--settings', got.file]);
    expect(got.argv).toContain('--plugin-dir');
    expect(got.argv.slice(-2)).toEqual(['-p', 'hello']);
    expect(got.argv.filter((a: string) => a === '--settings')).toHaveLength(1);
    expect(got.env).toBe(got.file);
    expect(got.file.startsWith(join(w.store, 'runs') + '/')).toBe(true);
    expect(got.mode).toBe(0o600);
    // the user's own settings are merged under roz's: they add, never loosen
    expect(got.settings.model).toBe('opus');
    expect(got.settings.sandbox).toMatchObject({
      enabled: true,
      allowUnsandboxedCommands: false,
      network: { allowAllUnixSockets: false, allowedDomains: ['*'] },
    });
    expect(got.settings.sandbox.filesystem.denyWrite).toEqual(
      expect.arrayContaining([w.store, join(w.project, '.orchestration'), got.file, realpathSync(pluginDir)]),
    );
    expect(got.settings.permissions.deny).toContain(`Edit(/${realpathSync(pluginDir)}/**)`);
    // the run's private directory is gone once claude is
    expect(existsSync(got.file)).toBe(false);
    expect(statSync(join(w.store, 'runs')).mode & 0o077).toBe(0);
  });

  it('roz settings prints the same document; --managed names .orchestration/ relative to each project', () => {
    const w = world();
    const settings = (args: string[]) => {
      const r = spawnSync(process.execPath, [ROZ_BIN, 'settings', ...args], { cwd: w.project, env: w.env, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const doc = settings(['--json']);
    expect(doc.sandbox).toMatchObject({
      enabled: true,
      failIfUnavailable: true,
      allowUnsandboxedCommands: false,
      network: { allowAllUnixSockets: false, allowedDomains: ['*'] },
    });
    expect(doc.sandbox.filesystem.denyWrite).toEqual(expect.arrayContaining([w.store, join(w.project, '.orchestration')]));
    expect(doc.permissions.deny).toContain(`Edit(/${join(w.project, '.orchestration')}/**)`);
    const managed = settings(['--managed']);
    expect(managed.sandbox.filesystem.denyWrite).not.toContain(join(w.project, '.orchestration'));
    expect(managed.permissions.deny).toContain('Edit(.orchestration/**)');
    expect(managed.permissions.deny.some((r: string) => r.includes(w.project))).toBe(false);
  });

  it('forwards SIGTERM to claude and exits with its code, removing the settings file', async () => {
    const w = world();
    const child = spawn(process.execPath, [ROZ_BIN, 'exec', '--', 'claude', '-p', 'x'], { cwd: w.project, env: { ...w.env, FAKE_WAIT: '1' }, stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    for (let i = 0; i < 800 && !existsSync(w.report); i++) await new Promise((r) => setTimeout(r, 25)); // poll (up to 20 s: another test file runs beside this one): claude is up once it reported
    const got = JSON.parse(readFileSync(w.report, 'utf8'));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(readFileSync(`${w.report}.term`, 'utf8')).toBe('got SIGTERM');
    expect(existsSync(got.file)).toBe(false);
  });

  it('says why it cannot start: unknown command 127, unreadable --settings 2', () => {
    const w = world();
    expect(exec(w, ['--', 'no-such-agent']).status).toBe(127);
    const r = exec(w, ['--', 'claude', '--settings', 'missing.json']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/roz exec: cannot use --settings/);
  });
});
