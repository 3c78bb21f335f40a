// One agent's launch, apart from whoever serves its hooks: its plan (from the
// run's one loaded config), its own settings file (with the per-worktree
// sandbox run-settings.ts adds in a linked worktree), its environment (its own
// token), the in-process hooks' view of it, and its child (a pty, or the
// inherited stdio for `roz exec`). RunService launches one; the fleet host
// (fleet-host.ts) launches one per agent against one shared supervisor.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants, homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { clientForCommand } from '../../core/client-commands.js';
import type { ClientId } from '../../core/clients.js';
import type { RozConfig } from '../../core/config.js';
import type { ClaudeSettings } from '../../core/enforce/settings.js';
import type { Enforcement } from '../../core/enforce/mode.js';
import {
  hookTransport as transportFor,
  isClaudeCommand,
  planRun,
  withSettings,
  type ClientVersion,
  type LaunchFacts,
  type RunPlan,
} from '../../core/launch-plan.js';
import { loadConfig } from '../../engine/config-loader.js';
import type { OwningAgent } from '../../store/agent-registry.js';
import { agentPlace, type AgentPlace } from '../../store/agent-place.js';
import { AGENT_WORKTREE_ENV, BASE_CHECKOUT_ENV } from '../../store/project-root.js';
import { pluginRoot } from '../../engine/templates-loader.js';
import { spawnChild, type ChildPty } from './child-pty.js';
import type { LoadedConfig } from '../config-watch.js';
import { httpHooksFragment } from '../hooks/http-hooks.js';
import { clientVersion, pluginHooks } from './http-launch.js';
import { rozPluginInstalled } from './launch-args.js';
import { launchPluginDir } from './launch-node.js';
import { pathOutsideProject, resolveExecutable } from '../../store/executable-path.js';
import type { StagingPlace } from '../../store/staging-place.js';
import { gitShimDir, readUserSettings, SETTINGS_ENV, writeRunSettings, type RunSettings } from './run-settings.js';

/**
 * `roz exec`'s PreToolUse http hook: no human waits on it, so this only bounds
 * a hung engine (the client then blocks the call: onFailure).
 */
const EXEC_PRE_TOOL_USE_TIMEOUT_S = 60;

/** What a run says before it starts, or why it cannot. */
export class RunError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The child as the screen sees it: a pty when asked for, else an inherited-stdio process. */
export type RunChild = Pick<ChildPty, 'pid' | 'write' | 'resize' | 'onData' | 'kill' | 'exited' | 'exitSignal'>;

export interface LaunchRequest {
  /** The agent command line as typed (`claude -p ...`). */
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Load roz's plugin from here (default: the plugin this roz runs from; given = always added). */
  pluginDir?: string;
  /** Served by a supervisor (`roz run`): its approval timeout bounds the PreToolUse hook; `hooks: 'command'` keeps a process per hook. */
  supervisor?: { approvalTimeoutMs: number; hooks?: 'auto' | 'command' };
  /** `command`: a process per hook even where http would do. */
  hooks?: 'auto' | 'command';
  /** A pseudo-terminal of this size (`roz run`); absent: the child inherits our stdio. */
  pty?: { cols: number; rows: number };
}

/** A launch planned and ready: the executable, the plugin folders and the plan, from one loaded config. */
export interface PreparedLaunch {
  file: string;
  pluginDir: string;
  launchDir: string;
  loaded: LoadedConfig;
  plan: RunPlan;
  /** `claude --version` as asked for this launch (null when not asked or unknown): later agents reuse it. */
  clientVersion: ClientVersion | null;
  /** Where it runs: the registry's agent owning its directory, its linked worktree (computed here, once). */
  place: AgentPlace;
}

/**
 * Plan one launch. `shared`: the run's config and client version, already
 * known from the first agent's launch (one config load per run, one
 * `claude --version`). `owner`: the registry's agent the caller already found
 * for `req.cwd` (the fleet host starting a recorded agent); else it is looked up.
 */
