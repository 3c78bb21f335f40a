// Where hook events reach the supervisor: the Unix socket the hook processes
// relay their verdicts to (channel-server.ts) and, for clients with http
// hooks, loopback http (http-hook-server.ts), where the engine runs here,
// in-process, exactly as a hook process would run it. Either way an event
// arrives as one frame with a connection to answer on, so the live view and
// the human gate never know which transport carried it.
import type { HookEventName } from '../../core/hook-input.js';
import { renderOutput } from '../../engine/output.js';
import { answerVerdict, frameInput } from './channel-client.js';
import { PROTOCOL_VERSION, type HookFrame } from './channel-protocol.js';
import { ChannelServer, type HookConnection } from './channel-server.js';
import { HttpHookServer } from './http-hook-server.js';

export interface HookIntakeOptions {
  /** Parent directory of the private socket directory (tests). */
  socketBaseDir?: string;
  /** Also take hook events as the client's http hooks on loopback TCP, and run the engine here (src/supervisor/hooks/http-hooks.ts). */
  http: boolean;
  /** How long the human gate may hold an ask: an http frame's deadline outlives it. */
  approvalTimeoutMs: number;
  /** `agent`: the agent whose token the frame or request carried (authentication, never the frame's content). */
  onFrame: (frame: HookFrame, conn: HookConnection, agent: string) => void;
  /** A refused frame or request: a line for the supervisor's log and a summary for the live view. */
  onRefused: (logLine: string, summary: string) => void;
  /** Told how long each http hook took roz, request in to answer out (bench and tests). */
  onHttpHook?: (event: string, ms: number) => void;
}

export class HookIntake {
  private http: HttpHookServer | null = null;
  /** What the engine sees for an http hook: the child's environment as far as roz knows it. */
  private readonly hookEnv: Record<string, string | undefined> = {};
  /** Each agent's own part of it (its worktree, its settings file, its token), by the agent its token names. */
  private readonly agentEnv = new Map<string, Record<string, string | undefined>>();
  private httpSeq = 0;
  /** Frames and requests refused so far (bad token, malformed, too large). */
  refused = 0;

  private constructor(
    private readonly channel: ChannelServer,
    private readonly opts: HookIntakeOptions,
  ) {}

  static async start(opts: HookIntakeOptions): Promise<HookIntake> {
    let intake: HookIntake | null = null;
    const channel = await ChannelServer.start({
      baseDir: opts.socketBaseDir,
      onFrame: (frame, conn, agent) => opts.onFrame(frame, conn, agent),
      onRefused: (code, message) => intake!.refuse(`refused a frame: ${code}: ${message}`, `${code}: ${message}`),
    });
    intake = new HookIntake(channel, opts);
    if (opts.http) {
      const self = intake;
      self.http = await HttpHookServer.start({
        token: (bearer) => channel.agentOf(bearer),
        handle: (event, raw, aborted, agent) => self.onHttpHook(event, raw, aborted, agent),
        onRefused: (code, message) => self.refuse(`refused an http hook: ${code}: ${message}`, `http ${code}: ${message}`),
      });
    }
    return intake;
  }

  private refuse(logLine: string, summary: string): void {
    this.refused += 1;
    this.opts.onRefused(logLine, summary);
  }

  /** `http://127.0.0.1:PORT` when this intake takes http hooks. */
  get httpUrl(): string | null {
    return this.http?.url ?? null;
  }

  /** What the child's environment needs to reach the socket. */
  env(): { ROZ_SOCKET: string; ROZ_TOKEN: string } {
    return this.channel.env();
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

  /** A new agent's token, for that agent's launch only (its hooks' env / http header). */
  addAgent(name: string): string {
    return this.channel.addAgent(name);
  }

  removeAgent(name: string): void {
    this.channel.removeAgent(name);
    this.agentEnv.delete(name);
  }

  /** More of the child's environment for in-process hooks: every agent's, or with `agent` that agent's only. */
  addHookEnv(extra: Record<string, string | undefined>, agent?: string): void {
    if (agent === undefined) Object.assign(this.hookEnv, extra);
    else this.agentEnv.set(agent, { ...this.agentEnv.get(agent), ...extra });
  }

  /** What the engine sees for a hook of `agent` (named by the token the request carried). */
  envFor(agent: string): Record<string, string | undefined> {
    const own = this.agentEnv.get(agent);
    return own ? { ...this.hookEnv, ...own } : this.hookEnv;
  }

  /**
   * One http hook: the engine runs here, in-process, exactly as the hook
   * process would run it; then the event goes through the same path as a
   * relayed frame (live view, human gate for an ask). The response body is
   * what the hook process would have printed.
   */
  private async onHttpHook(event: HookEventName, raw: string, aborted: AbortSignal, agent: string): Promise<string> {
    const t0 = performance.now();
    const body = await this.judgeHttpHook(event, raw, aborted, agent);
    this.opts.onHttpHook?.(event, performance.now() - t0);
    return body;
  }

  private async judgeHttpHook(event: HookEventName, raw: string, aborted: AbortSignal, agent: string): Promise<string> {
    const { runHook } = await import('../../engine/engine.js');
    // The sending agent's environment, chosen by its token: its project dir and settings file, never what it sent.
    const run = await runHook(event, raw, { env: this.envFor(agent) });
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
      this.opts.onFrame(frame, conn, agent);
    });
  }

  async close(): Promise<void> {
    await this.http?.close();
    await this.channel.close();
  }
}
