// One supervised run of the agent, without any screen: the enforced settings
// file, the supervisor (when asked for), the child (in a pty for `roz run`,
// on the inherited stdio for `roz exec`), forwarded signals and the result.
// `roz run`'s TUI draws it; `roz exec` just waits for it.
import type { ClaudeSettings } from '../../core/enforce/settings.js';
import type { RunPlan } from '../../core/launch-plan.js';
import { hookTransport as transportFor, type HookTransport } from '../../core/launch-plan.js';
import { loadConfig } from '../../engine/config-loader.js';
import { launchAgent, launchFacts, prepareLaunch, RunError, type LaunchRequest, type RunChild } from '../launch/agent-run.js';
import { InProcessHooks } from '../hooks/in-process-hooks.js';
import type { RunSettings } from '../launch/run-settings.js';
import { Supervisor } from '../supervisor.js';
import { FIRST_AGENT } from '../../core/fleet/agent-name.js';
import type { ControlServer } from '../control/control-server.js';
import { startRunControl } from './run-control.js';
import type { StagingPlace } from '../../store/staging-place.js';
import { takeObjectsAtExit } from '../launch/exit-intake.js';
import { FileSessionStore } from '../../store/file-store.js';

export { launchFacts, RunError, type RunChild };

const FORWARDED: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];
/** After forwarding a signal, how long the child gets before SIGKILL. */
const KILL_GRACE_MS = 3_000;

export interface RunRequest extends LaunchRequest {
  /**
   * Start a supervisor and point the hooks at it (`roz run`); absent (`roz exec`): hooks are
   * judged without a human, over http in this process where the client supports it, else
   * each in a process of its own. `hooks`: `auto` (default) uses the client's http hooks where
   * the client supports them (src/supervisor/hooks/http-hooks.ts), `command` keeps a process per hook.
   */
  supervisor?: { approvalTimeoutMs: number; hooks?: 'auto' | 'command' };
  /** Told how long each in-process http hook took roz (`roz exec`; bench and tests). */
  onHttpHook?: (event: string, ms: number) => void;
  /** More settings fragments for this run (e.g. http hooks to the supervisor). */
  settingsFragments?: (sup: Supervisor | null) => ClaudeSettings[];
}

export interface RunResult {
  /** The child's exit code (128+N when signal N ended it). */
  code: number;
  sessions: string[];
  supervisor: Pick<Supervisor, 'stats'> | null;
  /** The settings file the client ran with (removed by now), or null when it was not claude. */
  settingsFile: string | null;
}

export class RunService {
  private killTimer: NodeJS.Timeout | null = null;
  private readonly handlers: Array<readonly [NodeJS.Signals, () => void]>;
  private closed: Promise<RunResult> | null = null;
  /** The human's control socket (`roz queue/approve/block`), when this run has a supervisor. */
  control: ControlServer | null = null;
  /** Without a supervisor (`roz exec`): what the exit's object intake says for the human (launch/exit-intake.ts). */
  readonly exitWarnings: string[] = [];

  private constructor(
    readonly child: RunChild,
    readonly supervisor: Supervisor | null,
    private readonly hooks: InProcessHooks | null,
    private readonly settings: RunSettings | null,
    /** The staging store the launch prepared (launch/exit-intake.ts). */
    private readonly objects: StagingPlace | null,
    readonly notes: string[],
    private readonly inheritsTerminal: boolean,
    /** What this run was planned as (core/launch-plan.ts). */
    readonly plan: RunPlan,
    private readonly storeRoot: string,
    private readonly cwd: string,
  ) {
    this.handlers = FORWARDED.map((sig) => [sig, () => this.forward(sig)] as const);
    for (const [sig, h] of this.handlers) process.on(sig, h);
  }

  /** Start everything; on failure, whatever was started is stopped again. */
  static async start(req: RunRequest): Promise<RunService> {
    const prepared = prepareLaunch(req);
    const { plan, loaded } = prepared;
    const env = req.env;
    const http = plan.transport.http;
    const supervisor = req.supervisor
      ? await Supervisor.start({ env, cwd: req.cwd, approvalTimeoutMs: req.supervisor.approvalTimeoutMs, httpHooks: http, config: loaded })
      : null;
    let hooks: InProcessHooks | null = null;
    try {
      if (!supervisor && http)
        hooks = await InProcessHooks.start({ env, storePath: loaded.config.storage.path, ...(req.onHttpHook ? { onHook: req.onHttpHook } : {}) });
      const { child, settings, objects } = await launchAgent(req, prepared, {
        agent: supervisor ? FIRST_AGENT : null,
        server: supervisor ?? hooks,
        reach: { ...(supervisor?.childEnv() ?? {}), ...(hooks?.childEnv() ?? {}) },
        fragments: req.settingsFragments?.(supervisor) ?? [],
      });
      const service = new RunService(
        child,
        supervisor,
        hooks,
        settings,
        objects,
        plan.notes,
        !req.pty && process.stdin.isTTY === true,
        plan,
        loaded.config.storage.path,
        req.cwd,
      );
      if (supervisor)
        service.control = await startRunControl(
          { supervisor, child, env, cwd: req.cwd, store: loaded.config.storage.path, settingsFile: settings?.file ?? null },
          service.notes,
        );
      return service;
    } catch (err) {
      await hooks?.close();
      await supervisor?.close();
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

  /** The git objects the agent left staged (launch/exit-intake.ts); what the human must read goes to the supervisor or, under `roz exec`, to `exitWarnings`. */
  private takeObjects(): void {
    const sup = this.supervisor;
    const warnings = takeObjectsAtExit({
      place: this.objects,
      storeRoot: this.storeRoot,
      store: sup?.store ?? new FileSessionStore(this.storeRoot),
      sessionId: sup?.agentSessionId(FIRST_AGENT) ?? null,
      cwd: this.cwd,
    });
    if (sup) sup.agentObjectWarnings(FIRST_AGENT, warnings);
    else this.exitWarnings.push(...warnings);
  }

  /** Wait for the child, then stop everything this run started. Idempotent. */
  finish(): Promise<RunResult> {
    this.closed ??= (async () => {
      let code: number;
      try {
        code = await this.child.exited;
        this.takeObjects();
        this.supervisor?.agentExited(FIRST_AGENT, this.child.exitSignal ? null : code, this.child.exitSignal);
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

/** The hook transport a request would get (tests): http or a process per hook, and why. */
export function hookTransport(req: RunRequest, file: string, env: Record<string, string>, pluginDir: string): HookTransport {
  return transportFor(launchFacts({ ...req, env }, file, pluginDir, loadConfig(env, { cwd: req.cwd }).config));
}
