// A screen's side of the attach stream (attach-protocol.ts): the fleet of a
// background supervisor, reached over its control socket, as the run screen
// draws it (fleet-connection.ts). It mirrors what the supervisor pushes
// (agents, the snapshot of the agent in view, queue, live events, each
// agent's pty output) and sends the human's keys, answers and actions. The
// connection ends three ways: `end` (every agent exited), detach (the human
// leaves the agents running), or lost (the supervisor died).
import { createConnection, type Socket } from 'node:net';
import type { QueuedRequest } from '../../core/fleet/queue.js';
import type { FoundRecord } from '../../store/control-record.js';
import type { HumanAnswer } from '../approval-broker.js';
import { type AttachClientLine, type AttachServerLine, LineSplitter } from './attach-protocol.js';
import { CONTROL_VERSION, type ControlReply } from '../control/control-protocol.js';
import type { ConnectionEnd, FleetConnection, Outcome, ScreenAgent } from './fleet-connection.js';
import { type LiveEvent, noticeEvent } from '../live-event.js';
import { RingBuffer } from '../ring-buffer.js';
import type { SessionStats } from '../session-stats.js';
import { DEFAULT_RING_CAPACITY } from '../supervisor.js';
import type { AgentOverview, SupervisorSnapshot } from '../view.js';

/** The supervisor is trusted; this only bounds a runaway line. */
const MAX_SERVER_LINE = 256 * 1024 * 1024;
/** The stats view draws on every change: its numbers are fetched at most this often. */
const STATS_EVERY_MS = 2_000;
/** How long the supervisor gets to accept the attach. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The supervisor refused the attach (advisory launch, wrong secret, not available) or could not be reached. */
export class AttachRefused extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

type Hello = Extract<AttachServerLine, { t: 'hello' }>;
type State = Extract<AttachServerLine, { t: 'state' }>;

export class RemoteConnection implements FleetConnection {
  readonly notes: string[];
  readonly events = new RingBuffer<LiveEvent>(DEFAULT_RING_CAPACITY);
  readonly ended: Promise<ConnectionEnd>;
  private finish!: (e: ConnectionEnd) => void;
  private over = false;
  private readonly listeners = new Set<() => void>();
  private readonly agentListeners = new Set<() => void>();
  private readonly ptyListeners = new Set<(agent: string, data: string, replay?: boolean | 'resync') => void>();
  private agentList: ScreenAgent[];
  /** What each agent wrote before this screen attached: its queries were answered then, by another screen. */
  private replay: Record<string, string>;
  /** What each agent wrote after the attach until the screen's first pty listener came: live, to be answered. */
  private early: Record<string, string> = {};
  private state: State | null = null;
  /** The snapshot as the screen reads it: the last state's, with the decided history it last got. */
  private snap: SupervisorSnapshot | null = null;
  private readonly statsCache = new Map<string, SessionStats | null>();
  /** When each session's stats were last asked for: asked again at most every STATS_EVERY_MS while shown. */
  private readonly asked = new Map<string, number>();
  private nextRid = 1;
  private readonly replies = new Map<number, (o: Outcome) => void>();
  private localSeq = 0;

  private constructor(
    private readonly socket: Socket,
    hello: Hello,
    first: State | null,
  ) {
    this.notes = hello.notes;
    this.agentList = hello.agents;
    this.replay = hello.replay;
    for (const e of hello.events) this.events.push(e);
    this.localSeq = hello.events.at(-1)?.seq ?? 0;
    if (first) this.applyState(first);
    this.ended = new Promise((r) => (this.finish = r));
  }

