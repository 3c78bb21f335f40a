// Each agent of a fleet is launched on its own, from the run's one config: a
// fake `claude` (answering `--version` as a pinned client) reports the
// settings and environment it got. main in the checkout and b in its linked
// worktree get their own settings files and tokens, the same supervisor's
// http hooks (2.1.330) or a process per hook (2.1.197), b the per-worktree
// sandbox; roz's config is loaded once for the whole fleet.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FleetHost } from '../../src/supervisor/host/fleet-host.js';
import { repoRoot } from './helpers/bundle.js';
import { until } from './helpers/channel.js';
import { tempDir } from '../helpers/temp-dir.js';

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

interface Report {
  argv: string[];
  cwd: string;
  settingsFile: string;
  settings: {
    hooks?: Record<string, Array<{ hooks: Array<{ type: string; url?: string; headers?: Record<string, string> }> }>>;
    sandbox?: { filesystem?: { denyWrite?: string[]; allowWrite?: string[] } };
  };
  token: string;
}

function world(version: string) {
  const top = realpathSync(tempDir('roz-fleet-launch-'));
  const [bin, home, repo, reports] = ['bin', 'home', 'proj', 'reports'].map((d) => join(top, d)) as [string, string, string, string];
  for (const d of [bin, home, repo, reports]) mkdirSync(d);
  writeFileSync(
    join(bin, 'claude'),
    `#!${process.execPath}
const fs = require('fs');
if (process.argv[2] === '--version') { console.log(${JSON.stringify(`${version} (Claude Code)`)}); process.exit(0); }
const file = process.argv[process.argv.indexOf('--settings') + 1];
fs.writeFileSync(${JSON.stringify(reports)} + '/' + process.env.ROZ_AGENT + '.json', JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), settingsFile: file, settings: JSON.parse(fs.readFileSync(file, 'utf8')), token: process.env.ROZ_TOKEN }));
setInterval(() => {}, 1000);
`,
  );
  chmodSync(join(bin, 'claude'), 0o755);
  const env: Record<string, string> = { PATH: `${bin}:${process.env.PATH}`, HOME: home, ROZ_STORAGE_PATH: join(top, 'store'), ROZ_ENFORCE_NETWORK: 'open' };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, HOME: home }, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '--allow-empty', '-m', 'first');
  execFileSync(process.execPath, [join(repoRoot, 'plugin', 'bin', 'roz'), 'agent', 'add', 'b', '--', '-p', 'hi'], { cwd: repo, env, stdio: 'pipe' });
  const report = (name: string): Report | null => {
    const f = join(reports, `${name}.json`);
    try {
      return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Report) : null;
    } catch {
      return null; // being written
    }
  };
  return { top, repo, env, report };
}

describe("FleetHost launches each agent from the run's one config", () => {
  it.each([
    ['2.1.330', 'http'],
    ['2.1.197', 'command'],
  ] as const)(
    'client %s: own settings file and token per agent, %s hooks, b with its worktree sandbox',
    async (version, transport) => {
      const w = world(version);
      loads.n = 0;
      const host = await FleetHost.start({
        command: 'claude',
        args: ['-p', 'main'],
        cwd: w.repo,
        env: w.env,
        pluginDir: join(repoRoot, 'plugin'),
        approvalTimeoutMs: 10_000,
        pty: { cols: 80, rows: 24 },
      });
      try {
        expect((await host.startAgent('b')).ok).toBe(true);
        await until(() => w.report('main') !== null && w.report('b') !== null, 'both agents to report', 15_000);
        const main = w.report('main')!;
        const b = w.report('b')!;
        expect(loads.n).toBe(1);
        expect(main.cwd).toBe(w.repo);
        expect(b.cwd).toBe(join(w.top, 'proj.roz', 'b'));
        expect(b.argv.slice(-2)).toEqual(['-p', 'hi']);
        expect(main.settingsFile).not.toBe(b.settingsFile);
        expect(main.token).not.toBe(b.token);
        const pre = (r: Report) => r.settings.hooks?.PreToolUse?.[0]?.hooks[0];
        if (transport === 'http') {
          expect(pre(main)).toMatchObject({ type: 'http', url: `${host.supervisor.httpUrl}/hook/PreToolUse` });
          expect(pre(b)).toMatchObject({ type: 'http', url: `${host.supervisor.httpUrl}/hook/PreToolUse` });
        } else {
          expect(host.supervisor.httpUrl).toBeNull();
          expect(pre(main)).toBeUndefined();
          expect(pre(b)).toBeUndefined();
        }
        // b's sandbox: its own branch writable, main's ref not; main (the checkout itself) has no worktree fragment.
        const deny = b.settings.sandbox?.filesystem?.denyWrite ?? [];
        expect(deny.some((p) => p.endsWith('/refs/heads/main'))).toBe(true);
        expect((main.settings.sandbox?.filesystem?.denyWrite ?? []).some((p) => p.endsWith('/refs/heads/main'))).toBe(false);
      } finally {
        await host.stopAll();
        await host.finish();
      }
      // Each agent's settings file is gone with its run.
      expect(existsSync(w.report('main')!.settingsFile)).toBe(false);
      expect(existsSync(w.report('b')!.settingsFile)).toBe(false);
    },
    60_000,
  );
});
