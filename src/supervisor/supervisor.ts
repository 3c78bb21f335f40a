// The supervisor's brain, without any screen: hook intake, the approval
// broker, the live event ring, config and telemetry, and the agent's view
// the status line shows. The TUI subscribes to it; nothing here knows about
// terminals.
import { mkdirSync } from 'node:fs';
import { appendRegularFile } from '../store/regular-file.js';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { widenScope, widenTarget } from './widen-scope.js';
import { loadOnDemand } from '../core/on-demand.js';
import type { SessionState } from '../core/session-state.js';
import { FileSessionStore } from '../store/file-store.js';
import type { SessionStore } from '../store/session-store.js';
import { ApprovalBroker, type HumanAnswer } from './approval-broker.js';
import { PROTOCOL_VERSION, type HookFrame } from './hooks/channel-protocol.js';
import type { HookConnection } from './hooks/channel-server.js';
import { HookIntake } from './hooks/hook-intake.js';
import { noticeEvent, toLiveEvent, type LiveEvent } from './live-event.js';
import type { AgentLaunchFacts } from '../core/fleet/agent.js';
import type { AgentOverview, FleetView, SupervisorSnapshot } from './view.js';
import type { FileWatch } from './file-watch.js';
import { RingBuffer } from './ring-buffer.js';
import { sessionStats, type SessionStats } from './session-stats.js';
import { AgentSession } from './agent-session.js';
import { ConfigWatch, type LoadedConfig } from './config-watch.js';
import { TelemetrySender } from './telemetry-sender.js';
import { FIRST_AGENT } from '../core/fleet/agent-name.js';
import { type AgentLive, initialAgent, nextAgent, type AgentEvent } from '../core/fleet/agent-state.js';
import { agentEventOf } from '../core/fleet/hook-event.js';
import { answersClientDialog } from '../core/client-dialog.js';
import { fleetQueue, type QueuedRequest } from '../core/fleet/queue.js';
import { NotifyCommand } from './notify-command.js';

export const DEFAULT_RING_CAPACITY = 5_000;
/** Listeners hear about changes at most this often, however fast events arrive. */
const NOTIFY_EVERY_MS = 50;

export interface SupervisorOptions {
  env: Record<string, string | undefined>;
  approvalTimeoutMs: number;
  /** Where the run started: finds the project's .roz/config.toml (watched like the user's). */
  cwd?: string;
  ringCapacity?: number;
  /** Parent directory of the private socket directory (tests). */
  socketBaseDir?: string;
  store?: SessionStore;
  /** Where refused frames are logged; default <store>/supervisor.log. */
  log?: (line: string) => void;
  /** Also take hook events as the client's http hooks on loopback TCP, and run the engine here (src/supervisor/hooks/http-hooks.ts). */
  httpHooks?: boolean;
  /** Told how long each http hook took roz, request in to answer out (bench and tests). */
  onHttpHook?: (event: string, ms: number) => void;
  /** The run's config as its launcher loaded it (core/launch-plan.ts); loaded here when absent, reloaded on change. */
  config?: LoadedConfig;
}

/** One agent as the supervisor tracks it: its view of sessions and its live state (core/fleet/agent.ts names each layer's agent). */
interface SupervisedAgent {
  session: AgentSession;
  live: AgentLive;
  /** The review facts last seen in the store (decision time, breaker trips): a change is a state event. */
  seenDecision: string | null;
  /** The last re-arm of its review gate already told (review.rearmed.at). */
  seenRearm: string | null;
  seenTrips: number;
  /** What its launch decided (agentLaunched): its enforcement and where it runs; null until then. */
  launch: AgentLaunchFacts | null;
}

export class Supervisor {
  readonly events: RingBuffer<LiveEvent>;
  readonly broker: ApprovalBroker;
  readonly store: SessionStore;
  private intake!: HookIntake;
  private readonly listeners = new Set<() => void>();
  private readonly sessionListeners = new Set<(agent: string, sessionId: string) => void>();
  /** The first agent's view (the one `roz run` starts); the snapshot shows it. */
  private readonly agent: AgentSession;
  /** Every agent by name, in the order they were added; keyed by the name its token maps to. */
  private readonly fleet = new Map<string, SupervisedAgent>();
  private readonly config: ConfigWatch;
  private readonly telemetry: TelemetrySender;
  private seq = 0;
  private notifyTimer: NodeJS.Timeout | null = null;
  private readonly log: (line: string) => void;
  /** `[notify] command`, run for each new request (off the request path). */
  private readonly notifier: NotifyCommand;

