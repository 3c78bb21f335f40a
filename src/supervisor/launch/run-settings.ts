// The per-run settings file `roz run`/`roz exec` launch claude with
// (`--settings FILE`): written into a private directory inside roz's store
// (which the sandbox itself makes read-only to the agent), absolute paths
// only, removed when the run ends.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RozConfig } from '../../core/config.js';
import { enforcedSettings, mergeSettings, objectsFragment, type ClaudeSettings, type ProtectedPaths } from '../../core/enforce/settings.js';
import { prepareStaging, type StagingPlace } from '../../store/staging-place.js';
import { loadConfig } from '../../engine/config-loader.js';
import { protectedPaths } from '../../engine/enforce-paths.js';
import { worktreeSandboxFragment } from '../../core/enforce/worktree-sandbox.js';
import { ensureControlDir } from '../../store/control-record.js';
import { linkedWorktreeOf } from '../../store/linked-worktree.js';
import { agentPlace, type AgentPlace } from '../../store/agent-place.js';

/** The env var that tells the hooks which settings file this run was launched with. */
export const SETTINGS_ENV = 'ROZ_SETTINGS_FILE';
/** Never visible to the agent's Bash (sandbox.credentials.envVars deny). */
export const SECRET_ENV = ['ROZ_TOKEN'];

export interface RunSettings {
  file: string;
  settings: ClaudeSettings;
  paths: ProtectedPaths;
  /** The repository's staging store for the agent's new objects (null outside git): the launch puts the git shim on PATH. */
  objects: StagingPlace | null;
  dispose(): void;
}

/** The enforced document for this environment and cwd (also what `roz settings` prints). */
export function buildSettings(
  env: Record<string, string | undefined>,
  cwd: string,
  settingsFile: string | null,
  extra: ClaudeSettings[] = [],
  pluginDir?: string,
  config: RozConfig = loadConfig(env).config,
  objects: StagingPlace | null = null,
  place?: AgentPlace,
): { settings: ClaudeSettings; paths: ProtectedPaths } {
  const paths = protectedPaths(env, cwd, settingsFile, pluginDir, config, place ? (place.agent?.roots ?? null) : undefined);
  const network = config.enforce.network;
  // In a linked worktree (an agent's, issue 25): its own branch, not the shared repository.
  const worktree = place ? place.linked : linkedWorktreeOf(cwd);
  const own = worktree ? [worktreeSandboxFragment(worktree, objects !== null)] : [];
  // The repository's objects read-only (its common dir's, for a worktree too): new ones wait in staging.
  if (objects) own.push(objectsFragment(objects.objects, worktree ? null : objects.gitDir));
  // Ours last: a user's own --settings may add to the sandbox, never loosen it.
  return { settings: mergeSettings(...extra, enforcedSettings(paths, { network, secretEnv: SECRET_ENV }), ...own), paths };
}

/** A user's own `--settings` value (a file or inline JSON), to merge under ours. */
export function readUserSettings(value: string, cwd: string): ClaudeSettings {
  const text = value.trimStart().startsWith('{') ? value : readFileSync(resolve(cwd, value), 'utf8');
  const doc = JSON.parse(text) as unknown;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('--settings must hold a JSON object');
  return doc as ClaudeSettings;
}

/**
 * `config`: the run's one loaded config (core/launch-plan.ts); loaded here when not given.
 * `place`: where the launch runs, computed where it was prepared (store/agent-place.ts); computed here when not given.
 */
export function writeRunSettings(
  env: Record<string, string | undefined>,
  cwd: string,
  extra: ClaudeSettings[] = [],
  pluginDir?: string,
  config: RozConfig = loadConfig(env).config,
  place?: AgentPlace,
): RunSettings {
  const store = resolve(cwd, config.storage.path);
  const runs = join(store, 'runs');
  mkdirSync(runs, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(join(runs, 'run-'));
  const file = join(dir, 'settings.json');
  try {
    // A linked worktree's refs made ready for its sandbox (store/agent-place.ts), once per launch.
    const at = place ?? agentPlace(store, cwd);
    // The agent's new git objects wait here for roz to hash them (store/object-intake.ts).
    const objects = prepareStaging(cwd);
    const { settings, paths } = buildSettings(env, cwd, file, extra, pluginDir, config, objects, at);
    // The paths must exist before the sandbox mounts them read-only (or, the control records, unreadable).
    if (paths.codeCache) mkdirSync(paths.codeCache, { recursive: true, mode: 0o700 });
    ensureControlDir(store);
    writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return { file, settings, paths, objects, dispose: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The folder of roz's git shim in a plugin (plugin/git-shim): read-only to the agent with the rest of the plugin. */
export function gitShimDir(pluginDir: string): string {
  return join(pluginDir, 'git-shim');
}
