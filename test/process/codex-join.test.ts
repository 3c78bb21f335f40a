// A Codex agent joining a supervisor whose agents are confined (a fleet whose
// control socket answers `roz approve`): started only when Codex's own sandbox,
// as roz configures it, holds everything (supervisor/launch/agent-run.ts
// requireEnforced). Where a Codex config sets `sandbox_mode` the profile is
// ignored and the control records would stay readable: refused, with why.
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchAgent, prepareLaunch, RunError } from '../../src/supervisor/launch/agent-run.js';
import { tempDir } from '../helpers/temp-dir.js';

function world() {
  const top = realpathSync(tempDir('roz-codex-join-'));
  const [bin, home, proj, store] = ['bin', 'home', 'proj', 'store'].map((d) => join(top, d)) as [string, string, string, string];
  for (const d of [bin, home, proj]) mkdirSync(d);
  // Never a real Codex: it exits at once (the launch's plan is what is under test).
  writeFileSync(join(bin, 'codex'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, 'codex'), 0o755);
  const env: Record<string, string> = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, ROZ_STORAGE_PATH: store };
  const req = { command: 'codex', args: ['do it'], cwd: proj, env, supervisor: { approvalTimeoutMs: 60_000 } };
  return { home, req };
}

describe('a Codex agent joining a confined fleet', () => {
  it('is refused where its sandbox would be advisory (a config sets sandbox_mode), with the reason', async () => {
    const w = world();
    mkdirSync(join(w.home, '.codex'));
    writeFileSync(join(w.home, '.codex', 'config.toml'), 'sandbox_mode = "danger-full-access"\n');
    const prepared = prepareLaunch(w.req);
    const launch = launchAgent(w.req, prepared, { agent: 'cx', server: null, reach: {}, requireEnforced: true });
    await expect(launch).rejects.toBeInstanceOf(RunError);
    await expect(launchAgent(w.req, prepareLaunch(w.req), { agent: 'cx', server: null, reach: {}, requireEnforced: true })).rejects.toThrow(
      /Codex CLI would not be confined here \(.*sandbox_mode.*\).*not started/,
    );
  });

  it('starts where Codex sandbox holds what roz configures, and says so', async () => {
    const w = world();
    const launched = await launchAgent(w.req, prepareLaunch(w.req), { agent: 'cx', server: null, reach: {}, requireEnforced: true });
    expect(launched.clientEnforcement).toEqual({ mode: 'enforced', reasons: [] });
    // The launch names the client it started (the screen's label for its pane comes from here).
    expect(launched.client).toBe('codex');
    expect(await launched.child.exited).toBe(0);
  });
});
