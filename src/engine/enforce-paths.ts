// The absolute paths enforcement protects for one run: roz's store, code
// cache and config, the project's .orchestration/, the settings file and the
// client's user directory. Resolved through symlinks, so a store reached by
// a link is protected where it really is.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RozConfig } from '../core/config.js';
import type { ProtectedPaths } from '../core/enforce/settings.js';
import { resolveReal } from '../store/realpath.js';
import { findAgent } from '../store/agent-registry.js';
import { findProjectRoot, orchestrationPaths, type AgentRoots } from '../store/project-root.js';
import { codeCacheDir } from './code-paths.js';
import { fileToolWriteArea, outsideDenyPaths } from './file-tool-area.js';
import { configPath, loadConfig } from './config-loader.js';
import { pluginRoot } from './templates-loader.js';

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

export function protectedPaths(
  env: Record<string, string | undefined>,
  cwd: string,
  settingsFile: string | null,
  pluginDir: string | null = pluginRoot(env),
  rozConfig: RozConfig = loadConfig(env).config,
  /** The agent whose worktree `cwd` is, as the launch found it (store/agent-place.ts); undefined: look it up. */
  agentRoots?: AgentRoots | null,
): ProtectedPaths {
  const home = env.HOME || homedir();
  const real = (p: string): string => resolveReal(resolve(cwd, p));
  const store = real(rozConfig.storage.path);
  const area = fileToolWriteArea(env, cwd, home, rozConfig.enforce.write_paths);
  const cache = codeCacheDir(env, home);
  const config = real(configPath(env, home));
  // An agent in its worktree: the base checkout's intents govern it (from roz's registry, store/agent-registry.ts).
  const agent = agentRoots === undefined ? (findAgent(store, cwd)?.roots ?? null) : agentRoots;
  const project = findProjectRoot(cwd, { projectDir: env.CLAUDE_PROJECT_DIR, agent });
  const baseOrch = agent ? orchestrationPaths(agent.base).dir : null;
  // Only an existing .orchestration/: the sandbox mounts a placeholder for a
  // missing path inside the project while a command runs, which would look
  // like a governed project to the next hook.
  const orch = project ? orchestrationPaths(project).dir : join(cwd, '.orchestration');
  return {
    store,
    codeCache: cache ? real(cache) : null,
    configFiles: inside(config, store) ? [] : [config],
    orchestration: existsSync(orch) ? real(orch) : null,
    ...(baseOrch && existsSync(baseOrch) ? { intentsOrchestration: real(baseOrch) } : {}),
    settingsFile: settingsFile ? real(settingsFile) : null,
    claudeUserDir: real(env.CLAUDE_CONFIG_DIR || join(home, '.claude')),
    // Its hooks' code: inside the project (roz working on roz) the sandbox would leave it writable.
    pluginDir: pluginDir ? real(pluginDir) : null,
    project: area.project,
    outside: outsideDenyPaths(area, [real(env.CLAUDE_CONFIG_DIR || join(home, '.claude'))]),
  };
}
