// A launch is planned once (core/launch-plan.ts): the pure plan for each pinned
// client and mode, and RunService.start loading roz's config exactly once per
// run, `roz run` (a supervisor) and `roz exec` (hooks in the launcher) alike.
// A fake `claude` answers `--version` as a pinned client would and reports the
// command line and settings it was started with.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { hookTransport, planRun, type LaunchFacts } from '../../src/core/launch-plan.js';
import { RunService } from '../../src/supervisor/host/run-service.js';
import { repoRoot } from './helpers/bundle.js';
import { tempDir } from '../helpers/temp-dir.js';

// Counts every load of roz's config, by anyone RunService calls.
const loads = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../src/engine/config-loader.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/engine/config-loader.js')>();
  return {
    ...real,
    loadConfig: (...a: Parameters<typeof real.loadConfig>) => {
      loads.n += 1;
      return real.loadConfig(...a);
    },
  };
});

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const config = resolveConfig({ home: '/home/u', env: {} }).config;
const facts = (extra: Partial<LaunchFacts> = {}): LaunchFacts => ({
  command: 'claude',
  args: ['-p', 'hi'],
  config,
  pluginDir: '/roz/plugin',
  pluginDirGiven: false,
  pluginInstalled: false,
  pluginHasHooks: true,
  clientVersion: [2, 1, 330],
  hooks: 'auto',
  server: 'launcher',
  preToolUseTimeoutS: 60,
  path: '/usr/bin',
  ...extra,
});

describe('the launch plan (pure)', () => {
  it('2.1.330: http hooks, the hookless plugin copy loaded, roz on PATH; 2.1.197: command hooks, the plugin itself', () => {
    const http = planRun(facts(), '/store/plugin-http/x');
    expect(http.transport).toEqual({ http: true, note: expect.stringMatching(/http to this roz process \(client 2\.1\.330\)/) });
    expect(http.args).toEqual(['--plugin-dir', '/store/plugin-http/x', '-p', 'hi']);
    expect(http.env).toEqual({ PATH: '/roz/plugin/bin:/usr/bin', ROZ_HOOK_TRANSPORT: 'http' });
    expect(http.storePath).toBe(config.storage.path);

    const old = planRun(facts({ clientVersion: [2, 1, 197] }), '/roz/plugin');
    expect(old.transport).toEqual({ http: false, note: expect.stringMatching(/2\.1\.197 predates onFailure/) });
    expect(old.args).toEqual(['--plugin-dir', '/roz/plugin', '-p', 'hi']);
    expect(old.env).toEqual({});
  });

  it('command hooks when asked, for a plugin the user names or installed, and for what is not claude', () => {
    expect(hookTransport(facts({ hooks: 'command' })).http).toBe(false);
    expect(hookTransport(facts({ args: ['--plugin-dir', '/mine'] })).http).toBe(false);
    expect(hookTransport(facts({ pluginInstalled: true })).http).toBe(false);
    // A plugin given to roz itself is loaded by roz even when one is installed.
    expect(hookTransport(facts({ pluginInstalled: true, pluginDirGiven: true })).http).toBe(true);
    expect(hookTransport(facts({ command: '/usr/bin/node' })).http).toBe(false);
    expect(hookTransport(facts({ clientVersion: null })).http).toBe(false);
    expect(hookTransport(facts({ pluginHasHooks: false })).http).toBe(false);
    // The user's --settings is taken out to be merged under roz's.
    const plan = planRun(facts({ args: ['--settings', 'u.json', '-p', 'x'] }), '/d');
    expect(plan.userSettings).toBe('u.json');
    expect(plan.args).toEqual(['--plugin-dir', '/d', '-p', 'x']);
  });
});

function world(version: string) {
  const root = tempDir('roz-plan-');
  dirs.push(root);
  const bin = join(root, 'bin');
  const home = join(root, 'home');
  const project = join(root, 'project');
  for (const d of [bin, home, project]) mkdirSync(d, { recursive: true });
  const report = join(root, 'report.json');
  writeFileSync(
    join(bin, 'claude'),
    `#!/usr/bin/env node
const fs = require('fs');
if (process.argv[2] === '--version') { console.log(${JSON.stringify(`${version} (Claude Code)`)}); process.exit(0); }
const file = process.argv[process.argv.indexOf('--settings') + 1];
fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify({ argv: process.argv.slice(2), settings: JSON.parse(fs.readFileSync(file, 'utf8')), token: process.env.ROZ_TOKEN ?? null, transport: process.env.ROZ_HOOK_TRANSPORT ?? null }));
`,
  );
  chmodSync(join(bin, 'claude'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH}`, HOME: home, ROZ_STORAGE_PATH: join(root, 'store'), ROZ_ENFORCE_NETWORK: 'open' };
  return { project, report, env };
}

type Report = {
  argv: string[];
  settings: { hooks?: Record<string, Array<{ hooks: Array<{ type: string; url?: string; onFailure?: string }> }>> };
  token: string | null;
  transport: string | null;
};

describe('RunService.start plans once', () => {
  it.each([
    ['roz exec', '2.1.330', 'http', false],
    ['roz exec', '2.1.197', 'command', false],
    ['roz run', '2.1.330', 'http', true],
    ['roz run', '2.1.197', 'command', true],
  ] as const)(
    '%s, client %s: the config is loaded once; %s hooks',
    async (_mode, version, transport, supervised) => {
      const w = world(version);
      loads.n = 0;
      const run = await RunService.start({
        command: 'claude',
        args: ['-p', 'hi'],
        cwd: w.project,
        env: w.env,
        pluginDir: join(repoRoot, 'plugin'),
        ...(supervised ? { supervisor: { approvalTimeoutMs: 10_000 } } : {}),
      });
      const result = await run.finish();
      expect(result.code).toBe(0);
      expect(loads.n).toBe(1);
      const got = JSON.parse(readFileSync(w.report, 'utf8')) as Report;
      const pre = got.settings.hooks?.PreToolUse?.[0]?.hooks[0];
      if (transport === 'http') {
        expect(run.plan.transport.http).toBe(true);
        expect(pre).toMatchObject({ type: 'http', onFailure: 'block' });
        expect(got.token).toMatch(/^[0-9a-f]{64}$/);
        expect(got.transport).toBe('http');
      } else {
        expect(run.plan.transport.http).toBe(false);
        expect(pre).toBeUndefined();
        expect(got.transport).toBeNull();
      }
    },
    30_000,
  );
});