  private constructor(private readonly opts: SupervisorOptions) {
    this.events = new RingBuffer<LiveEvent>(opts.ringCapacity ?? DEFAULT_RING_CAPACITY);
    this.config = new ConfigWatch(
      opts.env,
      opts.cwd,
      {
        reloaded: (file, problems) => this.pushNotice('roz:ConfigReloaded', `${file}${problems.length ? `: ${problems.join('; ')}` : ''}`),
        changed: (file) => {
          this.agent.intentsChanged(file);
          this.pushNotice('roz:IntentsReloaded', file);
        },
      },
      opts.config,
    );
    const config = this.config.current.config;
    const root = config.storage.path;
    this.log = opts.log ?? supervisorLog(root);
    this.telemetry = new TelemetrySender(config.telemetry, opts.env, root, this.log);
    this.store = opts.store ?? new FileSessionStore(root, () => {}, { telemetry: this.telemetry.on });
    this.telemetry.start(this.store);
    this.agent = new AgentSession(
      this.store,
      (file) => this.config.watch(file),
      () => this.changed(),
    );
    this.fleet.set(FIRST_AGENT, { session: this.agent, live: initialAgent(), seenDecision: null, seenRearm: null, seenTrips: 0, launch: null });
    this.notifier = new NotifyCommand({
      env: opts.env,
      cwd: opts.cwd ?? process.cwd(),
      // Read at each request: a reload of the user's file applies; its source says whether the user's file set it.
      settings: () => {
        const { config, sources } = this.config.current;
        return { command: config.notify.command, timeoutMs: config.notify.timeout_seconds * 1000, source: sources['notify.command'] ?? 'default' };
      },
      log: (line) => this.log(line),
      notice: (summary) => this.pushNotice('roz:NotifyFailed', summary),
    });
    this.broker = new ApprovalBroker({
      timeoutMs: opts.approvalTimeoutMs,
      record: (sid, rec) => {
        try {
          if (sid) this.store.appendTrace(sid, [rec]);
        } catch (err) {
          this.log(`could not record a human decision: ${(err as Error).message}`);
        }
        this.pushNotice(
          'roz:HumanDecision',
          `${String(rec.decision)} ${String(rec.tool_name)} by ${String(rec.decided_by)} after ${String(rec.wait_ms)} ms`,
          sid,
          rec,
        );
      },
      onChange: () => {
        this.syncAnswered();
        this.changed();
      },
      widen: (a) => {
        // The project as the hook saw it: the same lookup the hooks use (cwd, git top, CLAUDE_PROJECT_DIR);
        // for an agent in its worktree, the base checkout's intents file (widen-scope.ts widenTarget).
        const target = a.cwd ? widenTarget(a.cwd, this.store.root, opts.env.CLAUDE_PROJECT_DIR) : null;
        if (!target || !a.widen) return { ok: false, error: 'no governed project for this request' };
        const human = opts.env.USER || opts.env.LOGNAME || userInfo().username;
        const out = widenScope({ ...target, intentId: a.widen.intent_id, globs: a.widen.globs, sessionId: a.session_id, human, now: new Date() });
        this.pushNotice(
          'roz:ScopeWidened',
          out.ok ? `${human} added ${out.added.join(', ') || '(nothing new)'} to ${a.widen.intent_id}` : `could not widen: ${out.error}`,
          a.session_id,
        );
        return out;
      },
    });
  }

  static async start(opts: SupervisorOptions): Promise<Supervisor> {
    // `g` (widen a scope) appends a ledger record, which is checked with the trace schema.
    await loadOnDemand('trace-schema');
    const sup = new Supervisor(opts);
    sup.intake = await HookIntake.start({
      socketBaseDir: opts.socketBaseDir,
      http: opts.httpHooks === true,
      approvalTimeoutMs: opts.approvalTimeoutMs,
      onFrame: (frame, conn, agent) => sup.onFrame(frame, conn, agent),
      onRefused: (logLine, summary) => {
        sup.log(logLine);
        sup.pushNotice('roz:ChannelRefused', summary);
      },
      onHttpHook: opts.onHttpHook,
    });
    if (opts.httpHooks) sup.intake.addHookEnv({ ...opts.env, ...sup.childEnv(), ROZ_HOOK_TRANSPORT: 'http' });
    return sup;
  }

