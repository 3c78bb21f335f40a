// The supervisor's side of the attach streams (attach-protocol.ts): every
// screen attached to this fleet over the control socket (`roz attach`, and
// the window of `roz run` itself when the supervisor runs in the
// background). Each gets the same pushes; keys and answers may come from any
// of them. A screen that goes away (closed, crashed, detached) takes nothing
// with it: the agents, their ptys and the queue are the supervisor's.
//
// Answers and keys over this socket are the human's only because no agent
// can reach the socket (an enforced launch: control-server.ts). The control
// server refuses `attach` to an advisory launch, and each answer and key
// re-checks, so an agent whose session turns advisory later cannot type or
// answer through a screen's connection either.
import { asksTerminal } from '../../core/terminal-query.js';
import type { MergeResult } from '../../core/fleet/merge-result.js';
import type { Socket } from 'node:net';
import { type AttachClientLine, type AttachServerLine, HELLO_EVENTS, LineSplitter, MAX_ATTACH_LINE, parseAttachLine } from './attach-protocol.js';
import type { Outcome, ScreenAgent } from './fleet-connection.js';
import { mergeOutcome } from './fleet-connection.js';
import type { SessionStats } from '../session-stats.js';
import type { Supervisor } from '../supervisor.js';

/** A screen that reads slower than the fleet writes is dropped past this much unsent output (it can attach again). */
const MAX_BACKLOG_BYTES = 32 * 1024 * 1024;
/** How long `end` waits for a screen to take its last line. */
const END_FLUSH_MS = 2_000;
/** How long a verdict "may the screens type and answer" is reused (it reads each agent's session state). */
const ADVISORY_CHECK_MS = 1_000;

/** What a screen needs of the fleet host (fleet-host.ts implements it). */
export interface AttachHost {
  readonly notes: string[];
  connected(): ScreenAgent[];
  tail(name: string): string;
  onPty(fn: (agent: string, data: string) => void): () => void;
  onChange(fn: () => void): () => void;
  write(name: string, data: string): void;
  resize(cols: number, rows: number): void;
  addAgent(name: string, prompt?: string): Promise<Outcome>;
  mergeAgent(name: string): Promise<MergeResult>;
  humanMerge(name: string, head: string): Promise<Outcome>;
  stopAgent(name: string): Promise<Outcome>;
}

export type AttachSupervisor = Pick<Supervisor, 'snapshot' | 'agents' | 'queue' | 'events' | 'subscribe' | 'answer' | 'stats' | 'selectIntent'>;

export interface AttachHubOptions {
  host: AttachHost;
  supervisor: AttachSupervisor;
  /** Why answers and keys must be refused now (empty: they may come from the screens). */
  advisoryReasons: () => string[];
  log?: (line: string) => void;
}

interface Client {
  socket: Socket;
  view: string;
  /** The newest live event this screen has. */
  lastSeq: number;
  /** The decided history this screen has (its length and newest entry): unchanged, it is not sent again. */
  decidedKey: string | null;
  off: Array<() => void>;
  /** Agents out of this screen's view whose output it was not sent: coming into view, it gets their tail. */
  behind: Set<string>;
}

export class AttachHub {
  private readonly clients = new Set<Client>();
  private advisory: { at: number; reasons: string[] } | null = null;
  private ended = false;

  constructor(private readonly opts: AttachHubOptions) {}

  get attached(): number {
    return this.clients.size;
  }

  /** A connection whose `attach` request was accepted; `rest` is what it sent after that line. */
  attach(socket: Socket, req: { view: string; cols: number; rows: number }, rest: string): void {
    const { host, supervisor: sup } = this.opts;
    const client: Client = { socket, view: req.view, lastSeq: sup.events.last()?.seq ?? 0, decidedKey: null, off: [], behind: new Set() };
    this.clients.add(client);
    socket.setTimeout(0);
    host.resize(req.cols, req.rows);
    const agents = host.connected();
    const replay: Record<string, string> = {};
    for (const a of agents) replay[a.name] = host.tail(a.name);
    this.send(client, { t: 'hello', notes: host.notes, agents, replay, events: sup.events.tail(HELLO_EVENTS) });
    this.sendState(client);
    client.off.push(
      sup.subscribe(() => this.sendState(client)),
      host.onChange(() => this.send(client, { t: 'agents', agents: host.connected() })),
      // Only the agent in view streams to a screen (8 agents' output decoded and kept there slowed its keys down,
      // docs/fleet.md "Under load"); another agent's output goes only when it asks the terminal something.
      host.onPty((agent, data) => {
        if (agent === client.view || asksTerminal(data)) this.send(client, { t: 'pty', agent, data });
        else client.behind.add(agent);
      }),
    );
    const splitter = new LineSplitter(MAX_ATTACH_LINE);
    const onData = (chunk: string): void => {
      const { lines, overflow } = splitter.push(chunk);
      for (const line of lines) if (line.trim()) this.handle(client, line);
      if (overflow) {
        this.send(client, { t: 'error', message: `line over ${MAX_ATTACH_LINE} bytes: closing this connection` });
        this.opts.log?.('attach: dropped a screen that sent an oversize line');
        socket.end();
      }
    };
    socket.on('data', onData);
    const gone = (): void => this.drop(client);
    socket.on('close', gone);
    socket.on('error', gone);
    if (rest) onData(rest);
  }

