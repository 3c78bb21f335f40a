// `roz exec --require-review` as a process: roz names the run's session
// (`--session-id`), and when claude exits 0 the exit code says how the review
// ended. A fake `claude` plays the session through roz's real hooks.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookCommand, pluginDir, rozBin } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function world() {
  const root = tempDir('roz-require-');
  dirs.push(root);
  const bin = join(root, 'bin');
  const home = join(root, 'home');
  const project = join(root, 'project');
  for (const d of [bin, home, project]) mkdirSync(d, { recursive: true });
  const argvFile = join(root, 'argv.json');
  // Records its argv; with FAKE_PROMPT it plays a session through roz's hooks
  // (as the client would) under the --session-id it was given, then stops FAKE_STOPS times.
  writeFileSync(
    join(bin, 'claude'),
    `#!/usr/bin/env node
const { spawn } = require('child_process');
const fs = require('fs');
const argv = process.argv.slice(2);
fs.writeFileSync(${JSON.stringify(argvFile)}, JSON.stringify(argv));
const i = argv.indexOf('--session-id');
const sid = i >= 0 ? argv[i + 1] : 'fake-session';
const env = { ...process.env, CLAUDE_PLUGIN_ROOT: ${JSON.stringify(pluginDir)} };
// As the client starts hooks: /bin/sh -c <the hooks.json command>, in a session of its own.
const hook = (cmd, payload) =>
  new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', cmd], { env, detached: true, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject).on('close', resolve);
    child.stdin.end(JSON.stringify({ session_id: sid, cwd: process.cwd(), ...payload }));
  });
(async () => {
  if (process.env.FAKE_PROMPT) {
    await hook(${JSON.stringify(hookCommand('UserPromptSubmit'))}, { hook_event_name: 'UserPromptSubmit', prompt: process.env.FAKE_PROMPT });
    for (let n = 0; n < Number(process.env.FAKE_STOPS || 1); n++) await hook(${JSON.stringify(hookCommand('Stop'))}, { hook_event_name: 'Stop', stop_hook_active: n > 0 });
  }
  process.exit(Number(process.env.FAKE_EXIT || 0));
})();
`,
  );
  chmodSync(join(bin, 'claude'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH}`, HOME: home, ROZ_STORAGE_PATH: join(root, 'store'), ROZ_ENFORCE_NETWORK: 'open' };
  const exec = (args: string[], extra: Record<string, string> = {}) =>
    spawnSync(process.execPath, [rozBin, 'exec', ...args], { cwd: project, env: { ...env, ...extra }, encoding: 'utf8', timeout: 30_000 });
  return { exec, argv: (): string[] => JSON.parse(readFileSync(argvFile, 'utf8')) };
}

describe('roz exec --require-review', () => {
  it('names the session, and exits 6 when claude ended cleanly with the review still blocked', () => {
    const w = world();
    const r = w.exec(['--require-review', '--', 'claude', '-p', '#roz task'], { FAKE_PROMPT: '#roz task' });
    expect(r.status, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/ended UNREVIEWED/);
    const argv = w.argv();
    expect(argv[argv.indexOf('--session-id') + 1]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('exits 7 when the circuit breaker let the session stop unreviewed', () => {
    const w = world();
    const r = w.exec(['--require-review', '--', 'claude', '-p', 'x'], { FAKE_PROMPT: '#roz task', FAKE_STOPS: '2', ROZ_MAX_BLOCKS: '1' });
    expect(r.status, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/UNREVIEWED/);
  });

  it('exits 0 when no review was asked for, keeps a caller-chosen session id, and keeps a failing claude code', () => {
    const w = world();
    const sid = '0b5c1f6e-8f3a-4b7e-9d2a-1c3e5f7a9b0d';
    const ok = w.exec(['--require-review', '--', 'claude', '--session-id', sid, '-p', 'x'], { FAKE_PROMPT: 'plain task' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(w.argv().filter((a) => a === '--session-id')).toHaveLength(1);
    const failed = w.exec(['--require-review', '--', 'claude', '-p', 'x'], { FAKE_PROMPT: '#roz task', FAKE_EXIT: '3' });
    expect(failed.status).toBe(3);
  });

  it("without the flag the exit code is claude's alone", () => {
    const w = world();
    const r = w.exec(['--', 'claude', '-p', 'x'], { FAKE_PROMPT: '#roz task' });
    expect(r.status, r.stderr).toBe(0);
    expect(w.argv()).not.toContain('--session-id');
  });
});
