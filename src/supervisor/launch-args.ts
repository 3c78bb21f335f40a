// How `roz run` starts the child: for claude, load roz's plugin with
// --plugin-dir unless the user installed it (loading it twice would run every
// hook twice).
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export function rozPluginInstalled(env: Record<string, string | undefined>, home: string): boolean {
  const dir = env.CLAUDE_CONFIG_DIR || join(home, '.claude');
  try {
    const doc = JSON.parse(readFileSync(join(dir, 'plugins', 'installed_plugins.json'), 'utf8')) as { plugins?: Record<string, unknown> };
    return Object.keys(doc.plugins ?? {}).some((k) => k === 'roz' || k.startsWith('roz@'));
  } catch {
    return false;
  }
}

/** `claude`, or the npm package's native binary `claude.exe` addressed by path. */
export function isClaudeCommand(command: string): boolean {
  return /^claude(\.exe)?$/.test(basename(command));
}

export interface LaunchPlan {
  command: string;
  args: string[];
  /** Said once on stderr before the screen takes over, e.g. how the plugin is loaded. */
  notes: string[];
}

export function planLaunch(
  command: string,
  args: string[],
  opts: { env: Record<string, string | undefined>; home: string; pluginDir: string; forcePluginDir?: boolean },
): LaunchPlan {
  const isClaude = isClaudeCommand(command);
  if (!isClaude && !opts.forcePluginDir) return { command, args, notes: [] };
  if (args.includes('--plugin-dir')) return { command, args, notes: [] };
  if (!opts.forcePluginDir && rozPluginInstalled(opts.env, opts.home)) return { command, args, notes: ['roz plugin is installed; not adding --plugin-dir'] };
  return { command, args: ['--plugin-dir', opts.pluginDir, ...args], notes: [] };
}
