// Whether `roz run` puts the supervisor in the background is decided before
// the launch, with the supervisor's own launchEnforcement over the settings
// roz would write (supervisor/host/background.ts launchWillConfine): enforced only
// for claude with roz's settings and nothing that lets a command out of the
// sandbox; the scratch settings are removed again.
import { chmodSync, existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchWillConfine } from '../../src/supervisor/host/background.js';
import { tempDir } from '../helpers/temp-dir.js';

function world() {
  const top = realpathSync(tempDir('roz-launch-mode-'));
  const [bin, home, proj] = ['bin', 'home', 'proj'].map((d) => join(top, d)) as [string, string, string];
  for (const d of [bin, home, proj]) mkdirSync(d);
  writeFileSync(join(bin, 'claude'), `#!${process.execPath}\nconsole.log('2.1.100 (Claude Code)');\n`);
  chmodSync(join(bin, 'claude'), 0o755);
  // Never run here: only its name (core/client-commands.ts) and path matter to the plan.
  writeFileSync(join(bin, 'codex'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, 'codex'), 0o755);
  const store = join(top, 'store');
  const env: Record<string, string> = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, ROZ_STORAGE_PATH: store };
  const req = (command: string) => ({ command, args: [], cwd: proj, env, pty: { cols: 80, rows: 24 }, supervisor: { approvalTimeoutMs: 60_000 } });
  return { home, store, req };
}

describe('launchWillConfine (roz run: background or in the window)', () => {
  it('claude with roz settings and the sandbox tools: enforced; the scratch settings are gone again', async () => {
    const w = world();
    expect(await launchWillConfine(w.req('claude'))).toEqual({ mode: 'enforced', reasons: [] });
    const runs = join(w.store, 'runs');
    expect(existsSync(runs) ? readdirSync(runs) : []).toEqual([]);
  });

  it('not claude (roz writes no settings for it): advisory', async () => {
    const w = world();
    expect(await launchWillConfine(w.req(process.execPath))).toMatchObject({ mode: 'advisory', reasons: [expect.stringMatching(/not Claude Code/)] });
  });

  it("a user setting that lets a command out of the sandbox: advisory (the control for the first case's verdict)", async () => {
    const w = world();
    mkdirSync(join(w.home, '.claude'));
    writeFileSync(join(w.home, '.claude', 'settings.json'), JSON.stringify({ sandbox: { excludedCommands: ['node'] } }));
    const mode = await launchWillConfine(w.req('claude'));
    expect(mode.mode).toBe('advisory');
    expect(mode.reasons.join(' ')).toMatch(/excludedCommands|node/);
  });

  it("codex: enforced when Codex's own sandbox holds what roz configures; advisory where a config sets sandbox_mode (roz's files inside the project stay writable)", async () => {
    const w = world();
    expect(await launchWillConfine(w.req('codex'))).toEqual({ mode: 'enforced', reasons: [] });
    mkdirSync(join(w.home, '.codex'));
    writeFileSync(join(w.home, '.codex', 'config.toml'), 'sandbox_mode = "workspace-write"\n');
    const mode = await launchWillConfine(w.req('codex'));
    expect(mode.mode).toBe('advisory');
    expect(mode.reasons.join(' ')).toMatch(/sandbox_mode/);
  });

  it('a launch that cannot be planned (no such command): advisory, so the window runs it and says why', async () => {
    const w = world();
    const req = w.req('claude');
    req.env.PATH = '/nonexistent';
    expect(await launchWillConfine(req)).toMatchObject({ mode: 'advisory', reasons: [expect.stringMatching(/cannot be planned: cannot find "claude"/)] });
  });
});
