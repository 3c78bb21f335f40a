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

export interface LaunchPlan {
  command: string;
  args: string[];
  /** Said once on stderr before the screen takes over, e.g. how the plugin is loaded. */
  notes: string[];
  /** The user's own `--settings` value, taken out of args: the caller merges it under roz's. */
  userSettings?: string;
}

/** claude, or the pinned clients' `claude.exe` addressed by path. */
export function isClaudeCommand(command: string): boolean {
  const b = basename(command);
  return b === 'claude' || b === 'claude.exe';
}

/** `--settings X` / `--settings=X` taken out of args (the client reads one settings flag). */
export function takeSettingsArg(args: string[]): { args: string[]; value?: string } {
  const out: string[] = [];
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (a === '--settings' && i + 1 < args.length) value = args[++i];
    else if (a.startsWith('--settings=')) value = a.slice('--settings='.length);
    else out.push(a);
  }
  return value === undefined ? { args } : { args: out, value };
}

/** Put roz's per-run `--settings FILE` first on a claude command line. */
export function withSettings(plan: LaunchPlan, settingsFile: string): LaunchPlan {
  return { ...plan, args: ['--settings', settingsFile, ...plan.args] };
}

export function planLaunch(
  command: string,
  args: string[],
  opts: { env: Record<string, string | undefined>; home: string; pluginDir: string; forcePluginDir?: boolean },
): LaunchPlan {
  const isClaude = isClaudeCommand(command);
  if (!isClaude && !opts.forcePluginDir) return { command, args, notes: [] };
  const taken = isClaude ? takeSettingsArg(args) : { args };
  const user = taken.value === undefined ? {} : { userSettings: taken.value };
  args = taken.args;
  if (args.includes('--plugin-dir')) return { command, args, notes: [], ...user };
  if (!opts.forcePluginDir && rozPluginInstalled(opts.env, opts.home))
    return { command, args, notes: ['roz plugin is installed; not adding --plugin-dir'], ...user };
  return { command, args: ['--plugin-dir', opts.pluginDir, ...args], notes: [], ...user };
}
