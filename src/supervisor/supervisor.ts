// The supervisor's brain, without any screen: the channel, the approval
// broker, the live event ring and the session state the status line shows.
// The TUI subscribes to it; nothing here knows about terminals.
import { appendFileSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { findProjectRoot } from '../store/project-root.js';
import { widenScope } from './widen-scope.js';
import { loadOnDemand } from '../core/on-demand.js';
import type { SessionState } from '../core/review/state.js';
import { loadConfig } from '../engine/config-loader.js';
import { FileSessionStore } from '../store/file-store.js';
import type { SessionStore } from '../store/session-store.js';
import { ApprovalBroker, type HumanAnswer, type PendingApproval } from './approval-broker.js';
import { PROTOCOL_VERSION, type HookFrame } from './channel-protocol.js';
import { ChannelServer, type HookConnection } from './channel-server.js';
import { noticeEvent, toLiveEvent, type LiveEvent } from './live-event.js';
import { RingBuffer } from './ring-buffer.js';
import { sessionStats, type SessionStats } from './session-stats.js';
import { ProjectIntentsReader, type ProjectIntents } from './project-intents.js';

export const DEFAULT_RING_CAPACITY = 5_000;
/** Listeners hear about changes at most this often, however fast events arrive. */
const NOTIFY_EVERY_MS = 50;
const STATE_REFRESH_MS = 250;

export interface SupervisorOptions {
  env: Record<string, string | undefined>;
  approvalTimeoutMs: number;
  ringCapacity?: number;
  /** Parent directory of the private socket directory (tests). */
  socketBaseDir?: string;
  store?: SessionStore;
  /** Where refused frames are logged; default <store>/supervisor.log. */
  log?: (line: string) => void;
}

export interface SupervisorSnapshot {
  sessionId: string | null;
  sessions: string[];
  state: SessionState | null;
  /** The governed project's intents, when intent governance is on. */
  intents: ProjectIntents | null;
  pending: PendingApproval[];
  lastEvent: LiveEvent | null;
  totalEvents: number;
  refused: number;
}

export class Supervisor {
  readonly events: RingBuffer<LiveEvent>;
  readonly broker: ApprovalBroker;
  readonly store: SessionStore;
  private channel!: ChannelServer;
  private readonly listeners = new Set<() => void>();
  private readonly sessions: string[] = [];
  private state: SessionState | null = null;
  private intents: ProjectIntents | null = null;
  private readonly intentsReader = new ProjectIntentsReader();
  private stateReadAt = 0;
  private refused = 0;
  private seq = 0;
  private notifyTimer: NodeJS.Timeout | null = null;
  private readonly log: (line: string) => void;

  private constructor(private readonly opts: SupervisorOptions) {
    this.events = new RingBuffer<LiveEvent>(opts.ringCapacity ?? DEFAULT_RING_CAPACITY);
    const root = loadConfig(opts.env).config.storage.path;
    this.store = opts.store ?? new FileSessionStore(root);
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
        this.pushNotice('roz:HumanDecision', `${String(rec.decision)} ${String(rec.tool_name)} by ${String(rec.decided_by)} after ${String(rec.wait_ms)} ms`, sid);
      },
      onChange: () => this.changed(),
      widen: (a) => {
        // The project as the hook saw it: the same lookup the hooks use (cwd, git top, CLAUDE_PROJECT_DIR).
        const root = a.cwd ? findProjectRoot(a.cwd, { projectDir: opts.env.CLAUDE_PROJECT_DIR }) : null;
        if (!root || !a.widen) return { ok: false, error: 'no governed project for this request' };
        const human = opts.env.USER || opts.env.LOGNAME || userInfo().username;
        const out = widenScope({ root, intentId: a.widen.intent_id, globs: a.widen.globs, sessionId: a.session_id, human, now: new Date() });
        this.pushNotice('roz:ScopeWidened', out.ok ? `${human} added ${out.added.join(', ') || '(nothing new)'} to ${a.widen.intent_id}` : `could not widen: ${out.error}`, a.session_id);
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
    return sup;
  }

  /** Variables the child (and through it every hook) needs to reach us. */
  childEnv(): Record<string, string> {
    // The hook's own deadline for a PreToolUse follows the approval timeout (src/cli/hook-entry.ts).
    return { ...this.channel.env(), ROZ_SUPERVISED: '1', ROZ_APPROVAL_TIMEOUT_MS: String(this.opts.approvalTimeoutMs) };
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

  private pushNotice(event: string, summary: string, sid = ''): void {
    this.events.push(noticeEvent(++this.seq, Date.now(), event, summary, sid));
    this.changed();
  }

  /** The human's answer, from the TUI keyboard only. */
  answer(id: string, answer: HumanAnswer): boolean {
    return this.broker.answer(id, answer);
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

  async close(): Promise<void> {
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    this.broker.dispose();
    await this.channel.close();
  }
}