  /** `http://127.0.0.1:PORT` when this supervisor takes http hooks. */
  get httpUrl(): string | null {
    return this.intake.httpUrl;
  }

  /**
   * More of the child's environment for in-process hooks (the settings file the launch wrote, the plugin root,
   * the project). With `agent`: only for the hooks that agent's token authenticates (its worktree, its settings).
   */
  addHookEnv(extra: Record<string, string>, agent?: string): void {
    this.intake.addHookEnv(extra, agent);
  }

  /** The file watcher, for tests: resolves once it watches what it was given. */
  get fileWatch(): FileWatch {
    return this.config.files;
  }

  /** Variables the child (and through it every hook) needs to reach us. */
  childEnv(): Record<string, string> {
    // The hook's own deadline for a PreToolUse follows the approval timeout (src/cli/hook-entry.ts).
    return {
      ...this.intake.env(),
      ROZ_SUPERVISED: '1',
      // Which process serves this client: its sessions show as exited once it is gone (roz agent ls).
      ROZ_SUPERVISOR_PID: String(process.pid),
      ROZ_APPROVAL_TIMEOUT_MS: String(this.opts.approvalTimeoutMs),
      // The client strips OTEL_* from its hooks' environment: tell them to spool; we send with our own settings.
      ...(this.telemetry.on ? { ROZ_TELEMETRY: 'on' } : {}),
    };
  }

  get socketPath(): string {
    return this.intake.socketPath;
  }

  get socketDir(): string {
    return this.intake.socketDir;
  }

  get token(): string {
    return this.intake.token;
  }

  /**
   * Add an agent to the fleet: its own token (for its launch only: its hooks'
   * env or http header) and the environment its client needs. Frames carrying
   * that token are this agent's, whatever session, cwd or name they contain.
   */
  addAgent(name: string): { token: string; env: Record<string, string> } {
    // An agent that exited may be started again: a new token, a fresh state (the old token stays revoked).
    const was = this.fleet.get(name);
    if (was && !was.live.exit) throw new Error(`agent ${name} already exists`);
    if (was) this.fleet.delete(name);
    const token = this.intake.addAgent(name);
    const session = new AgentSession(
      this.store,
      (file) => this.config.watch(file),
      () => this.changed(),
    );
    this.fleet.set(name, { session, live: initialAgent(), seenDecision: null, seenRearm: null, seenTrips: 0, launch: null });
    this.changed();
    return { token, env: { ...this.childEnv(), ROZ_TOKEN: token } };
  }

  /** The agent's child exited: it stays exited, its token is refused from now on. */
  agentExited(name: string, code: number | null, signal: string | null, stopped = false): void {
    this.applyAgent(name, { kind: 'exit', code, signal, ...(stopped ? { stopped: true } : {}) });
    if (name !== FIRST_AGENT) this.intake.removeAgent(name);
    this.changed();
  }

  /**
   * What roz said of the git objects an agent left staged when its client ended (launch/exit-intake.ts):
   * a refused forgery is the human's to read, in the log and the events, beside that agent's session.
   */
  agentObjectWarnings(name: string, warnings: readonly string[]): void {
    const sid = this.fleet.get(name)?.session.sessionId ?? '';
    for (const w of warnings) {
      this.log(`${name}: ${w}`);
      this.pushNotice('roz:ObjectIntake', `${name}: ${w}`, sid);
    }
  }

  /** The session an agent's client named last (null before its first hook). */
  agentSessionId(name: string): string | null {
    return this.fleet.get(name)?.session.sessionId ?? null;
  }

  /**
   * The agent's launch is decided (its settings written, its child started): its enforcement and where it
   * runs become part of what every client sees. An advisory agent can write the user's config, which names
   * the `[notify] command` this supervisor runs: said once, as an event and in the log (docs/fleet.md).
   */
  agentLaunched(name: string, info: AgentLaunchFacts): void {
    const a = this.fleet.get(name);
    if (!a) return;
    a.launch = { ...info };
    if (info.enforcement === 'advisory' && this.config.current.config.notify.command.length > 0) {
      const why = `${name} is advisory (not confined by the sandbox): it can write ${this.config.current.path}, which names the [notify] command roz runs`;
      this.log(why);
      this.pushNotice('roz:NotifyAdvisory', why);
    }
    this.changed();
  }

