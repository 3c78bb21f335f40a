// Reads the user's ~/.roz/config.toml (or ROZ_CONFIG) and the project's
// .roz/config.toml, and resolves them with the ROZ_* environment. TOML via
// smol-toml: small, spec-compliant, no dependencies.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { expandHome, resolveConfig, type ResolvedConfig } from '../core/config.js';
import { MiB, readRegularText } from '../store/regular-file.js';
import { gitTopLevel } from '../store/project-root.js';

export function configPath(env: Record<string, string | undefined>, home: string): string {
  if (env.ROZ_CONFIG) return expandHome(env.ROZ_CONFIG, home);
  // With ROZ_STORAGE_PATH the store is self-contained, config included.
  const root = env.ROZ_STORAGE_PATH ? expandHome(env.ROZ_STORAGE_PATH, home) : join(home, '.roz');
  return join(root, 'config.toml');
}

/** The project whose .roz/config.toml applies: $CLAUDE_PROJECT_DIR, else the git toplevel of cwd, else cwd. */
export function projectConfigPath(env: Record<string, string | undefined>, cwd: string): string {
  const root = env.CLAUDE_PROJECT_DIR || gitTopLevel(cwd) || cwd;
  return join(resolve(root), '.roz', 'config.toml');
}

type Read = { path: string; data: unknown } | { path: string; error: string } | undefined;

/** The parsed file, its error, or undefined when it does not exist. */
function readToml(path: string): Read {
  let text: string;
  try {
    text = readRegularText(path, MiB);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : { path, error: `cannot read (${(err as Error).message})` };
  }
  try {
    return { path, data: parseToml(text) };
  } catch (err) {
    const e = err as TomlError;
    const where = e.line !== undefined ? `line ${e.line}, column ${e.column}: ` : '';
    return { path, error: `${where}invalid TOML (${e.message.split('\n')[0]})` };
  }
}

export interface ConfigFileInfo {
  layer: 'user' | 'project';
  path: string;
  exists: boolean;
}

/**
 * The effective configuration. `cwd` (a hook's cwd, the CLI's working
 * directory) finds the project file; without it only the user's file applies.
 */
export function loadConfig(env: Record<string, string | undefined>, opts: { cwd?: string } = {}): ResolvedConfig & { path: string; files: ConfigFileInfo[] } {
  const home = env.HOME || homedir();
  const path = configPath(env, home);
  const file = readToml(path);
  const files: ConfigFileInfo[] = [{ layer: 'user', path, exists: file !== undefined }];
  let project: Read;
  if (opts.cwd !== undefined) {
    const projectPath = projectConfigPath(env, opts.cwd);
    // A project at $HOME would read the user's own file twice, the second time as untrusted.
    if (projectPath !== resolve(path)) {
      project = readToml(projectPath);
      files.push({ layer: 'project', path: projectPath, exists: project !== undefined });
    }
  }
  return { ...resolveConfig({ home, file, project, env }), path, files };
}
