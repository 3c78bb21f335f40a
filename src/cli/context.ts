// What every CLI command needs: the resolved config, the store, and output
// helpers that follow the ecosystem (colour off under NO_COLOR or off a TTY).
import { loadConfig, type ConfigFileInfo } from '../engine/config-loader.js';
import { FileSessionStore } from '../store/file-store.js';
import type { SessionStore } from '../store/session-store.js';
import type { RozConfig } from '../core/config.js';
import { isSafeSessionId } from '../core/hook-input.js';
import { telemetryOn } from '../core/telemetry.js';
import { UsageError } from './usage-error.js';

export { UsageError };

export interface CliContext {
  config: RozConfig;
  configPath: string;
  /** The user's and the project's config file, and whether each exists. */
  configFiles: ConfigFileInfo[];
  sources: Record<string, string>;
  problems: string[];
  store: SessionStore;
  env: NodeJS.ProcessEnv;
}

export function cliContext(env: NodeJS.ProcessEnv = process.env): CliContext {
  const resolved = loadConfig(env, { cwd: process.cwd() });
  for (const p of resolved.problems) process.stderr.write(`roz: config: ${p}\n`);
  const store = new FileSessionStore(resolved.config.storage.path, (m) => process.stderr.write(`${m}\n`), {
    telemetry: telemetryOn(resolved.config.telemetry, env),
  });
  return {
    config: resolved.config,
    configPath: resolved.path,
    configFiles: resolved.files,
    sources: resolved.sources,
    problems: resolved.problems,
    store,
    env,
  };
}

export function requireSessionId(id: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const sid = id ?? env.CLAUDE_CODE_SESSION_ID;
  if (!sid) throw new UsageError('no session given and CLAUDE_CODE_SESSION_ID is not set (give a session id, or --last; `roz sessions` lists them)');
  if (!isSafeSessionId(sid)) throw new UsageError(`not a valid session id: ${JSON.stringify(sid)}`);
  return sid;
}

/** The session most recently active (latest update) in the store, or null when there is none. */
export function lastSessionId(store: SessionStore): string | null {
  let best: { id: string; at: string } | null = null;
  for (const s of store.list()) if (!best || s.updated_at > best.at) best = { id: s.session_id, at: s.updated_at };
  return best?.id ?? null;
}

/** A command's session: the argument, or with --last the most recently active one, or $CLAUDE_CODE_SESSION_ID. */
export function resolveSession(id: string | undefined, opts: { last?: boolean }, env: NodeJS.ProcessEnv = process.env): string {
  if (!opts.last) return requireSessionId(id, env);
  if (id !== undefined) throw new UsageError(`give a session id (${JSON.stringify(id)}) or --last, not both`);
  const { config } = loadConfig(env);
  const sid = lastSessionId(new FileSessionStore(config.storage.path, () => {}));
  if (!sid) throw new UsageError(`--last: no sessions in ${config.storage.path}`, 3);
  return sid;
}

const useColour = (): boolean => !process.env.NO_COLOR && process.stdout.isTTY === true;
const paint = (code: string) => (s: string) => (useColour() ? `\x1b[${code}m${s}\x1b[0m` : s);
export const c = { bold: paint('1'), dim: paint('2'), red: paint('31'), green: paint('32'), yellow: paint('33'), cyan: paint('36') };

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Parse `30d`, `12h`, `45m`, `90s` into milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)\s*([dhms])$/.exec(text.trim());
  if (!m) throw new UsageError(`invalid duration ${JSON.stringify(text)}: use e.g. 30d, 12h, 45m`);
  const n = Number(m[1]);
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 }[m[2] as 'd' | 'h' | 'm' | 's'];
  return n * unit;
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
