// One supervised run of the agent, without any screen: the enforced settings
// file, the supervisor (when asked for), the child (in a pty for `roz run`,
// on the inherited stdio for `roz exec`), forwarded signals and the result.
// `roz run`'s TUI draws it; `roz exec` just waits for it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants, homedir } from 'node:os';
import { join } from 'node:path';
import type { RozConfig } from '../core/config.js';
import type { ClaudeSettings } from '../core/enforce/settings.js';
import {
  hookTransport as transportFor,
  isClaudeCommand,
  planRun,
  withSettings,
  type HookTransport,
  type LaunchFacts,
  type RunPlan,
} from '../core/launch-plan.js';
import { pluginRoot } from '../engine/templates-loader.js';
import { resolveExecutable, spawnChild, type ChildPty } from './child-pty.js';
import { loadConfig } from '../engine/config-loader.js';
import { httpHooksFragment } from './http-hooks.js';
import { clientVersion, pluginHooks } from './http-launch.js';
import { InProcessHooks } from './in-process-hooks.js';
import { rozPluginInstalled } from './launch-args.js';
import { launchPluginDir, pathOutsideProject } from './launch-node.js';
import { readUserSettings, SETTINGS_ENV, writeRunSettings, type RunSettings } from './run-settings.js';
import { Supervisor } from './supervisor.js';
import type { ControlServer } from './control-server.js';
import { startRunControl } from './run-control.js';

const FORWARDED: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];
/** After forwarding a signal, how long the child gets before SIGKILL. */
const KILL_GRACE_MS = 3_000;
/**
 * `roz exec`'s PreToolUse http hook: no human waits on it, so this only bounds
 * a hung engine (the client then blocks the call: onFailure).
 */
const EXEC_PRE_TOOL_USE_TIMEOUT_S = 60;

export interface RunRequest {
  /** The agent command line as typed (`claude -p ...`). */
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Load roz's plugin from here (default: the plugin this roz runs from; given = always added). */
  pluginDir?: string;
  /**
   * Start a supervisor and point the hooks at it (`roz run`); absent (`roz exec`): hooks are
   * judged without a human, over http in this process where the client supports it, else
   * each in a process of its own. `hooks`: `auto` (default) uses the client's http hooks where
   * the client supports them (src/supervisor/http-hooks.ts), `command` keeps a process per hook.
   */
  supervisor?: { approvalTimeoutMs: number; hooks?: 'auto' | 'command' };
  /** `command`: a process per hook even where http would do (`roz exec`; `roz run` says it in `supervisor`). */
  hooks?: 'auto' | 'command';
  /** Told how long each in-process http hook took roz (`roz exec`; bench and tests). */
  onHttpHook?: (event: string, ms: number) => void;
  /** A pseudo-terminal of this size (`roz run`); absent: the child inherits our stdio. */
  pty?: { cols: number; rows: number };
  /** More settings fragments for this run (e.g. http hooks to the supervisor). */
  settingsFragments?: (sup: Supervisor | null) => ClaudeSettings[];
}

/** What a run says before it starts, or why it cannot. */
export class RunError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export interface RunResult {
  /** The child's exit code (128+N when signal N ended it). */
  code: number;
  sessions: string[];
  supervisor: Pick<Supervisor, 'stats'> | null;
  /** The settings file the client ran with (removed by now), or null when it was not claude. */
  settingsFile: string | null;
}

/** The child as the screen sees it: a pty when asked for, else an inherited-stdio process. */
export type RunChild = Pick<ChildPty, 'pid' | 'write' | 'resize' | 'onData' | 'kill' | 'exited'>;

export class RunService {
  private killTimer: NodeJS.Timeout | null = null;
  private readonly handlers: Array<readonly [NodeJS.Signals, () => void]>;
  private closed: Promise<RunResult> | null = null;
  /** The human's control socket (`roz queue/approve/block`), when this run has a supervisor. */
  control: ControlServer | null = null;

  private constructor(
    readonly child: RunChild,
    readonly supervisor: Supervisor | null,
    private readonly hooks: InProcessHooks | null,
    private readonly settings: RunSettings | null,
    readonly notes: string[],
    private readonly inheritsTerminal: boolean,
    /** What this run was planned as (core/launch-plan.ts). */
    readonly plan: RunPlan,
  ) {
    this.handlers = FORWARDED.map((sig) => [sig, () => this.forward(sig)] as const);
    for (const [sig, h] of this.handlers) process.on(sig, h);
  }