  /** Every agent's name, live state and launch facts, in the order they were added. */
  agents(): AgentOverview[] {
    return [...this.fleet].map(([name, a]) => ({
      name,
      live: a.live,
      sessionId: a.session.sessionId,
      enforcement: a.launch?.enforcement ?? null,
      where: a.launch?.where ?? null,
    }));
  }

  /** The one queue across agents, oldest first, each request naming its agent. */
  queue(): QueuedRequest[] {
    const pending = this.broker.pending();
    return fleetQueue(
      [...this.fleet.keys()].map((agent) => ({
        agent,
        requests: pending.filter((p) => p.agent_name === agent).map((p) => ({ id: p.id, tool: p.tool_name, summary: p.human || p.code, since: p.received_at })),
      })),
    );
  }

  private applyAgent(name: string, ev: AgentEvent): void {
    const a = this.fleet.get(name);
    if (a) a.live = nextAgent(a.live, ev);
  }

  /** A request left the broker (human, rule, timeout, abandoned): its agent is told. */
  private syncAnswered(): void {
    const waiting = new Set(this.broker.pending().map((p) => p.id));
    const blocked = (id: string): boolean => this.broker.history().some((d) => d.approval.id === id && d.decided_by === 'human' && d.decision === 'deny');
    for (const [name, a] of this.fleet)
      for (const p of a.live.pending) if (!waiting.has(p.id)) this.applyAgent(name, { kind: 'answered', id: p.id, blocked: blocked(p.id) });
  }

  private onFrame(frame: HookFrame, conn: HookConnection, agent: string = FIRST_AGENT): void {
    const ev = toLiveEvent(frame, ++this.seq, Date.now());
    ev.agent = agent;
    this.events.push(ev);
    const member = this.fleet.get(agent);
    if (!member) {
      // A token was issued but its agent is gone: nothing to attribute it to.
      conn.reply({ v: PROTOCOL_VERSION, id: frame.id, type: 'error', code: 'BAD_TOKEN', message: 'unknown agent' });
      return;
    }
    if (ev.session_id && member.session.sessionId !== ev.session_id) {
      member.session.saw(ev.session_id);
      for (const l of this.sessionListeners) l(agent, ev.session_id);
    }
    // A tool ran, the turn ended, the client idles: a client dialog of this agent still queued was answered in its pane.
    if (answersClientDialog(frame.event, frame.input)) {
      const aid = typeof frame.input.agent_id === 'string' ? frame.input.agent_id : undefined;
      this.broker.withdrawClientDialogs(agent, typeof frame.input.session_id === 'string' ? frame.input.session_id : '', aid);
    }
    const state = agentEventOf(frame.event, frame.input, frame.verdict);
    if (state) this.applyAgent(agent, state);
    if (frame.event === 'Stop' || frame.event === 'SubagentStop') this.reviewFacts(agent, member);
    if (frame.verdict.kind === 'ask') {
      const queued = this.broker.request(frame, conn, agent);
      if (queued) {
        this.applyAgent(agent, { kind: 'ask', id: queued.id, summary: queued.human || queued.code, at: queued.received_at });
        this.notifier.request({ id: queued.id, agent, tool: queued.tool_name, summary: queued.human || queued.code });
      }
    } else conn.reply({ v: PROTOCOL_VERSION, id: frame.id, type: 'ack' });
    this.changed();
  }

  /**
   * The reviewer's decision and a tripped breaker are recorded in the store by the hooks (`roz decide`, the
   * Stop hook); after the events that end a reviewer run or a turn, the agent's session is read again and a
   * new decision or trip becomes its state event. Read from roz's store, never from the frame.
   */
  private reviewFacts(name: string, member: SupervisedAgent): void {
    const sid = member.session.sessionId;
    if (!sid) return;
    let state: SessionState | null;
    try {
      state = this.store.read(sid);
    } catch {
      return;
    }
    if (!state) return;
    const d = state.review.decision;
    if (d?.valid && d.decided_at !== member.seenDecision) {
      member.seenDecision = d.decided_at;
      this.applyAgent(name, { kind: 'decision', outcome: d.kind === 'complete' ? 'COMPLETE' : 'ISSUES' });
    }
    // Files changed after an approval re-armed the gate: the old outcome no longer describes the work.
    const rearmed = state.review.rearmed?.at ?? null;
    if (rearmed && rearmed !== member.seenRearm) {
      member.seenRearm = rearmed;
      this.applyAgent(name, { kind: 'review-armed' });
    }
    const trips = state.review.breaker.trips.length;
    if (trips > member.seenTrips) {
      member.seenTrips = trips;
      this.applyAgent(name, { kind: 'stop', verdict: 'allow', tripped: true });
    }
  }

