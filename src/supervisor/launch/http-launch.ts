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
import { nameHash } from '../../core/name-hash.js';
import { COMMAND_ONLY_EVENTS, parseClientVersion } from '../hooks/http-hooks.js';
import type { HookEntry } from '../hooks/http-hooks.js';

export function clientVersion(file: string, env: Record<string, string | undefined>): [number, number, number] | null {
  const r = spawnSync(file, ['--version'], { env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'ignore'] });
  return r.status === 0 ? parseClientVersion(r.stdout) : null;
}

export function pluginHooks(pluginDir: string): Record<string, HookEntry[]> {
  return (JSON.parse(readFileSync(join(pluginDir, 'hooks', 'hooks.json'), 'utf8')) as { hooks: Record<string, HookEntry[]> }).hooks;
}

/** `<store>/plugin-http/<hash>`: the plugin with only its command-only hooks, made once per plugin path and hooks.json. */
export function hooklessPlugin(pluginDir: string, store: string, node?: string): string {
  return launchPlugin(pluginDir, store, { commandOnly: true, ...(node ? { node } : {}) });
}

/** `'…'` for /bin/sh. */
const shQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * Every hook command that starts a bare `node` (found on PATH: under `npx roz`
 * or an npm script that is the project's node_modules/.bin first, which the
 * agent can write) made to start `node` instead: the absolute path of the node
 * roz itself runs on (process.execPath), chosen before the agent runs.
 */
export function withNode(hooks: Record<string, HookEntry[]>, node: string): Record<string, HookEntry[]> {
  const bare = /(^|\s)node(?=\s)/;
  return Object.fromEntries(
    Object.entries(hooks).map(([event, entries]) => [
      event,
      entries.map((e) => ({
        ...e,
        hooks: e.hooks.map((h) =>
          typeof h.command === 'string' && bare.test(h.command)
            ? { ...h, command: h.command.replace(bare, (_m, lead: string) => `${lead}${shQuote(node)}`) }
            : h,
        ),
      })),
    ]),
  );
}

/**
 * The plugin's MCP servers started by `node` (absolute) with the script as
 * first argument: `bin/roz` itself starts with `#!/usr/bin/env node`, the
 * `node` on PATH. Null when there is no .mcp.json.
 */
function mcpWithNode(pluginDir: string, node: string): { mcpServers: Record<string, Record<string, unknown>> } | null {
  let doc: { mcpServers?: Record<string, { command?: unknown; args?: unknown }> };
  try {
    doc = JSON.parse(readFileSync(join(pluginDir, '.mcp.json'), 'utf8'));
  } catch {
    return null;
  }
  const servers: Record<string, Record<string, unknown>> = {};
  for (const [name, srv] of Object.entries(doc.mcpServers ?? {})) {
    const script = typeof srv.command === 'string' && srv.command.endsWith('/bin/roz');
    servers[name] = script ? { ...srv, command: node, args: [srv.command, ...(Array.isArray(srv.args) ? srv.args : [])] } : { ...srv };
  }
  return { mcpServers: servers };
}

/**
 * `<store>/plugin-http/<hash>` (the name kept from when only http runs used
 * it): roz's plugin as a run launches it, its hooks.json rewritten — only the
 * command-only events when the others go over http (`commandOnly`), and
 * `node` by absolute path (`node`). Links to the real plugin's other parts
 * (agents, MCP server, bin, dist, templates); inside the store, which the
 * sandbox keeps read-only to the agent. Made once per plugin path and hooks.
 */
export function launchPlugin(pluginDir: string, store: string, opts: { commandOnly: boolean; node?: string }): string {
  const real = resolve(pluginDir);
  const all = pluginHooks(real);
  const picked = opts.commandOnly ? Object.fromEntries(Object.entries(all).filter(([event]) => COMMAND_ONLY_EVENTS.has(event))) : all;
  const kept = opts.node ? withNode(picked, opts.node) : picked;
  const dir = join(store, 'plugin-http', nameHash(`${real}\n${JSON.stringify(kept)}${opts.node ? `\n${opts.node}` : ''}`));
  if (existsSync(join(dir, 'hooks', 'hooks.json'))) return dir;
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, 'hooks'), { recursive: true, mode: 0o700 });
  const mcp = opts.node ? mcpWithNode(real, opts.node) : null;
  for (const name of readdirSync(real)) {
    if (name === 'hooks' || (name === '.mcp.json' && mcp)) continue;
    symlinkSync(join(real, name), join(tmp, name));
  }
  if (mcp) writeFileSync(join(tmp, '.mcp.json'), `${JSON.stringify(mcp, null, 2)}\n`);
  const description = opts.commandOnly
    ? 'roz: other hooks go to the supervisor over http (roz run)'
    : 'roz: review gate and intent governance (launched by roz, node by absolute path)';
  writeFileSync(join(tmp, 'hooks', 'hooks.json'), `${JSON.stringify({ description, hooks: kept }, null, 2)}\n`);
  try {
    renameSync(tmp, dir);
  } catch (err) {
    // Another run made it first.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(dir)) throw err;
  }
  return dir;
}
