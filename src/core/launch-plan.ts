// How roz launches the client, decided once per run from facts gathered once
// (one loaded config, one `claude --version`, one look for an installed
// plugin): the hook transport (the client's http hooks served in roz's own
// process, or a process per hook), the command line, the child's environment
// and what the run says about it. `roz run` and `roz exec` both start from
// this plan (supervisor/host/run-service.ts gathers the facts and carries it out).
// Pure: no file system, no process.
import { basename, join } from 'node:path';
import type { RozConfig } from './config.js';

/** First client version that honours `onFailure` on http hooks (shared/reference/claude-code-sandbox.md). */
export const HTTP_HOOKS_SINCE = [2, 1, 295] as const;

export type ClientVersion = [number, number, number];

/** `2.1.330 (Claude Code)` -> [2, 1, 330]; null when it is not a version. */
export function parseClientVersion(text: string): ClientVersion | null {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function supportsHttpHooks(version: readonly number[] | null): boolean {
  if (!version) return false;
  for (let i = 0; i < 3; i++) {
    if (version[i]! !== HTTP_HOOKS_SINCE[i]) return version[i]! > HTTP_HOOKS_SINCE[i]!;
  }
  return true;
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

export interface LaunchArgs {
  command: string;
  args: string[];
  /** Said once on stderr before the run starts, e.g. how the plugin is loaded. */
  notes: string[];
  /** The user's own `--settings` value, taken out of args: the caller merges it under roz's. */
  userSettings?: string;
}

/** Put roz's per-run `--settings FILE` first on a claude command line. */
export function withSettings<T extends LaunchArgs>(plan: T, settingsFile: string): T {
  return { ...plan, args: ['--settings', settingsFile, ...plan.args] };
}

/**
 * For claude, load roz's plugin with --plugin-dir unless the user installed it
 * (loading it twice would run every hook twice) or named one; `force` loads it
 * anyway (a plugin the user asked for, or the http-hook copy of it).
 */
export function pluginArgs(command: string, args: string[], opts: { pluginDir: string; installed: boolean; force?: boolean }): LaunchArgs {
  const isClaude = isClaudeCommand(command);
  if (!isClaude && !opts.force) return { command, args, notes: [] };
  const taken = isClaude ? takeSettingsArg(args) : { args };
  const user = taken.value === undefined ? {} : { userSettings: taken.value };
  const rest = taken.args;
  if (rest.includes('--plugin-dir')) return { command, args: rest, notes: [], ...user };
  if (!opts.force && opts.installed) return { command, args: rest, notes: ['roz plugin is installed; not adding --plugin-dir'], ...user };
  return { command, args: ['--plugin-dir', opts.pluginDir, ...rest], notes: [], ...user };
}

/** What the launcher knows before it plans: each fact read once (supervisor/host/run-service.ts). */
export interface LaunchFacts {
  command: string;
  args: string[];
  /** The resolved config, loaded once for the whole run. */
  config: RozConfig;
  /** roz's plugin for this run, and whether the user named it (`--plugin-dir` of roz run/exec). */
  pluginDir: string;
  pluginDirGiven: boolean;
  /** The roz plugin is installed in the client's user directory. */
  pluginInstalled: boolean;
  /** The plugin has hooks/hooks.json (the events and matchers http hooks copy). */
  pluginHasHooks: boolean;
  /** `claude --version`, asked only of claude; null when unknown. */
  clientVersion: ClientVersion | null;
  /** `command` keeps a process per hook (ROZ_HOOKS=command, or the caller's choice). */
  hooks: 'auto' | 'command';
  /** Who serves the http hooks: the supervisor (`roz run`) or the launcher itself (`roz exec`). */
  server: 'supervisor' | 'launcher';
  /** PreToolUse's http timeout in seconds (a supervised one may wait for a human). */
  preToolUseTimeoutS: number;
  /** The child's PATH as given. */
  path: string;
}

export interface HookTransport {
  http: boolean;
  note: string;
}

export interface RunPlan extends LaunchArgs {
  transport: HookTransport;
  /** Added to the child's environment (the token and socket come from whoever serves the hooks). */
  env: Record<string, string>;
  /** Seconds the PreToolUse http hook may take before the client blocks the call. */
  preToolUseTimeoutS: number;
  /** From the one loaded config: where the store is, the sandbox's network. */
  storePath: string;
  network: RozConfig['enforce']['network'];
}

/**
 * http hooks served in roz's process, or a process per hook: http only for
 * claude on 2.1.295+ (onFailure: block), with roz's plugin loaded by this run
 * (an installed plugin or a --plugin-dir of the user's would keep its command
 * hooks, and every event would run twice). ROZ_HOOKS=command forces processes.
 */
export function hookTransport(f: LaunchFacts): HookTransport {
  const no = (why: string): HookTransport => ({ http: false, note: `hooks: a process per event (${why})` });
  if (f.hooks === 'command') return no('ROZ_HOOKS=command');
  if (!isClaudeCommand(f.command)) return no('not claude');
  if (f.args.includes('--plugin-dir')) return no('--plugin-dir given');
  if (!f.pluginDirGiven && f.pluginInstalled) return no('the roz plugin is installed and keeps its command hooks');
  if (!f.pluginHasHooks) return no(`no hooks.json in ${f.pluginDir}`);
  if (!supportsHttpHooks(f.clientVersion)) return no(`client ${f.clientVersion ? f.clientVersion.join('.') : 'version unknown'} predates onFailure (2.1.295)`);
  const where = f.server === 'supervisor' ? 'the supervisor' : 'this roz process';
  return { http: true, note: `hooks: http to ${where} (client ${f.clientVersion!.join('.')}); a tool call is blocked if roz cannot judge it` };
}

/**
 * The run's plan. `launchDir` is the plugin directory the client gets: the
 * plugin itself, or with http hooks (hookTransport) its copy without the
 * http-served hooks, which the launcher makes first.
 */
export function planRun(f: LaunchFacts, launchDir: string): RunPlan {
  const transport = hookTransport(f);
  const http = transport.http;
  const launch = pluginArgs(f.command, f.args, { pluginDir: launchDir, installed: f.pluginInstalled, force: f.pluginDirGiven || http });
  const env: Record<string, string> = {};
  if (http) {
    // No SessionStart process writes CLAUDE_ENV_FILE for the rest: the reviewer's `roz decide` finds roz on PATH from here.
    env.PATH = `${join(f.pluginDir, 'bin')}:${f.path}`;
    // The SessionStart hook (still a process) reports the run's transport in telemetry.
    env.ROZ_HOOK_TRANSPORT = 'http';
  }
  return {
    ...launch,
    notes: [transport.note, ...launch.notes],
    transport,
    env,
    preToolUseTimeoutS: f.preToolUseTimeoutS,
    storePath: f.config.storage.path,
    network: f.config.enforce.network,
  };
}
