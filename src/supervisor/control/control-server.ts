// The supervisor's control socket: human commands from any terminal of the
// human's (`roz queue`, `roz approve`, `roz block`, `roz agent stop|ls|add`),
// never hook events (those have their own socket, channel-server.ts). It is
// a Unix socket in a 0700 directory of its own, found through a record in
// roz's store (store/control-record.ts) that also holds a per-supervisor
// secret every request must carry.
//
// Why an agent cannot use it (docs/fleet.md, "The control socket"): an
// enforced agent's Bash cannot connect to any Unix socket (the sandbox's
// seccomp filter) and cannot read the record (denyRead; the file tools have a
// Read deny rule). Where roz cannot confine the agents (advisory: no sandbox,
// or a session that reports advisory), an agent could read the secret and
// connect, so approve and block are refused here: approvals then come only
// from the TUI keyboard. The MCP server never offers any of this.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Enforcement } from '../../core/enforce/mode.js';
import { statusLabel, statusOf } from '../../core/fleet/agent-state.js';
import { type ControlRecord, removeControlRecord, writeControlRecord } from '../../store/control-record.js';
import { type ControlReply, type ControlRequest, MAX_CONTROL_BYTES, parseControlRequest } from './control-protocol.js';
import { type AttachHost, AttachHub, type AttachSupervisor } from '../attach/attach-hub.js';
import type { FleetControl } from './fleet-control.js';
import type { SessionStats } from '../session-stats.js';
import type { Supervisor } from '../supervisor.js';

/** A client that sends nothing useful is dropped after this long. */
const IDLE_MS = 10_000;

export interface ControlServerOptions {
  supervisor: Pick<Supervisor, 'queue' | 'answer' | 'agents' | 'broker' | 'store'>;
  /** Starts and stops agents; absent: `start`/`stop` answer "not available in this run". */
  fleet?: FleetControl;
  /** The fleet screens attach to (attach-hub.ts); absent: `attach` answers "not available in this run". */
  attach?: { host: AttachHost; supervisor: AttachSupervisor };
  /** roz's store (where the record goes). */
  store: string;
  /** The key the record is filed under (store/control-record.ts controlKey). */
  repo: string;
  cwd: string;
  /** Whether this supervisor's launch confines its agents, as the supervisor itself decided it at launch. */
  enforcement: Enforcement;
  /** Parent directory of the socket's private directory (tests); default the OS temp dir. */
  socketBaseDir?: string;
  /** Told about refused requests (the supervisor's log). */
  log?: (line: string) => void;
}

export class ControlServer {
  private readonly sockets = new Set<Socket>();
  private recordFile: string | null = null;
  private hub: AttachHub | null = null;

  private constructor(
    private readonly opts: ControlServerOptions,
    readonly dir: string,
    readonly path: string,
    private readonly secret: string,
    private readonly server: Server,
  ) {
    if (opts.attach)
      this.hub = new AttachHub({
        ...opts.attach,
        advisoryReasons: () => this.advisoryReasons(),
        ...(opts.log ? { log: opts.log } : {}),
      });
  }