export function prepareLaunch(
  req: LaunchRequest,
  shared?: { loaded: LoadedConfig; clientVersion: ClientVersion | null },
  owner?: OwningAgent | null,
): PreparedLaunch {
  // Not from the project's own folders on PATH (node_modules/.bin under npx): launch-node.ts.
  const file = resolveExecutable(req.command, pathOutsideProject(req.env.PATH, req.cwd));
  if (!file)
    throw new RunError(
      `cannot find ${JSON.stringify(req.command)} on PATH${req.command === 'claude' ? ' (npm install -g @anthropic-ai/claude-code)' : ''}`,
      127,
    );
  const env = req.env;
  const pluginDir = req.pluginDir ?? pluginRoot(env);
  // The run's one config load: the plan, the settings, the supervisor all use it.
  const loaded = shared?.loaded ?? loadConfig(env, { cwd: req.cwd });
  const facts = launchFacts(req, file, pluginDir, loaded.config, shared ? { version: shared.clientVersion } : undefined);
  // The hooks start the node roz runs on, by absolute path, not a `node` from PATH (launch-node.ts).
  const launchNotes: string[] = [];
  const launchDir = launchPluginDir(req, pluginDir, transportFor(facts).http, env, launchNotes, loaded.config.storage.path);
  const planned = planRun(facts, launchDir);
  // An agent in a worktree roz made for it: its hooks take the base checkout's intents (docs/fleet.md,
  // "Intents"), told from roz's registry, never from anything in the worktree.
  const place = agentPlace(resolve(req.cwd, planned.storePath), req.cwd, owner);
  return {
    file,
    pluginDir,
    launchDir,
    loaded,
    plan: { ...planned, notes: [...launchNotes, ...planned.notes] },
    clientVersion: facts.clientVersion,
    place,
  };
}

/** Whoever serves this agent's http hooks: the supervisor (for `agent`) or `roz exec`'s in-process hooks. */
export interface HookServer {
  readonly httpUrl: string | null;
  addHookEnv(extra: Record<string, string>, agent?: string): void;
}

export interface AgentLaunchOptions {
  /** The agent's name in the supervisor (its hooks' environment is kept under it); null without a supervisor. */
  agent: string | null;
  /** Serves the http hooks, when the plan has them. */
  server: HookServer | null;
  /** What the child needs to reach its hook server: the socket and ITS token. */
  reach: Record<string, string>;
  /** More settings fragments for this launch. */
  fragments?: ClaudeSettings[];
  /**
   * Another client's agent joining a supervisor whose agents are confined (its control socket answers
   * `roz approve`): refused before it starts unless the client's own sandbox holds all roz asked of it.
   */
  requireEnforced?: boolean;
}

export interface LaunchedAgent {
  child: RunChild;
  settings: RunSettings | null;
  /** Another client's confinement as its launcher planned it (its own sandbox); null for Claude Code (its settings file decides). */
  clientEnforcement: Enforcement | null;
  /** The staging store the launch prepared for the agent's new git objects (either client), for the intake at its exit. */
  objects: StagingPlace | null;
  /** Which client it launched: another client's id, else Claude Code's (also for a command roz knows as no client's). */
  client: ClientId;
}

/** ROZ_CLIENT_SANDBOX as client-launch.ts set it (`enforced`, or `advisory: <why>`), as an enforcement. */
export function clientSandboxEnforcement(value: string | undefined): Enforcement {
  return value === 'enforced' ? { mode: 'enforced', reasons: [] } : { mode: 'advisory', reasons: [(value ?? 'no sandbox').replace(/^advisory: /, '')] };
}

