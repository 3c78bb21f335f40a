// Reads ~/.roz/config.toml (or ROZ_CONFIG) and resolves it with the ROZ_*
// environment. TOML via smol-toml: small, spec-compliant, no dependencies.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { expandHome, resolveConfig, type ResolvedConfig } from '../core/config.js';
import { MiB, readRegularText } from '../store/regular-file.js';

export function configPath(env: Record<string, string | undefined>, home: string): string {
  if (env.ROZ_CONFIG) return expandHome(env.ROZ_CONFIG, home);
  // With ROZ_STORAGE_PATH the store is self-contained, config included.
  const root = env.ROZ_STORAGE_PATH ? expandHome(env.ROZ_STORAGE_PATH, home) : join(home, '.roz');
  return join(root, 'config.toml');
}

export function loadConfig(env: Record<string, string | undefined>): ResolvedConfig & { path: string } {
  const home = env.HOME || homedir();
  const path = configPath(env, home);
  let file: { path: string; data: unknown } | { path: string; error: string } | undefined;
  try {
    const text = readRegularText(path, MiB);
    try {
      file = { path, data: parseToml(text) };
    } catch (err) {
      const e = err as TomlError;
      const where = e.line !== undefined ? `line ${e.line}, column ${e.column}: ` : '';
      file = { path, error: `${where}invalid TOML (${e.message.split('\n')[0]})` };
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') file = { path, error: `cannot read (${(err as Error).message})` };
  }
  return { ...resolveConfig({ home, file, env }), path };
}