  /** Start everything; on failure, whatever was started is stopped again. */
  static async start(req: RunRequest): Promise<RunService> {
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
    const loaded = loadConfig(env, { cwd: req.cwd });
    const facts = launchFacts(req, file, pluginDir, loaded.config);
    // The hooks start the node roz runs on, by absolute path, not a `node` from PATH (launch-node.ts).
    const launchNotes: string[] = [];
    const launchDir = launchPluginDir(req, pluginDir, transportFor(facts).http, env, launchNotes, loaded.config.storage.path);
    const planned = planRun(facts, launchDir);
    const plan: RunPlan = { ...planned, notes: [...launchNotes, ...planned.notes] };
    const http = plan.transport.http;
    const supervisor = req.supervisor
      ? await Supervisor.start({ env, cwd: req.cwd, approvalTimeoutMs: req.supervisor.approvalTimeoutMs, httpHooks: http, config: loaded })
      : null;
    let hooks: InProcessHooks | null = null;
    let settings: RunSettings | null = null;
    try {
      if (!supervisor && http)
        hooks = await InProcessHooks.start({ env, storePath: loaded.config.storage.path, ...(req.onHttpHook ? { onHook: req.onHttpHook } : {}) });
      const server = supervisor?.httpUrl ? supervisor : hooks;
      const childEnv: Record<string, string> = { ...env, ...(supervisor?.childEnv() ?? {}), ...(hooks?.childEnv() ?? {}), ...plan.env };
      const fragments = req.settingsFragments?.(supervisor) ?? [];
      if (server?.httpUrl)
        fragments.push(httpHooksFragment({ baseUrl: server.httpUrl, pluginHooks: pluginHooks(pluginDir), preToolUseTimeoutS: plan.preToolUseTimeoutS }));
      let args = plan.args;
      if (isClaudeCommand(req.command)) {
        const user = plan.userSettings !== undefined ? [readUserSettings(plan.userSettings, req.cwd)] : [];
        settings = writeRunSettings(env, req.cwd, [...user, ...fragments], pluginDir, loaded.config);
        args = withSettings(plan, settings.file).args;
        childEnv[SETTINGS_ENV] = settings.file;
      }
      // In-process hooks see what a hook process would: the plugin root, the project, the settings file
      // (which this run launched the client with: the engine cannot find that in /proc from here).
      server?.addHookEnv({
        CLAUDE_PLUGIN_ROOT: launchDir,
        CLAUDE_PROJECT_DIR: req.cwd,
        PATH: childEnv.PATH ?? '',
        ...(settings ? { [SETTINGS_ENV]: settings.file, ROZ_SETTINGS_LAUNCHED: settings.file } : {}),
      });
      const child = req.pty
        ? await spawnChild(file, args, { cols: req.pty.cols, rows: req.pty.rows, cwd: req.cwd, env: childEnv })
        : spawnInherited(file, args, req.cwd, childEnv);
      const service = new RunService(child, supervisor, hooks, settings, plan.notes, !req.pty && process.stdin.isTTY === true, plan);
      if (supervisor)
        service.control = await startRunControl(
          { supervisor, child, env, cwd: req.cwd, store: loaded.config.storage.path, settingsFile: settings?.file ?? null },
          service.notes,
        );
      return service;
    } catch (err) {
      settings?.dispose();
      await hooks?.close();
      await supervisor?.close();
      if (err instanceof SyntaxError || (err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new RunError(`cannot use --settings: ${(err as Error).message}`, 2);
      throw err;
    }
  }

  get settingsFile(): string | null {
    return this.settings?.file ?? null;
  }

  private forward(sig: NodeJS.Signals): void {
    // On a terminal, Ctrl-C / Ctrl-\ already reached the child (same process
    // group): sending it again would look like a second keypress.
    if (this.inheritsTerminal && (sig === 'SIGINT' || sig === 'SIGQUIT')) return;
    this.child.kill(sig);
    this.killTimer ??= setTimeout(() => this.child.kill('SIGKILL'), KILL_GRACE_MS);
  }

  /** Wait for the child, then stop everything this run started. Idempotent. */
  finish(): Promise<RunResult> {
    this.closed ??= (async () => {
      let code: number;
      try {
        code = await this.child.exited;
      } finally {
        if (this.killTimer) clearTimeout(this.killTimer);
        for (const [sig, h] of this.handlers) process.off(sig, h);
        this.settings?.dispose();
        await this.control?.close();
        await this.hooks?.close();
        await this.supervisor?.close();
      }
      return { code, sessions: this.supervisor?.seenSessions() ?? [], supervisor: this.supervisor, settingsFile: this.settingsFile };
    })();
    return this.closed;
  }
}

/**
 * The facts a launch is planned from (core/launch-plan.ts), each read once:
 * `claude --version` only when nothing else already rules http hooks out.
 */
export function launchFacts(req: RunRequest, file: string, pluginDir: string, config: RozConfig): LaunchFacts {
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
  if (transportFor({ ...facts, clientVersion: [Number.MAX_SAFE_INTEGER, 0, 0] }).http) facts.clientVersion = clientVersion(file, env);
  return facts;
}

/** The hook transport a request would get (tests): http or a process per hook, and why. */
export function hookTransport(req: RunRequest, file: string, env: Record<string, string>, pluginDir: string): HookTransport {
  return transportFor(launchFacts({ ...req, env }, file, pluginDir, loadConfig(env, { cwd: req.cwd }).config));
}

/** The child on our own stdin/stdout/stderr (no terminal needed): `roz exec`. */
function spawnInherited(file: string, args: string[], cwd: string, env: Record<string, string>): RunChild {
  const proc = spawn(file, args, { cwd, env, stdio: 'inherit' });
  let done = false;
  const exited = new Promise<number>((resolve, reject) => {
    proc.once('error', (err) => {
      done = true;
      reject(new RunError(`could not start ${file}: ${err.message}`, 126));
    });
    proc.once('exit', (code, signal) => {
      done = true;
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
  };
}
