// The supervisor's brain, without any screen: the channel, the approval
// broker, the live event ring and the session state the status line shows.
// The TUI subscribes to it; nothing here knows about terminals.
import { appendFileSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { findProjectRoot } from '../store/project-root.js';
import { widenScope } from './widen-scope.js';
import { loadOnDemand } from '../core/on-demand.js';
import type { SessionState } from '../core/review/state.js';
import { telemetryOn } from '../core/telemetry.js';
import { telemetrySettings } from '../core/telemetry-settings.js';
import { loadConfig } from '../engine/config-loader.js';
import { FileSessionStore } from '../store/file-store.js';
import type { SessionStore } from '../store/session-store.js';
import { ApprovalBroker, type DecidedApproval, type HumanAnswer, type PendingApproval } from './approval-broker.js';
import { PROTOCOL_VERSION, type HookFrame } from './channel-protocol.js';
import { ChannelServer, type HookConnection } from './channel-server.js';
import { answerVerdict, frameInput } from './channel-client.js';
import { renderOutput } from '../engine/output.js';
import { HttpHookServer } from './http-hook-server.js';
import type { HookEventName } from '../core/hook-input.js';
import { noticeEvent, toLiveEvent, type LiveEvent } from './live-event.js';
import { FileWatch } from './file-watch.js';
import { RingBuffer } from './ring-buffer.js';
import { sessionStats, type SessionStats } from './session-stats.js';
import { ProjectIntentsReader, type ProjectIntents } from './project-intents.js';
import { peekGovernance } from '../core/governance/state.js';

export const DEFAULT_RING_CAPACITY = 5_000;
/** Listeners hear about changes at most this often, however fast events arrive. */
const NOTIFY_EVERY_MS = 50;
const STATE_REFRESH_MS = 250;
/** With telemetry export on, the spool hooks write is sent this often (and once more at close). */
export const TELEMETRY_FLUSH_MS = 5_000;

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
  /** Also take hook events as the client's http hooks on loopback TCP, and run the engine here (src/supervisor/http-hooks.ts). */
  httpHooks?: boolean;
  /** Told how long each http hook took roz, request in to answer out (bench and tests). */
  onHttpHook?: (event: string, ms: number) => void;
  /** The run's config as its launcher loaded it (core/launch-plan.ts); loaded here when absent, reloaded on change. */
  config?: ReturnType<typeof loadConfig>;
}

export interface SupervisorSnapshot {
  sessionId: string | null;
  sessions: string[];
  state: SessionState | null;
  /** The governed project's intents, when intent governance is on. */
  intents: ProjectIntents | null;
  pending: PendingApproval[];
  /** Where roz's config comes from and what is wrong with it, as last loaded (reloaded on change). */
  config: { path: string; problems: string[] };
  /** Requests already decided (by whom, when, after how long, why), oldest first. */
  decided: DecidedApproval[];
  lastEvent: LiveEvent | null;
  totalEvents: number;
  refused: number;
}

export class Supervisor {
  readonly events: RingBuffer<LiveEvent>;
  readonly broker: ApprovalBroker;
  readonly store: SessionStore;
  private channel!: ChannelServer;
  private http: HttpHookServer | null = null;
  /** What the engine sees for an http hook: the child's environment as far as roz knows it. */
  private hookEnv: Record<string, string | undefined> = {};
  private httpSeq = 0;
  private readonly listeners = new Set<() => void>();
  private readonly sessions: string[] = [];
  private state: SessionState | null = null;
  private intents: ProjectIntents | null = null;
  private readonly intentsReader: ProjectIntentsReader;
  private readonly files: FileWatch;
  private config: ReturnType<typeof loadConfig>;
  private stateReadAt = 0;
  private refused = 0;
  private seq = 0;
  private notifyTimer: NodeJS.Timeout | null = null;
  private readonly log: (line: string) => void;
  private telemetryTimer: NodeJS.Timeout | null = null;
  private telemetry = false;
  private flushing: Promise<void> | null = null;

