// One supervised run of the agent, without any screen: the enforced settings
// file, the supervisor (when asked for), the child (in a pty for `roz run`,
// on the inherited stdio for `roz exec`), forwarded signals and the result.
// `roz run`'s TUI draws it; `roz exec` just waits for it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants, homedir } from 'node:os';
import { join } from 'node:path';
import type { ClaudeSettings } from '../core/enforce/settings.js';
import { pluginRoot } from '../engine/templates-loader.js';
import { resolveExecutable, spawnChild, type ChildPty } from './child-pty.js';
import { httpHooksFragment, supportsHttpHooks } from './http-hooks.js';
import { clientVersion, pluginHooks } from './http-launch.js';
import { launchPluginDir, pathOutsideProject } from './launch-node.js';
import { isClaudeCommand, planLaunch, rozPluginInstalled, withSettings } from './launch-args.js';
import { readUserSettings, SETTINGS_ENV, writeRunSettings, type RunSettings } from './run-settings.js';
import { Supervisor } from './supervisor.js';

const FORWARDED: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];
/** After forwarding a signal, how long the child gets before SIGKILL. */
const KILL_GRACE_MS = 3_000;

export interface RunRequest {
  /** The agent command line as typed (`claude -p ...`). */
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Load roz's plugin from here (default: the plugin this roz runs from; given = always added). */
  pluginDir?: string;
  /**
   * Start a supervisor and point the hooks at it (`roz run`); absent: hooks run standalone.
   * `hooks`: `auto` (default) uses the client's http hooks where the client supports them
   * (src/supervisor/http-hooks.ts), `command` keeps a process per hook.
   */
  supervisor?: { approvalTimeoutMs: number; hooks?: 'auto' | 'command' };
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

  private constructor(
    readonly child: RunChild,
    readonly supervisor: Supervisor | null,
    private readonly settings: RunSettings | null,
    readonly notes: string[],
    private readonly inheritsTerminal: boolean,
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
    const transport = req.supervisor ? hookTransport(req, file, env, pluginDir) : null;
    const notes = transport ? [transport.note] : [];
    // The hooks start the node roz runs on, by absolute path, not a `node` from PATH (launch-node.ts).
    const launchDir = launchPluginDir(req, pluginDir, transport?.http === true, env, notes);
    let plan = planLaunch(req.command, req.args, {
      env,
      home: env.HOME || homedir(),
      pluginDir: launchDir,
      forcePluginDir: req.pluginDir !== undefined || transport?.http === true,
    });
    plan = { ...plan, notes: [...notes, ...plan.notes] };
    const supervisor = req.supervisor
      ? await Supervisor.start({ env, cwd: req.cwd, approvalTimeoutMs: req.supervisor.approvalTimeoutMs, httpHooks: transport?.http === true })
      : null;
    let settings: RunSettings | null = null;
    try {
      const childEnv: Record<string, string> = { ...env, ...(supervisor?.childEnv() ?? {}) };
      const fragments = req.settingsFragments?.(supervisor) ?? [];
      if (supervisor?.httpUrl && req.supervisor) {
        fragments.push(
          httpHooksFragment({
            baseUrl: supervisor.httpUrl,
            pluginHooks: pluginHooks(pluginDir),
            // The supervisor denies at the approval timeout; the request must outlive that.
            preToolUseTimeoutS: Math.ceil(req.supervisor.approvalTimeoutMs / 1000) + 15,
          }),
        );
        // No SessionStart process writes CLAUDE_ENV_FILE now: the reviewer's `roz decide` finds roz on PATH from here.
        childEnv.PATH = `${join(pluginDir, 'bin')}:${childEnv.PATH ?? ''}`;
        // The SessionStart hook (still a process) reports the run's transport in telemetry.
        childEnv.ROZ_HOOK_TRANSPORT = 'http';
      }
      if (isClaudeCommand(req.command)) {
        const user = plan.userSettings !== undefined ? [readUserSettings(plan.userSettings, req.cwd)] : [];
        settings = writeRunSettings(env, req.cwd, [...user, ...fragments], pluginDir);
        plan = withSettings(plan, settings.file);
        childEnv[SETTINGS_ENV] = settings.file;
      }
      // In-process hooks see what a hook process would: the plugin root, the project, the settings file
      // (which this run launched the client with: the engine cannot find that in /proc from here).
      supervisor?.addHookEnv({
        CLAUDE_PLUGIN_ROOT: launchDir,
        CLAUDE_PROJECT_DIR: req.cwd,
        PATH: childEnv.PATH ?? '',
        ...(settings ? { [SETTINGS_ENV]: settings.file, ROZ_SETTINGS_LAUNCHED: settings.file } : {}),
      });
      const child = req.pty
        ? await spawnChild(file, plan.args, { cols: req.pty.cols, rows: req.pty.rows, cwd: req.cwd, env: childEnv })
        : spawnInherited(file, plan.args, req.cwd, childEnv);
      return new RunService(child, supervisor, settings, plan.notes, !req.pty && process.stdin.isTTY === true);
    } catch (err) {
      settings?.dispose();
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
        await this.supervisor?.close();
      }
      return { code, sessions: this.supervisor?.seenSessions() ?? [], supervisor: this.supervisor, settingsFile: this.settingsFile };
    })();
    return this.closed;
  }
}

/**
 * http hooks to the supervisor, or a process per hook: http only for claude
 * on 2.1.295+ (onFailure: block), with roz's plugin loaded by this run (an
 * installed plugin or a --plugin-dir of the user's would keep its command
 * hooks, and every event would run twice). ROZ_HOOKS=command forces processes.
 */
export function hookTransport(req: RunRequest, file: string, env: Record<string, string>, pluginDir: string): { http: boolean; note: string } {
  const no = (why: string) => ({ http: false, note: `hooks: a process per event (${why})` });
  if (req.supervisor?.hooks === 'command' || env.ROZ_HOOKS === 'command') return no('ROZ_HOOKS=command');
  if (!isClaudeCommand(req.command)) return no('not claude');
  if (req.args.includes('--plugin-dir')) return no('--plugin-dir given');
  if (req.pluginDir === undefined && rozPluginInstalled(env, env.HOME || homedir())) return no('the roz plugin is installed and keeps its command hooks');
  if (!existsSync(join(pluginDir, 'hooks', 'hooks.json'))) return no(`no hooks.json in ${pluginDir}`);
  const version = clientVersion(file, env);
  if (!supportsHttpHooks(version)) return no(`client ${version ? version.join('.') : 'version unknown'} predates onFailure (2.1.295)`);
  return { http: true, note: `hooks: http to the supervisor (client ${version!.join('.')}); a tool call is blocked if roz cannot judge it` };
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
