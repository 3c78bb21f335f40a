// How `roz run` starts the child: for claude, load roz's plugin with
// --plugin-dir unless the user installed it (loading it twice would run every
// hook twice). The decisions are core/launch-plan.ts's; this adds the one
// file it reads (the client's list of installed plugins).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pluginArgs, type LaunchArgs } from '../../core/launch-plan.js';

export { isClaudeCommand, takeSettingsArg, withSettings } from '../../core/launch-plan.js';
export type LaunchPlan = LaunchArgs;

export function rozPluginInstalled(env: Record<string, string | undefined>, home: string): boolean {
  const dir = env.CLAUDE_CONFIG_DIR || join(home, '.claude');
  try {
    const doc = JSON.parse(readFileSync(join(dir, 'plugins', 'installed_plugins.json'), 'utf8')) as { plugins?: Record<string, unknown> };
    return Object.keys(doc.plugins ?? {}).some((k) => k === 'roz' || k.startsWith('roz@'));
  } catch {
    return false;
  }
}

export function planLaunch(
  command: string,
  args: string[],
  opts: { env: Record<string, string | undefined>; home: string; pluginDir: string; forcePluginDir?: boolean },
): LaunchPlan {
  return pluginArgs(command, args, { pluginDir: opts.pluginDir, installed: rozPluginInstalled(opts.env, opts.home), force: opts.forcePluginDir });
}
