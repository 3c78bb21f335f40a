// Several agents in one `roz run`: one supervisor (one hook intake, one
// approval queue) shared by every agent's launch. Each agent is launched as
// its own unit (agent-run.ts): its plan from the run's one config, its own
// settings file and sandbox (a linked worktree gets the per-worktree sandbox),
// its own token, its own pty. `roz run claude ARGS` is this host with one
// agent, `main`, in the current directory; more come from roz's registry
// (`roz agent add`, or `n` in the TUI) and run until they exit or are stopped.
// The run ends when every agent has exited.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { type AddResult, type MergeResult, mergeMessage } from '../../core/fleet/merge-result.js';
import { humanName, recordHumanApproval } from '../../engine/fleet/human-review.js';
import { isClaudeCommand } from '../../core/launch-plan.js';
import { CLIENT_COMMANDS, firstPromptArgs } from '../../core/client-commands.js';
import { listAgents } from '../../store/agent-worktrees.js';
import { rootsOf, updateRegistry, type AgentRecord, type OwningAgent } from '../../store/agent-registry.js';
import { lastSessionIn, resumable } from '../../store/agent-sessions.js';
import { FileSessionStore } from '../../store/file-store.js';
import { realpathSync } from 'node:fs';
import { launchAgent, prepareLaunch, RunError, type LaunchRequest, type PreparedLaunch, type RunChild } from '../launch/agent-run.js';
import { FIRST_AGENT } from '../../core/fleet/agent-name.js';
import type { ControlServer } from '../control/control-server.js';
import { PTY_REPLAY_CHARS } from '../attach/attach-protocol.js';
import type { ScreenAgent } from '../attach/fleet-connection.js';
import type { AgentWorkplace } from '../../core/fleet/agent.js';
import type { FleetControl } from '../control/fleet-control.js';
import { PtyTail } from '../attach/pty-tail.js';
import { agentWhere } from '../../core/fleet/agent-where.js';
import { launchEnforcement, startRunControl } from './run-control.js';
import type { RunSettings } from '../launch/run-settings.js';
import type { Enforcement } from '../../core/enforce/mode.js';
import { Supervisor } from '../supervisor.js';
import type { StagingPlace } from '../../store/staging-place.js';
import { takeObjectsAtExit } from '../launch/exit-intake.js';

const FORWARDED: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];
/** After SIGTERM (a forwarded signal or `stop`), how long a child gets before SIGKILL. */
const KILL_GRACE_MS = 3_000;

export interface FleetRequest extends Omit<LaunchRequest, 'supervisor' | 'pty'> {
  approvalTimeoutMs: number;
  /** The pty size every agent starts with (the main pane's). */
  pty: { cols: number; rows: number };
  /** Parent of the supervisor's private socket directory (tests). */
  socketBaseDir?: string;
}

/** One agent the host launched: where it works (core/fleet/agent.ts), its child, and how it ended. */
export interface HostedAgent extends AgentWorkplace {
  readonly child: RunChild;
  readonly notes: string[];
  readonly settingsFile: string | null;
  /** Whether its launch confines it: from its settings file (Claude Code) or its client's own sandbox as roz configured it. */
  readonly enforcement: Enforcement;
  /** Its exit code once it exited (128+N for signal N), else null. */
  code: number | null;
  readonly exited: Promise<number>;
}

export interface FleetResult {
  /** The first agent's exit code: what `roz run` exits with. */
  code: number;
  /** Every session any agent had, agent by agent. */
  sessions: string[];
  supervisor: Pick<Supervisor, 'stats'>;
  settingsFile: string | null;
}

/** What one of roz's own commands said (its exit code and output). */
export interface RozCliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** What the host keeps of a launched agent. */
type HostedRun = HostedAgent & {
  settings: RunSettings | null;
  /** The staging store its launch prepared (launch/exit-intake.ts). */
  objects: StagingPlace | null;
  killTimer: NodeJS.Timeout | null;
  stopping: boolean;
  /** Ended by a signal the run received (the terminal closed, Ctrl-C): its running mark stays, to be offered for resuming. */
  interrupted: boolean;
  /** Its registry (the repository's key) when it is a recorded agent: the host marks it running there. */
  registryKey: string | null;
};