  private pushNotice(event: string, summary: string, sid = '', input: unknown = null): void {
    this.events.push(noticeEvent(++this.seq, Date.now(), event, summary, sid, input));
    this.changed();
  }

  /** The human's answer, from the TUI keyboard only. */
  answer(id: string, answer: HumanAnswer): boolean {
    return this.broker.answer(id, answer);
  }

  /** The human selects (or, with null, clears) the current session's intent (AgentSession.selectIntent); of `agent` when given. */
  selectIntent(intentId: string | null, agent?: string): Promise<{ ok: boolean; message: string }> {
    const session = agent ? this.fleet.get(agent)?.session : this.agent;
    if (!session) return Promise.resolve({ ok: false, message: `no agent ${agent}` });
    return session.selectIntent(intentId);
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Told when an agent's client names a session that is not its current one (its first, a resumed one, after /clear). */
  onAgentSession(fn: (agent: string, sessionId: string) => void): () => void {
    this.sessionListeners.add(fn);
    return () => this.sessionListeners.delete(fn);
  }

  private changed(): void {
    if (this.notifyTimer) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      this.listeners.forEach((l) => l());
    }, NOTIFY_EVERY_MS);
  }

  get sessionId(): string | null {
    return this.agent.sessionId;
  }

  /** Every session this run has seen, oldest first (a /clear starts a new one); `all`: every agent's, agent by agent. */
  seenSessions(all = false): string[] {
    return all ? [...this.fleet.values()].flatMap((a) => a.session.seenSessions()) : this.agent.seenSessions();
  }

  /**
   * What the screen shows. Without `agent`: the first agent's view and every pending request. With `agent`:
   * that agent's view and only its requests (the others wait in the queue: `fleet` says how many, whose).
   */
  snapshot(agent?: string): SupervisorSnapshot {
    const config = this.config.current;
    const session = agent === undefined ? this.agent : this.fleet.get(agent)?.session;
    const all = this.broker.pending();
    const client = this.fleet.get(agent ?? FIRST_AGENT)?.launch?.client;
    const fleet: FleetView | undefined =
      agent !== undefined
        ? (() => {
            const others = this.queue().filter((q) => q.agent !== agent);
            return { agent, agents: this.fleet.size, waitingElsewhere: others.length, elsewhere: [...new Set(others.map((q) => q.agent))] };
          })()
        : undefined;
    return {
      ...(session?.view() ?? { sessionId: null, sessions: [], state: null, intents: null }),
      pending: agent !== undefined ? all.filter((p) => p.agent_name === agent) : all,
      ...(fleet ? { fleet } : {}),
      ...(client ? { client } : {}),
      config: { path: config.path, problems: config.problems },
      decided: this.broker.history(),
      lastEvent: this.events.last() ?? null,
      totalEvents: this.events.total,
      refused: this.intake.refused,
    };
  }

  /** Stats of one session from the store (state + trace); null when unknown. */
  stats(sessionId: string): SessionStats | null {
    try {
      const state = this.store.read(sessionId);
      if (!state) return null;
      const stats = sessionStats(state, this.store.readTrace(sessionId));
      // Which agent had it (the end-of-run stats name each one).
      for (const [name, member] of this.fleet) if (member.session.seenSessions().includes(sessionId)) stats.agent = name;
      return stats;
    } catch {
      return null;
    }
  }

  /** Send the telemetry spool now (export on); resolves when the collector answered or gave up. */
  flushTelemetry(): Promise<void> {
    return this.telemetry.flush();
  }

  async close(): Promise<void> {
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    this.notifier.close();
    this.telemetry.stop();
    this.broker.dispose();
    await this.intake.close();
    await this.config.close();
    // A last send of what the session's end produced: a dead collector must not hold up the exit.
    await this.telemetry.finalFlush();
  }
}

/** <store>/supervisor.log, created private; logging must never take the supervisor down. */
function supervisorLog(root: string): (line: string) => void {
  return (line) => {
    try {
      mkdirSync(root, { recursive: true, mode: 0o700 });
      appendRegularFile(root, join(root, 'supervisor.log'), `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
    } catch {
      /* logging must never take the supervisor down */
    }
  };
}
