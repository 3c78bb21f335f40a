// supervisor/launch/client-launch.ts: what it reads decides Codex's sandbox (a config naming sandbox_mode makes
// Codex ignore permission profiles: roz forces workspace-write and says advisory) and where Gemini's hooks go.
import { ownerOnlyTempDir } from '../helpers/owner-only-dir.js';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { clientById } from '../../src/core/clients.js';
import { loadConfig } from '../../src/engine/config-loader.js';
import { launchOtherClient } from '../../src/supervisor/launch/client-launch.js';
import { tempDir } from '../helpers/temp-dir.js';

function world() {
  const home = tempDir('roz-client-launch-');
  const project = join(home, 'project');
  mkdirSync(join(project, '.orchestration'), { recursive: true });
  const env: Record<string, string> = { HOME: home, ROZ_STORAGE_PATH: join(home, 'store'), CODEX_HOME: join(home, 'codex'), PATH: process.env.PATH ?? '' };
  mkdirSync(env.CODEX_HOME!, { recursive: true });
  return { home, project, env, config: loadConfig(env, { cwd: project }).config };
}
const overrides = (args: string[]): string[] => args.flatMap((a, i) => (args[i - 1] === '-c' ? [a] : []));

describe('launching another client', () => {
  it("Codex: roz's hooks by absolute path and a profile keeping .orchestration/ read-only; enforced", () => {
    const w = world();
    const l = launchOtherClient(clientById('codex'), { args: ['exec', 'hi'], cwd: w.project, env: w.env }, '/opt/roz/plugin', w.config);
    const c = overrides(l.args);
    expect(c.find((v) => v.startsWith('hooks.PreToolUse='))).toContain(
      `'${process.execPath}' --verify-snapshot-checksum '/opt/roz/plugin/bin/roz' hook pre-tool-use`,
    );
    expect(c.find((v) => v.startsWith('permissions.roz='))).toContain('".orchestration"="read"');
    expect(l.env).toMatchObject({ ROZ_CLIENT: 'codex', ROZ_CLIENT_SANDBOX: 'enforced', CLAUDE_PLUGIN_ROOT: '/opt/roz/plugin' });
    // The Stop hook waits for the reviewer roz starts: Codex waits for it past the reviewer's window (1800 s + 60).
    expect(c.find((v) => v.startsWith('hooks.Stop='))).toMatch(/hook stop",timeout=1860\}/);
    // The others keep their own: a held approval (roz run) may wait 600 s; the rest 30 s.
    expect(c.find((v) => v.startsWith('hooks.PreToolUse='))).toMatch(/hook pre-tool-use",timeout=600\}/);
    expect(c.find((v) => v.startsWith('hooks.PostToolUse='))).toMatch(/hook post-tool-use",timeout=30\}/);
  });
  it("Codex: the user's config naming sandbox_mode: workspace-write forced, advisory said and passed to the hooks", () => {
    const w = world();
    writeFileSync(join(w.env.CODEX_HOME!, 'config.toml'), 'model = "x"\nsandbox_mode = "danger-full-access"\n');
    const l = launchOtherClient(clientById('codex'), { args: ['exec', 'hi'], cwd: w.project, env: w.env }, '/opt/roz/plugin', w.config);
    expect(overrides(l.args)).toContain('sandbox_mode="workspace-write"');
    expect(l.notes.join('\n')).toContain('advisory');
    expect(l.env.ROZ_CLIENT_SANDBOX).toMatch(/^advisory: .*config\.toml set sandbox_mode/);
  });
  it("Gemini: roz's hooks in a system settings file in roz's store, under Gemini's event names; advisory", () => {
    const w = world();
    // Below /tmp (writable by others) Gemini would skip the file: refused, fail closed.
    expect(() => launchOtherClient(clientById('gemini'), { args: ['-p', 'hi'], cwd: w.project, env: w.env }, '/opt/roz/plugin', w.config)).toThrow(
      /writable by others/,
    );
    const store = ownerOnlyTempDir('.roz-test-gemini-');
    onTestFinished(() => rmSync(store, { recursive: true, force: true }));
    w.config.storage.path = store;
    const l = launchOtherClient(clientById('gemini'), { args: ['-p', 'hi'], cwd: w.project, env: w.env }, '/opt/roz/plugin', w.config);
    const file = l.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH!;
    expect(file.startsWith(join(store, 'client-settings'))).toBe(true);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.hooksConfig).toEqual({ enabled: true });
    expect(Object.keys(doc.hooks)).toEqual(['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent']);
    expect(doc.hooks.BeforeTool[0].hooks[0].command).toMatch(/'\/opt\/roz\/plugin\/bin\/roz' hook pre-tool-use$/);
    // AfterAgent waits for the reviewer roz starts and BeforeTool for the human under roz run, each past roz's own
    // deadline (Gemini's timeout is in milliseconds; at its 60 s default a BeforeTool waiting for the human timed out
    // and the `rm -rf` ran); the others keep Gemini's default.
    expect(doc.hooks.AfterAgent[0].hooks[0].timeout).toBe(1_860_000);
    expect(doc.hooks.BeforeTool[0].hooks[0].timeout).toBe(600_000);
    expect(doc.hooks.AfterTool[0].hooks[0].timeout).toBeUndefined();
    expect(l.env.ROZ_CLIENT_SANDBOX).toMatch(/^advisory: /);
  });
});