export class FleetHost implements FleetControl {
  private readonly runs = new Map<string, HostedRun>();
  /** The registry's running marks, written one after another (a supervisor killed mid-way leaves the last one). */
  private marks: Promise<void> = Promise.resolve();
  private readonly unsubscribe: () => void;
  private readonly listeners = new Set<() => void>();
  private readonly handlers: Array<readonly [NodeJS.Signals, () => void]>;
  private size: { cols: number; rows: number };
  private allDone!: () => void;
  /** Every agent has exited: the run is over, nothing more starts. */
  private over = false;
  private readonly done = new Promise<void>((r) => (this.allDone = r));
  private closed: Promise<FleetResult> | null = null;
  /** The human's control socket (`roz queue/approve/block`, `roz agent stop`, `roz agent add` starting an agent here). */
  control: ControlServer | null = null;
  private readonly startNotes: string[] = [];
  /** Each agent's newest pty output (kept across a restart), replayed to a screen that attaches. */
  private readonly tails = new Map<string, PtyTail>();
  private readonly ptyListeners = new Set<(agent: string, data: string) => void>();

  private constructor(
    private readonly req: FleetRequest,
    readonly supervisor: Supervisor,
    private readonly first: PreparedLaunch,
  ) {
    this.size = { ...req.pty };
    // The registry knows each recorded agent's newest session (what `roz run` resumes after a killed supervisor).
    this.unsubscribe = supervisor.onAgentSession((agent, sessionId) => {
      const run = this.runs.get(agent);
      if (run?.registryKey && run.code === null && resumable(sessionId))
        this.mark(run.registryKey, agent, (a) => {
          if (a.running) a.running.session = sessionId;
          a.last_session = sessionId;
        });
    });
    this.handlers = FORWARDED.map((sig) => [sig, () => this.forward(sig)] as const);
    for (const [sig, h] of this.handlers) process.on(sig, h);
  }

  /** The supervisor and the first agent (`main`, in `req.cwd`). On failure, whatever started is stopped again. */
  static async start(req: FleetRequest): Promise<FleetHost> {
    const launch: LaunchRequest = { ...req, supervisor: { approvalTimeoutMs: req.approvalTimeoutMs }, pty: req.pty };
    const prepared = prepareLaunch(launch);
    const supervisor = await Supervisor.start({
      env: req.env,
      cwd: req.cwd,
      approvalTimeoutMs: req.approvalTimeoutMs,
      httpHooks: prepared.plan.transport.http,
      config: prepared.loaded,
      ...(req.socketBaseDir ? { socketBaseDir: req.socketBaseDir } : {}),
    });
    const host = new FleetHost(req, supervisor, prepared);
    try {
      await host.launch(FIRST_AGENT, launch, prepared, supervisor.childEnv(), null);
      // The control socket drives this host: start/stop any agent of the fleet.
      host.control = await startRunControl(
        {
          supervisor,
          child: host.main.child,
          env: req.env,
          cwd: req.cwd,
          store: prepared.loaded.config.storage.path,
          settingsFile: host.main.settingsFile,
          enforcement: host.main.enforcement,
          fleet: host,
          attach: host,
          ...(req.socketBaseDir ? { socketBaseDir: req.socketBaseDir } : {}),
        },
        host.startNotes,
      );
    } catch (err) {
      host.detach();
      await host.control?.close();
      await supervisor.close();
      throw err;
    }
    return host;
  }

  /** Resolves once every agent this host started has exited (the run is over). */
  get allExited(): Promise<void> {
    return this.done;
  }

  /** The first agent (`main`). */
  get main(): HostedAgent {
    return this.runs.get(FIRST_AGENT)!;
  }

  /** The notes of the first agent's plan (hook transport, plugin), for the launcher to print. */
  get notes(): string[] {
    return [...this.first.plan.notes, ...this.startNotes];
  }

  get plan(): PreparedLaunch['plan'] {
    return this.first.plan;
  }

  /** Every agent this host launched, in launch order (exited ones too). */
  list(): HostedAgent[] {
    return [...this.runs.values()];
  }

  get(name: string): HostedAgent | undefined {
    return this.runs.get(name);
  }

  /** Every agent as a screen lists it. */
  connected(): ScreenAgent[] {
    return this.list().map((a) => ({ name: a.name, cwd: a.cwd, branch: a.branch, running: a.code === null }));
  }

  /** An agent's newest pty output (bounded), for a screen that attaches now. */
  tail(name: string): string {
    return this.tails.get(name)?.text() ?? '';
  }