  /** Attach to the supervisor of `rec`, showing `view` in a pane of this size. Rejects with AttachRefused. */
  static connect(rec: FoundRecord, req: { view: string; cols: number; rows: number }): Promise<RemoteConnection> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(rec.record.socket);
      socket.setEncoding('utf8');
      const splitter = new LineSplitter(MAX_SERVER_LINE);
      let hello: Hello | null = null;
      let conn: RemoteConnection | null = null;
      const early: AttachServerLine[] = [];
      const timer = setTimeout(
        () => fail(new AttachRefused(`no answer from the supervisor (pid ${rec.record.pid}) within ${CONNECT_TIMEOUT_MS} ms`, 'timeout')),
        CONNECT_TIMEOUT_MS,
      );
      const fail = (err: Error): void => {
        clearTimeout(timer);
        socket.destroy();
        reject(err);
      };
      socket.on('connect', () =>
        socket.write(
          `${JSON.stringify({ v: CONTROL_VERSION, secret: rec.record.secret, op: 'attach', view: req.view, cols: dim(req.cols), rows: dim(req.rows) })}\n`,
        ),
      );
      socket.on('data', (chunk: string) => {
        const { lines } = splitter.push(chunk);
        for (const text of lines) {
          if (!text) continue;
          let line: AttachServerLine | ControlReply;
          try {
            line = JSON.parse(text) as AttachServerLine | ControlReply;
          } catch {
            continue;
          }
          if (conn) {
            conn.receive(line as AttachServerLine);
            continue;
          }
          if (!('t' in line) && line.ok === false) return fail(new AttachRefused(line.message, line.code));
          if (!('t' in line)) continue;
          if (line.t === 'hello') hello = line;
          else if (hello && line.t === 'state') {
            clearTimeout(timer);
            conn = new RemoteConnection(socket, hello, line);
            for (const e of early) conn.receive(e);
            conn.watch();
            resolve(conn);
          } else early.push(line);
        }
      });
      socket.on('error', (err: NodeJS.ErrnoException) => {
        if (!conn) fail(new AttachRefused(`cannot reach the supervisor at ${rec.record.socket}: ${err.code ?? err.message}`, 'unreachable'));
      });
      socket.on('close', () => {
        if (!conn) fail(new AttachRefused('the supervisor closed the connection', 'closed'));
      });
    });
  }

  private watch(): void {
    let why = 'its connection closed';
    this.socket.on('error', (err: NodeJS.ErrnoException) => (why = `its connection failed: ${err.code ?? err.message}`));
    this.socket.on('close', () => this.close({ kind: 'lost', reason: why }));
  }

  private close(end: ConnectionEnd): void {
    if (this.over) return;
    this.over = true;
    for (const r of this.replies.values()) r({ ok: false, message: end.kind === 'lost' ? `the supervisor is gone (${end.reason})` : 'detached' });
    this.replies.clear();
    this.socket.destroy();
    this.finish(end);
  }

  private send(line: AttachClientLine): void {
    if (!this.over && this.socket.writable) this.socket.write(`${JSON.stringify(line)}\n`);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  private applyState(s: State): void {
    this.state = s;
    this.snap = { ...s.snapshot, decided: s.snapshot.decided ?? this.snap?.decided ?? [] };
    for (const e of s.events) {
      this.events.push(e);
      this.localSeq = Math.max(this.localSeq, e.seq);
    }
  }

  private receive(line: AttachServerLine): void {
    switch (line.t) {
      case 'state':
        this.applyState(line);
        return this.changed();
      case 'agents':
        this.agentList = line.agents;
        for (const l of this.agentListeners) l();
        return;
      case 'pty':
        if (line.resync) {
          // The agent's newest output in place of what this screen had (it comes into view).
          if (this.ptyListeners.size === 0) {
            this.replay[line.agent] = line.data;
            delete this.early[line.agent];
          }
          for (const l of this.ptyListeners) l(line.agent, line.data, 'resync');
          return;
        }
        // Before the screen listens (between the attach and its first draw), output is kept: none is lost.
        if (this.ptyListeners.size === 0) this.early[line.agent] = (this.early[line.agent] ?? '') + line.data;
        for (const l of this.ptyListeners) l(line.agent, line.data);
        return;
      case 'reply': {
        const r = this.replies.get(line.rid);
        this.replies.delete(line.rid);
        return r?.({ ok: line.ok, message: line.message, ...(line.review ? { review: true } : {}) });
      }
      case 'answered':
        if (!line.ok) this.notice('roz:AnswerRefused', line.message);
        return;
      case 'stats':
        this.statsCache.set(line.session, line.stats);
        // A new snapshot object: a view that re-reads on change only when the snapshot is new (use-snapshot.ts) draws the numbers now.
        if (this.snap) this.snap = { ...this.snap };
        return this.changed();
      case 'error':
        this.notice('roz:AttachError', line.message);
        return;
      case 'end':
        return this.close({ kind: 'ended', code: line.code, stats: line.stats });
      case 'hello':
        return;
    }
  }

  /** Something this screen must show the human (a refused answer): in the live trace. */
  private notice(event: string, summary: string): void {
    this.events.push(noticeEvent(++this.localSeq, Date.now(), event, summary));
    this.changed();
  }

  private request(make: (rid: number) => AttachClientLine): Promise<Outcome> {
    if (this.over) return Promise.resolve({ ok: false, message: 'not attached' });
    const rid = this.nextRid++;
    return new Promise((resolve) => {
      this.replies.set(rid, resolve);
      this.send(make(rid));
    });
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  snapshot(_agent: string): SupervisorSnapshot {
    return this.snap!;
  }
  answer(id: string, answer: HumanAnswer): boolean {
    if (!this.state?.snapshot.pending.some((p) => p.id === id)) return false;
    this.send({ t: 'answer', id, answer: stripVia(answer) });
    return true;
  }
  /** The supervisor's last answer for the session; undefined until its first answer comes (asked now). */
  stats(sessionId: string): SessionStats | null | undefined {
    const at = this.asked.get(sessionId);
    if (at === undefined || Date.now() - at > STATS_EVERY_MS) {
      this.asked.set(sessionId, Date.now());
      this.send({ t: 'stats', session: sessionId });
    }
    return this.statsCache.has(sessionId) ? (this.statsCache.get(sessionId) ?? null) : undefined;
  }
  selectIntent(intentId: string | null, agent: string): Promise<Outcome> {
    return this.request((rid) => ({ t: 'intent', rid, agent, intent: intentId }));
  }
  agents(): AgentOverview[] {
    return this.state?.agents ?? [];
  }
  queue(): QueuedRequest[] {
    return this.state?.queue ?? [];
  }
  list(): ScreenAgent[] {
    return this.agentList;
  }
  onAgents(fn: () => void): () => void {
    this.agentListeners.add(fn);
    return () => this.agentListeners.delete(fn);
  }
  onPty(fn: (agent: string, data: string, replay?: boolean | 'resync') => void): () => void {
    for (const [agent, data] of Object.entries(this.replay)) if (data) fn(agent, data, true);
    for (const [agent, data] of Object.entries(this.early)) if (data) fn(agent, data, false);
    // The screen keeps it from here on: up to 256 KiB per agent not held twice.
    this.replay = {};
    this.early = {};
    this.ptyListeners.add(fn);
    return () => this.ptyListeners.delete(fn);
  }
  write(agent: string, data: string): void {
    this.send({ t: 'input', agent, data });
  }
  reply(agent: string, data: string): void {
    this.send({ t: 'input', agent, data, kind: 'reply' });
  }
  resize(cols: number, rows: number): void {
    this.send({ t: 'resize', cols: dim(cols), rows: dim(rows) });
  }
  view(agent: string): void {
    this.send({ t: 'view', agent });
  }
  add(name: string, prompt?: string): Promise<Outcome> {
    return this.request((rid) => ({ t: 'add', rid, name, ...(prompt ? { prompt } : {}) }));
  }
  merge(name: string): Promise<Outcome> {
    return this.request((rid) => ({ t: 'merge', rid, name }));
  }
  humanMerge(name: string, head: string): Promise<Outcome> {
    return this.request((rid) => ({ t: 'human-merge', rid, name, head }));
  }
  stop(name: string): Promise<Outcome> {
    return this.request((rid) => ({ t: 'stop', rid, name }));
  }
  readonly detach = (): void => this.close({ kind: 'detached' });
}

/** A pane size the protocol takes (a terminal shrunk to nothing still gets a 1×1 pty). */
const dim = (n: number): number => Math.min(2_000, Math.max(1, Math.floor(n) || 1));

/** Where the answer came from is the supervisor's to say (this screen's keys), not the line's. */
function stripVia(a: HumanAnswer): Extract<AttachClientLine, { t: 'answer' }>['answer'] {
  switch (a.action) {
    case 'block':
      return { action: 'block', reason: a.reason };
    default:
      return { action: a.action };
  }
}