  private constructor(private readonly opts: SupervisorOptions) {
    this.events = new RingBuffer<LiveEvent>(opts.ringCapacity ?? DEFAULT_RING_CAPACITY);
    this.config = opts.config ?? loadConfig(opts.env, { cwd: opts.cwd });
    const config = this.config.config;
    const root = config.storage.path;
    // Intents and config are reloaded when they change on disk (file events; polling only without them).
    this.files = new FileWatch((file) => this.fileChanged(file));
    this.intentsReader = new ProjectIntentsReader((file) => this.files.add(file));
    for (const f of this.config.files) this.files.add(f.path);
    const telemetry = telemetryOn(config.telemetry, opts.env);
    this.telemetry = telemetry;
    this.store = opts.store ?? new FileSessionStore(root, () => {}, { telemetry });
    if (telemetry) {
      // Hooks under a supervisor only spool; the supervisor batches the sending, off the hook path.
      const { settings, problem } = telemetrySettings(config.telemetry, opts.env);
      if (problem) queueMicrotask(() => this.log(`telemetry: ${problem}`));
      if (settings) {
        const flush = (): Promise<void> =>
          (this.flushing ??= import('../engine/otlp-export.js')
            .then(({ flushTelemetryLocked }) => flushTelemetryLocked(root, settings, this.store))
            .then((r) => void (r?.failed && this.log(`telemetry: the collector did not take ${r.records} records: ${r.errors.join('; ')}`)))
            .catch((err: Error) => this.log(`telemetry: ${err.message}`))
            .finally(() => (this.flushing = null)));
        this.flushTelemetry = flush;
        this.telemetryTimer = setInterval(() => void flush(), TELEMETRY_FLUSH_MS);
        this.telemetryTimer.unref();
      }
    }
    this.log =
      opts.log ??
      ((line) => {
        try {
          mkdirSync(root, { recursive: true, mode: 0o700 });
          appendFileSync(join(root, 'supervisor.log'), `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
        } catch {
          /* logging must never take the supervisor down */
        }
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
      onChange: () => this.changed(),
      widen: (a) => {
        // The project as the hook saw it: the same lookup the hooks use (cwd, git top, CLAUDE_PROJECT_DIR).
        const root = a.cwd ? findProjectRoot(a.cwd, { projectDir: opts.env.CLAUDE_PROJECT_DIR }) : null;
        if (!root || !a.widen) return { ok: false, error: 'no governed project for this request' };
        const human = opts.env.USER || opts.env.LOGNAME || userInfo().username;
        const out = widenScope({ root, intentId: a.widen.intent_id, globs: a.widen.globs, sessionId: a.session_id, human, now: new Date() });
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
    sup.channel = await ChannelServer.start({
      baseDir: opts.socketBaseDir,
      onFrame: (frame, conn) => sup.onFrame(frame, conn),
      onRefused: (code, message) => {
        sup.refused += 1;
        sup.log(`refused a frame: ${code}: ${message}`);
        sup.pushNotice('roz:ChannelRefused', `${code}: ${message}`);
      },
    });
    if (opts.httpHooks) {
      sup.http = await HttpHookServer.start({
        token: sup.channel.token,
        handle: (event, raw, aborted) => sup.onHttpHook(event, raw, aborted),
        onRefused: (code, message) => {
          sup.refused += 1;
          sup.log(`refused an http hook: ${code}: ${message}`);
          sup.pushNotice('roz:ChannelRefused', `http ${code}: ${message}`);
        },
      });
      sup.hookEnv = { ...opts.env, ...sup.childEnv(), ROZ_HOOK_TRANSPORT: 'http' };
    }
    return sup;
  }

  /** `http://127.0.0.1:PORT` when this supervisor takes http hooks. */
  get httpUrl(): string | null {
    return this.http?.url ?? null;
  }

  /** More of the child's environment for in-process hooks (the settings file RunService wrote, the plugin root). */
  addHookEnv(extra: Record<string, string>): void {
    Object.assign(this.hookEnv, extra);
  }

  /**
   * One http hook: the engine runs here, in-process, exactly as the hook
   * process would run it; then the event goes through the same path as a
   * relayed frame (live view, human gate for an ask). The response body is
   * what the hook process would have printed.
   */
  private async onHttpHook(event: HookEventName, raw: string, aborted: AbortSignal): Promise<string> {
    const t0 = performance.now();
    const body = await this.judgeHttpHook(event, raw, aborted);
    this.opts.onHttpHook?.(event, performance.now() - t0);
    return body;
  }

  private async judgeHttpHook(event: HookEventName, raw: string, aborted: AbortSignal): Promise<string> {
    const { runHook } = await import('../engine/engine.js');
    const run = await runHook(event, raw, { env: this.hookEnv });
    const frame: HookFrame = {
      v: PROTOCOL_VERSION,
      id: `http-${++this.httpSeq}`,
      token: 'http',
      event,
      input: frameInput(raw),
      verdict: run.verdict as HookFrame['verdict'],
      deadline: Date.now() + this.opts.approvalTimeoutMs + 5_000,
    };
    return new Promise<string>((resolve) => {
      const closers: Array<() => void> = [];
      let closed = aborted.aborted;
      aborted.addEventListener('abort', () => {
        closed = true;
        for (const f of closers.splice(0)) f();
        resolve('');
      });
      const conn: HookConnection = {
        reply: (r) => {
          if (r.type === 'ack' || r.type === 'error') resolve(run.stdout);
          // The human's answer is rendered like every verdict: one renderer (engine/output.ts).
          else if (r.type === 'answer') resolve(renderOutput(event, answerVerdict(run.verdict, r.decision, r.reason), run.warnings));
        },
        get closed() {
          return closed;
        },
        onClose: (fn) => void closers.push(fn),
      };
      this.onFrame(frame, conn);
    });
  }

  private fileChanged(file: string): void {
    if (this.config.files.some((f) => resolve(f.path) === file)) {
      this.config = loadConfig(this.opts.env, { cwd: this.opts.cwd });
      const problems = this.config.problems;
      this.pushNotice('roz:ConfigReloaded', `${file}${problems.length ? `: ${problems.join('; ')}` : ''}`);
      return;
    }
    this.intentsReader.changed(file);
    this.stateReadAt = 0;
    this.pushNotice('roz:IntentsReloaded', file);
  }

  /** The file watcher, for tests: resolves once it watches what it was given. */
  get fileWatch(): FileWatch {
    return this.files;
  }

  /** Variables the child (and through it every hook) needs to reach us. */
  childEnv(): Record<string, string> {
    // The hook's own deadline for a PreToolUse follows the approval timeout (src/cli/hook-entry.ts).
    return {
      ...this.channel.env(),
      ROZ_SUPERVISED: '1',
      ROZ_APPROVAL_TIMEOUT_MS: String(this.opts.approvalTimeoutMs),
      // The client strips OTEL_* from its hooks' environment: tell them to spool; we send with our own settings.
      ...(this.telemetry ? { ROZ_TELEMETRY: 'on' } : {}),
    };
  }

  get socketPath(): string {
    return this.channel.path;
  }

  get socketDir(): string {
    return this.channel.dir;
  }

  get token(): string {
    return this.channel.token;
  }

  private onFrame(frame: HookFrame, conn: HookConnection): void {
    const ev = toLiveEvent(frame, ++this.seq, Date.now());
    this.events.push(ev);
    if (ev.session_id && this.sessions.at(-1) !== ev.session_id) {
      const i = this.sessions.indexOf(ev.session_id);
      if (i >= 0) this.sessions.splice(i, 1);
      this.sessions.push(ev.session_id);
      this.stateReadAt = 0;
    }
    if (frame.verdict.kind === 'ask') this.broker.request(frame, conn);
    else conn.reply({ v: PROTOCOL_VERSION, id: frame.id, type: 'ack' });
    this.changed();
  }

  private pushNotice(event: string, summary: string, sid = '', input: unknown = null): void {
    this.events.push(noticeEvent(++this.seq, Date.now(), event, summary, sid, input));
    this.changed();
  }

  /** The human's answer, from the TUI keyboard only. */
  answer(id: string, answer: HumanAnswer): boolean {
    return this.broker.answer(id, answer);
  }

  /**
   * The human selects (or, with null, clears) the current session's intent from
   * the intents view. The supervisor is trusted: the selection is written under
   * the session lock and traced with `via: "human"`.
   */
  async selectIntent(intentId: string | null): Promise<{ ok: boolean; message: string }> {
    const sid = this.sessionId;
    const state = sid ? this.store.read(sid) : null;
    const root = state?.governance ? peekGovernance(state).project_root : null;
    if (!sid || !root)
      return { ok: false, message: 'no governed session yet: intents apply once Claude works in a project with .orchestration/active_intents.yaml' };
    const [{ bindSelection, clearSelection }, { loadAllOnDemand }] = await Promise.all([
      import('../engine/governance/select.js'),
      import('../core/on-demand.js'),
    ]);
    await loadAllOnDemand();
    const now = new Date();
    try {
      if (intentId === null) {
        const was = await clearSelection({ store: this.store, sessionId: sid, via: 'human', now });
        return { ok: true, message: was ? `cleared ${was}` : 'no intent was selected' };
      }
      const r = await bindSelection({ store: this.store, storeRoot: this.store.root, root, intentId, sessionId: sid, via: 'human', now });
      return r.ok ? { ok: true, message: `selected ${intentId}` } : { ok: false, message: r.reason };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    } finally {
      this.stateReadAt = 0;
      this.changed();
    }
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    if (this.notifyTimer) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      this.listeners.forEach((l) => l());
    }, NOTIFY_EVERY_MS);
  }

  get sessionId(): string | null {
    return this.sessions.at(-1) ?? null;
  }

  /** Every session this run has seen, oldest first (a /clear starts a new one). */
  seenSessions(): string[] {
    return [...this.sessions];
  }

  snapshot(): SupervisorSnapshot {
    const sid = this.sessionId;
    if (sid && Date.now() - this.stateReadAt >= STATE_REFRESH_MS) {
      this.stateReadAt = Date.now();
      try {
        this.state = this.store.read(sid);
        this.intents = this.intentsReader.read(this.state);
      } catch {
        /* a state file mid-rename or corrupt: keep the last good one */
      }
    }
    return {
      sessionId: sid,
      sessions: this.seenSessions(),
      state: this.state,
      intents: this.intents,
      pending: this.broker.pending(),
      config: { path: this.config.path, problems: this.config.problems },
      decided: this.broker.history(),
      lastEvent: this.events.last() ?? null,
      totalEvents: this.events.total,
      refused: this.refused,
    };
  }

  /** Stats of one session from the store (state + trace); null when unknown. */
  stats(sessionId: string): SessionStats | null {
    try {
      const state = this.store.read(sessionId);
      return state ? sessionStats(state, this.store.readTrace(sessionId)) : null;
    } catch {
      return null;
    }
  }

  /** Send the telemetry spool now (export on); resolves when the collector answered or gave up. */
  flushTelemetry: () => Promise<void> = async () => {};

  async close(): Promise<void> {
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    if (this.telemetryTimer) clearInterval(this.telemetryTimer);
    this.broker.dispose();
    await this.http?.close();
    await this.files.close();
    await this.channel.close();
    // A last send of what the session's end produced, bounded: a dead collector must not hold up the exit.
    await Promise.race([this.flushTelemetry(), new Promise((r) => setTimeout(r, 3_000).unref())]);
  }
}