/** Write the agent's settings, tell the hook server its environment, start its child. On failure its settings are removed again. */
export async function launchAgent(req: LaunchRequest, prepared: PreparedLaunch, opts: AgentLaunchOptions): Promise<LaunchedAgent> {
  const { plan, pluginDir, launchDir, file } = prepared;
  const env = req.env;
  let settings: RunSettings | null = null;
  let clientEnforcement: Enforcement | null = null;
  let objects: StagingPlace | null = null;
  try {
    // Its roots as the launch found them (prepareLaunch); anyone else's word in the environment is dropped.
    const agentRoots = prepared.place.agent?.roots ?? null;
    const roots: Record<string, string> = agentRoots ? { [AGENT_WORKTREE_ENV]: agentRoots.worktree, [BASE_CHECKOUT_ENV]: agentRoots.base } : {};
    const childEnv: Record<string, string> = { ...withoutAgentRoots(env), ...opts.reach, ...plan.env, ...roots };
    // Which client the hooks serve and how it is confined: only ever this launch's word (set below for
    // another client), never inherited (a roz run started from a Codex agent's shell carries its values).
    delete childEnv.ROZ_CLIENT;
    delete childEnv.ROZ_CLIENT_SANDBOX;
    const fragments = [...(opts.fragments ?? [])];
    const server = opts.server?.httpUrl ? opts.server : null;
    if (server?.httpUrl && plan.transport.http)
      fragments.push(httpHooksFragment({ baseUrl: server.httpUrl, pluginHooks: pluginHooks(pluginDir), preToolUseTimeoutS: plan.preToolUseTimeoutS }));
    let args = plan.args;
    const client = clientForCommand(req.command);
    if (client && client.id !== 'claude') {
      // Another client: roz's hooks and its own sandbox on its command line (core/clients.ts), loaded only for it.
      const { launchOtherClient } = await import('./client-launch.js');
      const other = launchOtherClient(client, req, pluginDir, prepared.loaded.config, prepared.place);
      args = other.args;
      Object.assign(childEnv, other.env);
      // Its commits' new objects go to the staging store through roz's git, as a Claude agent's do (putGitShimFirst).
      objects = other.objects;
      if (objects) putGitShimFirst(childEnv, req, pluginDir);
      plan.notes.push(...other.notes);
      clientEnforcement = clientSandboxEnforcement(other.env.ROZ_CLIENT_SANDBOX);
      if (opts.requireEnforced && clientEnforcement.mode !== 'enforced')
        throw new RunError(
          `${client.label} would not be confined here (${clientEnforcement.reasons.join('; ')}), and this supervisor's agents are: it could reach roz's control socket, so it is not started`,
          2,
        );
    } else if (isClaudeCommand(req.command)) {
      const user = plan.userSettings !== undefined ? [readUserSettings(plan.userSettings, req.cwd)] : [];
      settings = writeRunSettings(env, req.cwd, [...user, ...fragments], pluginDir, prepared.loaded.config, prepared.place);
      args = withSettings(plan, settings.file).args;
      childEnv[SETTINGS_ENV] = settings.file;
      // roz's git first on the agent's PATH: it writes new objects into the staging store (plugin/git-shim/git).
      // The git it runs is resolved here, off a PATH without the project's folders (the client runs it too,
      // outside the sandbox: never a git the agent planted in node_modules/.bin).
      objects = settings.objects;
      if (objects) putGitShimFirst(childEnv, req, pluginDir);
    }
    // In-process hooks see what a hook process of THIS agent would: the plugin root, its project, its settings
    // file (which this launch started the client with: the engine cannot find that in /proc from here), its token.
    server?.addHookEnv(
      {
        ...opts.reach,
        CLAUDE_PLUGIN_ROOT: launchDir,
        CLAUDE_PROJECT_DIR: req.cwd,
        PATH: childEnv.PATH ?? '',
        // Always both: empty (no agent) overrides whatever the launcher's own environment held.
        [AGENT_WORKTREE_ENV]: agentRoots?.worktree ?? '',
        [BASE_CHECKOUT_ENV]: agentRoots?.base ?? '',
        ...(settings ? { [SETTINGS_ENV]: settings.file, ROZ_SETTINGS_LAUNCHED: settings.file } : {}),
      },
      opts.agent ?? undefined,
    );
    const child = req.pty
      ? await spawnChild(file, args, { cols: req.pty.cols, rows: req.pty.rows, cwd: req.cwd, env: childEnv })
      : spawnInherited(file, args, req.cwd, childEnv);
    return { child, settings, clientEnforcement, objects, client: client?.id ?? 'claude' };
  } catch (err) {
    settings?.dispose();
    if (err instanceof SyntaxError || (err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new RunError(`cannot use --settings: ${(err as Error).message}`, 2);
    throw err;
  }
}

/** roz's git shim first on the agent's PATH, with the real git it runs (none found: the PATH is left as it is). */
function putGitShimFirst(childEnv: Record<string, string>, req: LaunchRequest, pluginDir: string): void {
  const realGit = resolveExecutable('git', pathOutsideProject(req.env.PATH, req.cwd));
  if (!realGit) return;
  childEnv.PATH = `${gitShimDir(pluginDir)}:${childEnv.PATH ?? ''}`;
  childEnv.ROZ_REAL_GIT = realGit;
}

/** The environment without an agent's roots from elsewhere (a roz run started inside an agent's session). */
function withoutAgentRoots(env: Record<string, string>): Record<string, string> {
  if (!(AGENT_WORKTREE_ENV in env) && !(BASE_CHECKOUT_ENV in env)) return env;
  const { [AGENT_WORKTREE_ENV]: _w, [BASE_CHECKOUT_ENV]: _b, ...rest } = env;
  return rest;
}

/**
 * The facts a launch is planned from (core/launch-plan.ts), each read once:
 * `claude --version` only when nothing else already rules http hooks out
 * (and not at all when `known` already has it).
 */
export function launchFacts(req: LaunchRequest, file: string, pluginDir: string, config: RozConfig, known?: { version: ClientVersion | null }): LaunchFacts {
  const env = req.env;
  const isClaude = isClaudeCommand(req.command);
  const facts: LaunchFacts = {
    command: req.command,
    args: req.args,
    config,
    pluginDir,
    pluginDirGiven: req.pluginDir !== undefined,
    pluginInstalled: isClaude && rozPluginInstalled(env, env.HOME || homedir()),
    pluginHasHooks: existsSync(join(pluginDir, 'hooks', 'hooks.json')),
    clientVersion: null,
    hooks: req.supervisor?.hooks === 'command' || req.hooks === 'command' || env.ROZ_HOOKS === 'command' ? 'command' : 'auto',
    server: req.supervisor ? 'supervisor' : 'launcher',
    // The supervisor denies at the approval timeout; the request must outlive that.
    preToolUseTimeoutS: req.supervisor ? Math.ceil(req.supervisor.approvalTimeoutMs / 1000) + 15 : EXEC_PRE_TOOL_USE_TIMEOUT_S,
    path: env.PATH ?? '',
  };
  // The version decides only when everything else allows http.
  if (transportFor({ ...facts, clientVersion: [Number.MAX_SAFE_INTEGER, 0, 0] }).http) facts.clientVersion = known ? known.version : clientVersion(file, env);
  return facts;
}

/** The child on our own stdin/stdout/stderr (no terminal needed): `roz exec`. */
function spawnInherited(file: string, args: string[], cwd: string, env: Record<string, string>): RunChild {
  const proc = spawn(file, args, { cwd, env, stdio: 'inherit' });
  let done = false;
  let exitSignal: NodeJS.Signals | null = null;
  const exited = new Promise<number>((resolve, reject) => {
    proc.once('error', (err) => {
      done = true;
      reject(new RunError(`could not start ${file}: ${err.message}`, 126));
    });
    proc.once('exit', (code, signal) => {
      done = true;
      exitSignal = signal;
      resolve(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
  return {
    pid: proc.pid ?? -1,
    write: () => {},
    resize: () => {},
    onData: () => {},
    kill: (signal = 'SIGTERM') => {
      if (!done) proc.kill(signal);
    },
    exited,
    get exitSignal() {
      return exitSignal;
    },
  };
}