  /** Every agent's pty output as it comes. */
  onPty(fn: (agent: string, data: string) => void): () => void {
    this.ptyListeners.add(fn);
    return () => this.ptyListeners.delete(fn);
  }

  /** Keys for an agent's client, from a screen. */
  write(name: string, data: string): void {
    const run = this.runs.get(name);
    if (run && run.code === null) run.child.write(data);
  }

  /** Told when an agent starts or exits. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The main pane's size changed: every agent's pty follows (each is drawn in the same pane). */
  resize(cols: number, rows: number): void {
    this.size = { cols, rows };
    for (const r of this.runs.values()) if (r.code === null) r.child.resize(cols, rows);
  }

  /**
   * Start an agent roz's registry holds (`roz agent add`): in its worktree, with its recorded claude
   * arguments (else the first agent's), its recorded prompt as the client's first prompt, and the first
   * agent's command. An agent that exited may be started again (a new token).
   */
  async startAgent(name: string): Promise<{ ok: boolean; message: string }> {
    if (this.over) return { ok: false, message: 'this roz run is over: every agent has exited' };
    if (name === FIRST_AGENT) return { ok: false, message: `${FIRST_AGENT} is the agent roz run started; it cannot be started again` };
    const running = this.runs.get(name);
    if (running && running.code === null) return { ok: false, message: `${name} is already running` };
    let record;
    let owner: OwningAgent | null;
    let registryKey: string;
    try {
      const { agents, key } = listAgents(this.first.loaded.config.storage.path, this.req.cwd);
      const found = agents.find((a) => a.agent.name === name);
      if (!found) return { ok: false, message: `no agent ${name} in roz's registry here (roz agent add ${name})` };
      if (found.problem) return { ok: false, message: `${name}: ${found.problem}` };
      record = found.agent;
      registryKey = key;
      // Its place from its record: the launch does not look the registry up again.
      const roots = record.shared ? null : rootsOf(key, record);
      owner = roots ? { repo: key, agent: record, roots } : null;
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
    // Another client's agent (`roz agent add --agent codex`): its own client, found on PATH, with its recorded
    // arguments (never the first agent's, which are another client's) and its prompt; no resume (Claude Code's).
    const other = record.client && record.client !== 'claude' ? record.client : null;
    // A Gemini agent (never confined here: no sandbox) joins only a supervisor whose agents are not confined either
    // (requireEnforced below refuses it, with the reason, under one whose control socket answers `roz approve`).
    const command = other ? CLIENT_COMMANDS[other].binaries[0]! : this.req.command;
    const claude = !other && isClaudeCommand(command);
    const recorded = other ? (record.claude_args ?? []) : (record.claude_args ?? this.req.args);
    // An agent that already had a conversation in its worktree resumes it (the client's `--resume`): its
    // first prompt is never sent again into a fresh conversation, where it could repeat work already done.
    // Its newest session: as the registry recorded it (the supervisor that ran it), else as roz's store has it.
    const resume = claude ? (resumable(record.last_session) ? record.last_session : this.lastSession(record.worktree)) : null;
    // The prompt is the client's positional argument: after `--`, so an option taking several values (--allowedTools) cannot swallow it.
    const sep = (claude || other) && !recorded.includes('--') ? ['--'] : [];
    // Another client that already had a session in its worktree: roz does not resume it (`codex resume` is not a
    // governed launch yet), and its first prompt is not sent again into a fresh one either.
    const ranBefore = other !== null && (resumable(record.last_session) || this.lastSession(record.worktree) !== null);
    const prompt = record.prompt && !ranBefore ? firstPromptArgs(other ?? 'claude', record.prompt, sep) : [];
    const args = resume ? [...withoutResume(recorded), '--resume', resume] : [...recorded, ...prompt];
    const launch: LaunchRequest = {
      command,
      args,
      cwd: record.worktree,
      env: this.req.env,
      ...(this.req.pluginDir !== undefined ? { pluginDir: this.req.pluginDir } : {}),
      // Hooks over http only when the supervisor takes them: otherwise a process per hook, relayed on the socket.
      supervisor: { approvalTimeoutMs: this.req.approvalTimeoutMs, ...(this.supervisor.httpUrl ? {} : { hooks: 'command' as const }) },
      ...(this.supervisor.httpUrl ? {} : { hooks: 'command' as const }),
      pty: this.size,
    };
    let token: { env: Record<string, string> } | null = null;
    try {
      const prepared = prepareLaunch(launch, { loaded: this.first.loaded, clientVersion: this.first.clientVersion }, owner);
      token = this.supervisor.addAgent(name);
      await this.launch(name, launch, prepared, token.env, record.branch, registryKey);
      const fresh = ranBefore && record.prompt ? ' (a new conversation: it ran here before, so its first prompt is not sent again)' : '';
      return { ok: true, message: resume ? `resumed ${name} in ${record.worktree} (session ${resume})` : `started ${name} in ${record.worktree}${fresh}` };
    } catch (err) {
      if (token) this.supervisor.agentExited(name, null, null);
      return { ok: false, message: err instanceof RunError ? err.message : `could not start ${name}: ${(err as Error).message}` };
    }
  }

  /** The newest session roz's store recorded in this worktree (its client's session id), if any. */
  private lastSession(worktree: string): string | null {
    try {
      return lastSessionIn(new FileSessionStore(this.first.loaded.config.storage.path), realpathSync.native(worktree));
    } catch {
      return null; // no store or no worktree: a fresh conversation, as before
    }
  }

  private registered(name: string): boolean {
    try {
      return listAgents(this.first.loaded.config.storage.path, this.req.cwd).agents.some((a) => a.agent.name === name);
    } catch {
      return false;
    }
  }

  /** SIGTERM to the agent's client, SIGKILL after a grace period; resolves once it exited. */
  async stopAgent(name: string): Promise<{ ok: boolean; message: string }> {
    const run = this.runs.get(name);
    if (!run) return { ok: false, message: `no agent ${name} is running here` };
    if (run.code !== null) return { ok: true, message: run.stopping ? `${name} is already stopped` : `${name} had already exited (${run.code})` };
    run.stopping = true;
    this.kill(run, 'SIGTERM');
    // The last agent: the run (and the control socket that may have asked) ends with it, so answer now.
    if (this.list().every((r) => r === run || r.code !== null)) return { ok: true, message: `stopping ${name} (the run ends with it)` };
    await run.exited;
    return { ok: true, message: `stopped ${name} (its worktree, branch and session stay: roz agent start ${name} resumes it)` };
  }

  /** Stop every running agent; the run ends once they all exited (answered at once: the run and its control socket end). */
  async stopAll(): Promise<{ ok: boolean; message: string }> {
    const running = [...this.runs.values()].filter((r) => r.code === null);
    for (const r of running) {
      r.stopping = true;
      this.kill(r, 'SIGTERM');
    }
    return { ok: true, message: running.length ? `stopping ${running.map((r) => r.name).join(', ')} (the run ends with them)` : 'no agent was running' };
  }

  /**
   * `n`: a new agent, as `roz agent add NAME -- ARGS` makes it (its worktree and branch, in the registry,
   * the first agent's claude arguments), then started. A name roz's registry already holds (made with
   * `roz agent add` in another terminal, with its own prompt and arguments) is started as it was recorded.
   * `prompt`: the new agent's first prompt (recorded as `roz agent add --prompt` records it).
   */
  async addAgent(name: string, prompt?: string): Promise<{ ok: boolean; message: string }> {
    if (this.registered(name)) {
      const started = await this.startAgent(name);
      return prompt ? { ...started, message: `${started.message} (as it was recorded: the prompt typed was not used)` } : started;
    }
    const add = await this.rozJson<AddResult>([
      'agent',
      'add',
      name,
      '--no-start',
      '--json',
      ...(prompt ? ['--prompt', prompt] : []),
      ...(this.req.args.length ? ['--', ...this.req.args] : []),
    ]);
    if ('error' in add) return { ok: false, message: add.error };
    if (add.kind !== 'added') return { ok: false, message: add.reason };
    // `roz agent add` asks the running supervisor (this one, over its control socket) to start it: it may already run.
    const running = this.runs.get(name);
    const started = running && running.code === null ? { ok: true, message: `started ${name} in ${running.cwd}` } : await this.startAgent(name);
    return { ok: started.ok, message: `${started.message}${add.note ? ` (${add.note})` : ''}` };
  }

  /** `m`: the merge gate, exactly as `roz agent merge NAME` runs it: its value (merged, refused and why, ...). */
  async mergeAgent(name: string): Promise<MergeResult> {
    const r = await this.rozJson<MergeResult>(['agent', 'merge', name, '--json']);
    return 'error' in r ? { kind: 'failed', agent: name, message: r.error, exit: 1 } : r;
  }

  /**
   * `m` then `y` in the agents tab: the human, at this supervisor's keyboard (the window, or a screen
   * attached with the control record's secret), approved `head` of the agent's branch after its diff was
   * shown. Recorded here, in this trusted process (engine/fleet/human-review.ts: a few git reads, the
   * session's update, a ledger line; refused when the branch moved since), then the gate runs as `m` runs it.
   * Never a CLI flag: the agent runs roz's CLI too.
   */
  async humanMerge(name: string, head: string): Promise<{ ok: boolean; message: string }> {
    const storeDir = this.first.loaded.config.storage.path;
    const human = humanName();
    const rec = await recordHumanApproval({ storeDir, store: new FileSessionStore(storeDir, () => {}), cwd: this.req.cwd, human }, name, head, human);
    if (!rec.ok) return { ok: false, message: `not approved: ${rec.error}` };
    const r = mergeMessage(await this.mergeAgent(name));
    return { ok: r.ok, message: `approved by ${human}; ${r.message}` };
  }

  /**
   * One of roz's own commands, from the plugin this run launched with (code roz chose, outside every
   * project), in the base checkout, with the human's environment: nothing an agent wrote names it.
   * A process of its own, not a call in this one: the gate's git work (every object of the branch read
   * and hashed, merge-tree, read-tree of the checkout) is synchronous and takes seconds on a large
   * repository, and this process serves every agent's hooks (a relayed hook waits 500 ms for its first
   * reply) and pty. The command prints the same value its engine function returns, as JSON (`--json`).
   */
  rozCli(args: string[]): Promise<RozCliResult> {
    const bin = join(this.first.pluginDir, 'bin', 'roz');
    return new Promise((resolve) => {
      const env = { ...this.req.env, NO_COLOR: '1' };
      const p = spawn(process.execPath, [bin, ...args], { cwd: this.req.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
      p.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
      p.on('error', (err) => resolve({ code: 127, stdout, stderr: `could not run roz: ${err.message}` }));
      p.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    });
  }

  /** `rozCli` of a `--json` command: its value (an object with a `kind`), or why there is none. */
  private async rozJson<T extends { kind: string }>(args: string[]): Promise<T | { error: string }> {
    const r = await this.rozCli(args);
    try {
      const v = JSON.parse(r.stdout) as unknown;
      if (v && typeof v === 'object' && typeof (v as { kind?: unknown }).kind === 'string') return v as T;
    } catch {
      /* below */
    }
    return { error: (r.stderr.replace(/^roz: /, '') || r.stdout).trim() || `roz ${args.slice(0, 2).join(' ')} exited ${r.code} and printed no value` };
  }

  private async launch(
    name: string,
    req: LaunchRequest,
    prepared: PreparedLaunch,
    reach: Record<string, string>,
    branch: string | null,
    registryKey: string | null = null,
  ): Promise<void> {
    const { child, settings, clientEnforcement, objects, client } = await launchAgent(req, prepared, {
      agent: name,
      server: this.supervisor,
      // ROZ_AGENT is for the agent's own information only: the supervisor knows who sent a hook by its token.
      reach: { ...reach, ROZ_AGENT: name },
      // Once the control socket answers `roz approve` (its agents confined), another client joins only confined too.
      requireEnforced: this.control?.enforcement.mode === 'enforced',
    });
    // Its enforcement from the launch's own facts (the settings file written for it, or the sandbox its client's
    // launcher configured), as the control socket decides it.
    const enforcement = clientEnforcement ?? launchEnforcement(this.req.env, req.cwd, this.first.loaded.config.storage.path, settings?.file ?? null);
    const run: HostedRun = {
      name,
      cwd: req.cwd,
      branch,
      child,
      notes: prepared.plan.notes,
      settingsFile: settings?.file ?? null,
      settings,
      objects,
      enforcement,
      code: null,
      killTimer: null,
      stopping: false,
      interrupted: false,
      exited: child.exited,
      registryKey,
    };
    this.runs.set(name, run);
    // Running, under this supervisor: if it dies without saying (SIGKILL, a reboot) the mark stays behind.
    if (registryKey)
      this.mark(registryKey, name, (a) => {
        a.running = { supervisor_pid: process.pid, since: new Date().toISOString(), session: null };
      });
    const tail = this.tails.get(name) ?? new PtyTail(PTY_REPLAY_CHARS);
    this.tails.set(name, tail);
    child.onData((d) => {
      tail.push(d);
      for (const l of this.ptyListeners) l(name, d);
    });
    this.supervisor.agentLaunched(name, {
      enforcement: enforcement.mode,
      where: agentWhere(branch, name === FIRST_AGENT),
      client,
    });
    void child.exited.then(
      (code) => this.ended(run, code),
      () => this.ended(run, 1),
    );
    this.changed();
  }

  private ended(run: HostedRun, code: number): void {
    // Stopped by the human (`roz agent stop`, `stop --all`): a clean end, exit 0, not the signal's 143.
    run.code = run.stopping ? 0 : code;
    // It ended (or was stopped): no longer running. Ended by a signal to the whole run: left marked, offered next time.
    if (run.registryKey && !run.interrupted)
      this.mark(run.registryKey, run.name, (a) => {
        delete a.running;
      });
    if (run.killTimer) clearTimeout(run.killTimer);
    // What it left staged is taken in now, from the place its launch prepared (launch/exit-intake.ts).
    const storeRoot = this.first.loaded.config.storage.path;
    this.supervisor.agentObjectWarnings(
      run.name,
      takeObjectsAtExit({
        place: run.objects,
        storeRoot,
        store: this.supervisor.store,
        sessionId: this.supervisor.agentSessionId(run.name),
        cwd: run.cwd,
      }),
    );
    run.settings?.dispose();
    const signal = run.child.exitSignal;
    this.supervisor.agentExited(run.name, signal ? null : code, signal, run.stopping);
    this.changed();
    if ([...this.runs.values()].every((r) => r.code !== null)) {
      this.over = true;
      this.allDone();
    }
  }

  private kill(run: HostedRun, sig: NodeJS.Signals): void {
    run.child.kill(sig);
    run.killTimer ??= setTimeout(() => run.child.kill('SIGKILL'), KILL_GRACE_MS);
  }

  private forward(sig: NodeJS.Signals): void {
    for (const r of this.runs.values())
      if (r.code === null) {
        if (!r.stopping) r.interrupted = true;
        this.kill(r, sig);
      }
  }

  /**
   * Change one recorded agent's entry in the registry, after the changes before it. An agent removed
   * meanwhile is left alone. A failure only costs the offer to resume it later: the run goes on.
   */
  private mark(registryKey: string, name: string, change: (a: AgentRecord) => void): void {
    const store = this.first.loaded.config.storage.path;
    this.marks = this.marks
      .then(() =>
        updateRegistry(store, registryKey, (reg) => {
          const a = reg.agents[name];
          if (a) change(a);
        }),
      )
      .catch(() => {});
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  private detach(): void {
    this.unsubscribe();
    for (const [sig, h] of this.handlers) process.off(sig, h);
  }

  /** Wait for every agent to exit, then stop the supervisor. Idempotent. */
  finish(): Promise<FleetResult> {
    this.closed ??= (async () => {
      try {
        await this.done;
      } finally {
        this.detach();
        // Screens attached to this run hear how it ended (main's code, every session's stats) before the socket goes.
        await this.control?.end({
          code: this.main.code ?? 1,
          stats: this.supervisor.seenSessions(true).map((s) => this.supervisor.stats(s)),
        });
        await this.control?.close();
        for (const r of this.runs.values()) {
          if (r.killTimer) clearTimeout(r.killTimer);
          r.settings?.dispose();
        }
        await this.control?.close();
        await this.marks;
        await this.supervisor.close();
      }
      return { code: this.main.code ?? 1, sessions: this.supervisor.seenSessions(true), supervisor: this.supervisor, settingsFile: this.main.settingsFile };
    })();
    return this.closed;
  }
}

/** The recorded arguments without an earlier `--resume ID` / `--continue` (the resumed session is chosen here). */
function withoutResume(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (a === '--resume' || a === '-r') {
      i++;
      continue;
    }
    if (a.startsWith('--resume=') || a === '--continue' || a === '-c') continue;
    out.push(a);
  }
  return out;
}