  private drop(client: Client): void {
    if (!this.clients.delete(client)) return;
    for (const off of client.off) off();
    client.socket.destroy();
  }

  private send(client: Client, line: AttachServerLine): void {
    const s = client.socket;
    if (!s.writable) return;
    if (s.writableLength > MAX_BACKLOG_BYTES) {
      this.opts.log?.('attach: dropped a screen that does not keep up');
      this.drop(client);
      return;
    }
    s.write(`${JSON.stringify(line)}\n`);
  }

  private sendState(client: Client): void {
    const sup = this.opts.supervisor;
    const events = sup.events.tail(HELLO_EVENTS, (e) => e.seq > client.lastSeq);
    if (events.length > 0) client.lastSeq = events.at(-1)!.seq;
    const snapshot = sup.snapshot(client.view);
    // The history carries each request's whole tool input (a Write's content): sent when it changed, not 50 ms apart.
    const last = snapshot.decided.at(-1);
    const key = `${snapshot.decided.length}:${last?.approval.id ?? ''}:${last?.decided_at ?? ''}`;
    const decided = key === client.decidedKey ? null : snapshot.decided;
    client.decidedKey = key;
    this.send(client, { t: 'state', snapshot: { ...snapshot, decided }, agents: sup.agents(), queue: sup.queue(), events, total: sup.events.total });
  }

  private refused(): string[] {
    const now = Date.now();
    if (!this.advisory || now - this.advisory.at > ADVISORY_CHECK_MS) this.advisory = { at: now, reasons: this.opts.advisoryReasons() };
    return this.advisory.reasons;
  }

  private handle(client: Client, text: string): void {
    const parsed = parseAttachLine(text);
    if (!parsed.ok) {
      this.opts.log?.(`attach: refused a line: ${parsed.message}`);
      return this.send(client, { t: 'error', message: parsed.message });
    }
    try {
      this.dispatch(client, parsed.line);
    } catch (err) {
      this.send(client, { t: 'error', message: (err as Error).message });
    }
  }

  private dispatch(client: Client, line: AttachClientLine): void {
    const { host, supervisor: sup } = this.opts;
    const reply = (rid: number, p: Promise<Outcome>): void =>
      void p.then(
        (o) => this.send(client, { t: 'reply', rid, ok: o.ok, message: o.message, ...(o.review ? { review: true } : {}) }),
        (err: Error) => this.send(client, { t: 'reply', rid, ok: false, message: err.message }),
      );
    switch (line.t) {
      case 'input':
        if (this.refused().length > 0) return this.send(client, { t: 'error', message: `keys refused: ${this.advisoryMessage()}` });
        // Every screen's terminal answers the agent's queries; the agent asked once and must read one answer (a second
        // would arrive as typed input). The screen attached last answers: it is the one the human just opened, it is
        // sized like the pty (the attach resized it), and when it goes the one before it takes over, without any
        // election. Its replay's answers never come (virtual-screen.ts drops them).
        if (line.kind === 'reply' && client !== this.answering()) return;
        return host.write(line.agent, line.data);
      case 'resize':
        return host.resize(line.cols, line.rows);
      case 'view':
        client.view = line.agent;
        if (client.behind.delete(line.agent)) this.send(client, { t: 'pty', agent: line.agent, data: this.opts.host.tail(line.agent), resync: true });
        return this.sendState(client);
      case 'answer': {
        if (this.refused().length > 0) return this.send(client, { t: 'answered', id: line.id, ok: false, message: `refused: ${this.advisoryMessage()}` });
        const ok = sup.answer(line.id, { ...line.answer, via: 'keyboard' });
        return this.send(client, { t: 'answered', id: line.id, ok, message: ok ? 'answered' : `request ${line.id} is no longer waiting` });
      }
      case 'intent':
        return reply(line.rid, sup.selectIntent(line.intent, line.agent));
      case 'stats':
        return this.send(client, { t: 'stats', session: line.session, stats: sup.stats(line.session) });
      case 'add':
        return reply(line.rid, host.addAgent(line.name, line.prompt));
      case 'merge':
        return reply(
          line.rid,
          host.mergeAgent(line.name).then((r) => mergeOutcome(r)),
        );
      case 'human-merge':
        // The keyboard of an attached screen is the human's (the control record's secret; refused for advisory launches).
        return reply(line.rid, host.humanMerge(line.name, line.head));
      case 'stop':
        return reply(line.rid, host.stopAgent(line.name));
    }
  }

  /** The screen whose terminal answers the agents' queries: the live one attached last (the set keeps attach order). */
  private answering(): Client | undefined {
    let last: Client | undefined;
    for (const c of this.clients) last = c;
    return last;
  }

  private advisoryMessage(): string {
    return `this supervisor's agents are not confined by the OS sandbox (advisory: ${this.refused().join('; ')}), so an agent could reach this socket`;
  }

  /** The run is over: every screen gets main's code and the sessions' stats, then its connection ends. */
  async end(result: { code: number; stats: Array<SessionStats | null> }): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const flushed = [...this.clients].map(
      (c) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, END_FLUSH_MS);
          this.send(c, { t: 'end', ...result });
          c.socket.end(() => {
            clearTimeout(timer);
            resolve();
          });
        }),
    );
    await Promise.all(flushed);
  }

  close(): void {
    for (const c of [...this.clients]) this.drop(c);
  }
}