  static async start(opts: ControlServerOptions): Promise<ControlServer> {
    // mkdtemp makes the directory 0700: no other user reaches the socket.
    const dir = mkdtempSync(join(opts.socketBaseDir ?? tmpdir(), 'roz-ctl-'));
    chmodSync(dir, 0o700);
    const path = join(dir, 'control.sock');
    const server = createServer();
    const ctl = new ControlServer(opts, dir, path, randomBytes(32).toString('hex'), server);
    server.on('connection', (s) => ctl.accept(s));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(path, () => resolve());
      });
      chmodSync(path, 0o600);
      const record: ControlRecord = {
        version: 1,
        pid: process.pid,
        socket: path,
        secret: ctl.secret,
        repo: opts.repo,
        cwd: opts.cwd,
        started_at: new Date().toISOString(),
        enforcement: opts.enforcement,
      };
      ctl.recordFile = writeControlRecord(opts.store, record);
    } catch (err) {
      await ctl.close();
      throw err;
    }
    return ctl;
  }

  /** Whether this supervisor's launch confines its agents (decided at launch): more agents join it only as confined. */
  get enforcement(): Enforcement {
    return this.opts.enforcement;
  }

  /** Where the record is (tests). */
  get record(): string | null {
    return this.recordFile;
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.setEncoding('utf8');
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    let buffered = '';
    let done = false;
    /** What came after the request line (an attach stream's first lines), kept until the request is handled. */
    let after = '';
    const send = (r: ControlReply): void => {
      done = true;
      if (socket.writable) socket.end(`${JSON.stringify(r)}\n`);
    };
    const onData = (chunk: string): void => {
      if (done) {
        if (after.length <= MAX_CONTROL_BYTES * 64) after += chunk;
        return;
      }
      buffered += chunk;
      const nl = buffered.indexOf('\n');
      if (nl < 0) {
        if (Buffer.byteLength(buffered) > MAX_CONTROL_BYTES) send({ ok: false, code: 'bad-request', message: `request over ${MAX_CONTROL_BYTES} bytes` });
        return;
      }
      const line = buffered.slice(0, nl);
      after = buffered.slice(nl + 1);
      void this.handle(line).then(
        (r) => {
          if ('attach' in r) {
            // The connection is a screen's now: the hub reads it from here on.
            socket.off('data', onData);
            this.sockets.delete(socket);
            this.hub!.attach(socket, r.attach, after);
          } else send(r);
        },
        (err: Error) => send({ ok: false, code: 'failed', message: err.message }),
      );
      done = true;
    };
    socket.on('data', onData);
    const gone = (): void => void this.sockets.delete(socket);
    socket.on('close', gone);
    socket.on('error', gone);
  }

  /** The secret first: a request without the right one learns nothing, not even whether it was well formed. */
  private authentic(line: string): boolean {
    let given: unknown;
    try {
      given = (JSON.parse(line) as { secret?: unknown } | null)?.secret;
    } catch {
      return false;
    }
    if (typeof given !== 'string') return false;
    const a = Buffer.from(given);
    const b = Buffer.from(this.secret);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  private async handle(line: string): Promise<ControlReply | { attach: { view: string; cols: number; rows: number } }> {
    if (!this.authentic(line)) {
      this.opts.log?.('control: refused a request without the right secret');
      return {
        ok: false,
        code: 'auth',
        message: "wrong or missing secret: only the roz commands of the human who started this supervisor (reading roz's store) may use it",
      };
    }
    const parsed = parseControlRequest(line);
    if (!parsed.ok) return { ok: false, code: 'bad-request', message: parsed.message };
    return this.dispatch(parsed.request);
  }

  private async dispatch(req: ControlRequest): Promise<ControlReply | { attach: { view: string; cols: number; rows: number } }> {
    const sup = this.opts.supervisor;
    switch (req.op) {
      case 'attach': {
        if (!this.hub) return { ok: false, code: 'unavailable', message: 'attaching a screen is not available in this run' };
        const advisory = this.advisoryReasons();
        // Keys and answers from a screen are the human's only if no agent can reach this socket.
        if (advisory.length > 0)
          return {
            ok: false,
            code: 'advisory',
            message: `refused: this supervisor's agents are not confined by the OS sandbox (advisory: ${advisory.join('; ')}), so an agent could reach this socket and type or answer through it; this run is driven only from the window it started in`,
          };
        return { attach: { view: req.view, cols: req.cols, rows: req.rows } };
      }
      case 'queue': {
        const queue = sup.queue().map((q) => ({ id: q.id, agent: q.agent, tool: q.tool, summary: q.summary, since: new Date(q.since).toISOString() }));
        return { ok: true, message: `${queue.length} waiting`, queue };
      }
      case 'agents': {
        const pending = sup.queue();
        const agents = sup.agents().map((a) => ({
          name: a.name,
          state: statusLabel(statusOf(a.live)),
          pending: pending.filter((p) => p.agent === a.name).length,
          session: a.sessionId,
          enforcement: a.enforcement,
          where: a.where,
        }));
        return { ok: true, message: `${agents.length} agent(s)`, agents };
      }
      case 'approve':
      case 'block': {
        const advisory = this.advisoryReasons();
        if (advisory.length > 0)
          return {
            ok: false,
            code: 'advisory',
            message: `refused: this supervisor's agents are not confined by the OS sandbox (advisory: ${advisory.join('; ')}), so an agent could reach this socket and answer its own request; approvals come only from the TUI keyboard here`,
          };
        const waiting = sup.queue().find((q) => q.id === req.id);
        if (!waiting) return this.notWaiting(req.id);
        const ok =
          req.op === 'approve'
            ? sup.answer(req.id, { action: 'approve-once', via: 'terminal' })
            : sup.answer(req.id, { action: 'block', reason: req.reason, via: 'terminal' });
        if (!ok) return this.notWaiting(req.id);
        return {
          ok: true,
          message: req.op === 'approve' ? `approved ${req.id} (${waiting.agent}: ${waiting.tool})` : `blocked ${req.id} (${waiting.agent}: ${waiting.tool})`,
        };
      }
      case 'start':
      case 'stop':
      case 'stop-all': {
        const fleet = this.opts.fleet;
        if (!fleet) return { ok: false, code: 'unavailable', message: `${req.op === 'start' ? 'starting' : 'stopping'} agents is not available in this run` };
        const out = req.op === 'start' ? await fleet.startAgent(req.name) : req.op === 'stop' ? await fleet.stopAgent(req.name) : await fleet.stopAll();
        return out.ok ? { ok: true, message: out.message } : { ok: false, code: 'failed', message: out.message };
      }
    }
  }

  private notWaiting(id: string): ControlReply {
    const decided = this.opts.supervisor.broker
      .history()
      .filter((d) => d.approval.id === id)
      .at(-1);
    if (decided)
      return {
        ok: false,
        code: 'answered',
        message: `request ${id} was already answered: ${decided.decision} by ${decided.decided_by}${decided.reason ? ` (${decided.reason})` : ''}`,
      };
    return { ok: false, code: 'unknown', message: `no request ${id} is waiting (roz queue lists them)` };
  }

  /**
   * Why approve/block must be refused: the launch's own facts (decided by the
   * supervisor at launch), and any agent whose session reports advisory. The
   * latter is in roz's store, which an unconfined agent can write: it can only
   * make this stricter, never lift the launch's verdict.
   */
  private advisoryReasons(): string[] {
    const launch = this.opts.enforcement;
    const reasons = launch.mode === 'advisory' ? (launch.reasons.length > 0 ? [...launch.reasons] : ['the launch is advisory']) : [];
    const sup = this.opts.supervisor;
    for (const a of sup.agents()) {
      if (!a.sessionId) continue;
      try {
        const mode = sup.store.read(a.sessionId)?.enforcement?.mode;
        if (mode === 'advisory') reasons.push(`agent ${a.name}'s session ${a.sessionId} is advisory`);
      } catch {
        /* unreadable state: the launch's verdict stands */
      }
    }
    return reasons;
  }

  /** The run is over: attached screens get its end (attach-hub.ts) before the socket closes. */
  async end(result: { code: number; stats: Array<SessionStats | null> }): Promise<void> {
    await this.hub?.end(result);
  }

  /** How many screens are attached now. */
  get attached(): number {
    return this.hub?.attached ?? 0;
  }

  async close(): Promise<void> {
    this.hub?.close();
    if (this.recordFile) removeControlRecord(this.recordFile);
    this.recordFile = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
