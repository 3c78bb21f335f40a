// What `roz run` needs to launch the client with http hooks: the client's
// version (`claude --version`), and a copy of roz's plugin whose hooks.json
// keeps only the events http cannot carry (SessionStart): with both the
// plugin's command hooks and the per-run http hooks, every event would be
// handled twice. The copy is links to the real plugin's parts (agents, MCP
// server, bin, dist, templates) beside that hooks.json, kept in the store and
// reused across runs of the same plugin and hooks.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { nameHash } from '../core/name-hash.js';
import { COMMAND_ONLY_EVENTS, parseClientVersion } from './http-hooks.js';
import type { HookEntry } from './http-hooks.js';

export function clientVersion(file: string, env: Record<string, string | undefined>): [number, number, number] | null {
  const r = spawnSync(file, ['--version'], { env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'ignore'] });
  return r.status === 0 ? parseClientVersion(r.stdout) : null;
}

export function pluginHooks(pluginDir: string): Record<string, HookEntry[]> {
  return (JSON.parse(readFileSync(join(pluginDir, 'hooks', 'hooks.json'), 'utf8')) as { hooks: Record<string, HookEntry[]> }).hooks;
}

/** `<store>/plugin-http/<hash>`: the plugin with only its command-only hooks, made once per plugin path and hooks.json. */
export function hooklessPlugin(pluginDir: string, store: string): string {
  const real = resolve(pluginDir);
  const all = pluginHooks(real);
  const kept = Object.fromEntries(Object.entries(all).filter(([event]) => COMMAND_ONLY_EVENTS.has(event)));
  const dir = join(store, 'plugin-http', nameHash(`${real}\n${JSON.stringify(kept)}`));
  if (existsSync(join(dir, 'hooks', 'hooks.json'))) return dir;
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, 'hooks'), { recursive: true, mode: 0o700 });
  for (const name of readdirSync(real)) {
    if (name === 'hooks') continue;
    symlinkSync(join(real, name), join(tmp, name));
  }
  writeFileSync(
    join(tmp, 'hooks', 'hooks.json'),
    `${JSON.stringify({ description: 'roz: other hooks go to the supervisor over http (roz run)', hooks: kept }, null, 2)}\n`,
  );
  try {
    renameSync(tmp, dir);
  } catch (err) {
    // Another run made it first.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(dir)) throw err;
  }
  return dir;
}
