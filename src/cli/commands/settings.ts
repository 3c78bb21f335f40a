// `roz settings [--managed] [--json]`: the Claude Code settings roz launches
// the client with, for people who start `claude` themselves (`claude
// --settings FILE`) or for an organisation's managed settings file.
import { managedSettingsFile as managedSettingsPath } from '../../engine/enforce-probe.js';
import { gitDenyPaths } from '../../core/enforce/settings.js';
import { buildSettings } from '../../supervisor/launch/run-settings.js';
import { processEnv } from './run.js';

export interface SettingsOptions {
  managed?: boolean;
  json?: boolean;
}

export function settingsCommand(opts: SettingsOptions): number {
  const env = processEnv();
  const { settings } = buildSettings(env, process.cwd(), null);
  if (opts.managed) {
    // Managed settings apply to every project: the project's .orchestration/
    // is named relative to the working directory for the file tools; Bash
    // writes there are refused by roz's PreToolUse hook (PROTECTED_PATH).
    const perms = (settings.permissions ??= {}) as { deny?: string[] };
    const projectRule = (r: string): boolean => r.includes('/.orchestration/') || r.includes('/.git/');
    perms.deny = [
      ...new Set([...(perms.deny ?? []).filter((r) => !projectRule(r)), 'Edit(.orchestration/**)', ...gitDenyPaths('.').map((g) => `Edit(${g.slice(2)})`)]),
    ];
    const sandbox = settings.sandbox as { filesystem: { denyWrite: string[] } };
    sandbox.filesystem.denyWrite = sandbox.filesystem.denyWrite.filter((p) => !p.endsWith('/.orchestration'));
  }
  process.stdout.write(`${JSON.stringify(settings, null, opts.json ? undefined : 2)}\n`);
  if (!opts.json && process.stderr.isTTY) {
    process.stderr.write(
      opts.managed
        ? `roz settings: paths are this user's (${env.HOME ?? '~'}); install as ${managedSettingsPath()} (root-owned).\n`
        : 'roz settings: save to a file outside the project and start `claude --settings FILE --plugin-dir <roz>/plugin`; `roz exec claude` does this for you.\n',
    );
  }
  return 0;
}
