// Which plugin folder a run loads, so that its hooks start the `node` roz
// runs on (process.execPath), resolved before the agent runs, and never a
// `node` found on PATH. Launched as `npx roz exec -- claude` or from an npm
// script, PATH starts with the project's node_modules/.bin, which sandboxed
// Bash may write: a `node` planted there would run every later hook outside
// the sandbox. The plugin's own hooks.json keeps a bare `node` for standalone
// use (`claude --plugin-dir`, an installed plugin): that is advisory, and the
// run says so when it has to use it.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { launchPlugin } from './http-launch.js';
import { isClaudeCommand, rozPluginInstalled } from './launch-args.js';

export interface LaunchNodeRequest {
  command: string;
  args: string[];
  cwd: string;
  pluginDir?: string;
}

const PATH_NOTE = 'its hooks start the `node` first on PATH (advisory: a `node` the agent plants in a PATH folder it can write would run them)';

export function launchPluginDir(
  req: LaunchNodeRequest,
  pluginDir: string,
  http: boolean,
  env: Record<string, string>,
  notes: string[],
  /** roz's store as the run's one config load has it (core/launch-plan.ts): the copy lives there. */
  store: string,
): string {
  if (!isClaudeCommand(req.command)) return pluginDir;
  if (req.args.includes('--plugin-dir')) {
    notes.push(`--plugin-dir given: ${PATH_NOTE}`);
    return pluginDir;
  }
  if (req.pluginDir === undefined && !http && rozPluginInstalled(env, env.HOME || homedir())) {
    notes.push(`the installed roz plugin is used: ${PATH_NOTE}`);
    return pluginDir;
  }
  try {
    return launchPlugin(pluginDir, resolve(req.cwd, store), { commandOnly: http, node: process.execPath });
  } catch (err) {
    notes.push(`could not prepare the plugin with node by absolute path (${(err as Error).message}): ${PATH_NOTE}`);
    return pluginDir;
  }
}
