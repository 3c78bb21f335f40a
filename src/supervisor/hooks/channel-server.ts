// The supervisor's end of the channel: a Unix socket in a private directory,
// authenticated by a token per agent: each agent's launch carries its own, so
// the token a frame brings is what says which agent sent it (never a cwd,
// session id or name inside the frame). It validates frames and hands good
// ones on with that agent's name; everything refused is logged and the
// connection dropped.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIRST_AGENT } from '../../core/fleet/agent-name.js';
import { encodeFrame, MAX_FRAME_BYTES, parseHookFrame, PROTOCOL_VERSION, type HookFrame, type ReplyFrame } from './channel-protocol.js';

/** One hook's connection, as the supervisor sees it. */
export interface HookConnection {
  reply(frame: ReplyFrame): void;
  readonly closed: boolean;
  onClose(fn: () => void): void;
}

export interface ChannelServerOptions {
  /** A good frame and the agent whose token it carried. */
  onFrame: (frame: HookFrame, conn: HookConnection, agent: string) => void;
  /** A refused frame or connection: what and why, for the supervisor's log. */
  onRefused: (code: string, message: string) => void;
  /** Parent of the private directory (tests); default the OS temp dir. */
  baseDir?: string;
  /** The first agent's name (the one `roz run` starts); default `main`. */
  firstAgent?: string;
}

/** The agent `roz run` starts in the current checkout (defined beside the agent-name rules, which reserve it). */

export class ChannelServer {
  /** The first agent's token. */
  readonly token: string;
  /** token -> agent name. */
  private readonly tokens = new Map<string, string>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly dir: string,
    readonly path: string,
    private readonly server: Server,
    firstAgent: string,
  ) {
    this.token = this.addAgent(firstAgent);
  }

  /** A new agent's token (for that agent's launch only). Names are unique. */
  addAgent(name: string): string {
    if ([...this.tokens.values()].includes(name)) throw new Error(`agent ${name} already has a token`);
    const token = randomBytes(32).toString('hex');
    this.tokens.set(token, name);
    return token;
  }

  /** Forget an agent's token: its hooks are refused from now on. */
  removeAgent(name: string): void {
    for (const [t, n] of this.tokens) if (n === name) this.tokens.delete(t);
  }

  /** The agent a token belongs to, or null. Every token is compared in constant time. */
  agentOf(given: string): string | null {
    const a = Buffer.from(given);
    let found: string | null = null;
    for (const [t, name] of this.tokens) {
      const b = Buffer.from(t);
      if (a.length === b.length && timingSafeEqual(a, b)) found = name;
    }
    return found;
  }

  static async start(opts: ChannelServerOptions): Promise<ChannelServer> {
    // mkdtemp creates the directory 0700: no other user can reach the socket.
    const dir = mkdtempSync(join(opts.baseDir ?? tmpdir(), 'roz-run-'));
    chmodSync(dir, 0o700);
    const path = join(dir, 'roz.sock');
    const server = createServer();
    const channel = new ChannelServer(dir, path, server, opts.firstAgent ?? FIRST_AGENT);
    server.on('connection', (socket) => channel.accept(socket, opts));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    chmodSync(path, 0o600);
    return channel;
  }

  /** What the child's environment needs to reach this supervisor. */
  env(): { ROZ_SOCKET: string; ROZ_TOKEN: string } {
    return { ROZ_SOCKET: this.path, ROZ_TOKEN: this.token };
  }

  private accept(socket: Socket, opts: ChannelServerOptions): void {
    this.sockets.add(socket);
    let buffered = '';
    let closed = false;
    const closers: Array<() => void> = [];
    const conn: HookConnection = {
      reply: (frame) => {
        if (!closed && socket.writable) socket.write(encodeFrame(frame));
      },
      get closed() {
        return closed;
      },
      onClose: (fn) => void closers.push(fn),
    };
    const refuse = (code: string, id: string | null, message: string): void => {
      opts.onRefused(code, message);
      conn.reply({ v: PROTOCOL_VERSION, id: id ?? '', type: 'error', code, message });
      socket.end();
      socket.destroySoon?.();
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (closed) return;
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (!line.trim()) continue;
        const parsed = parseHookFrame(line);
        if (!parsed.ok) return refuse(parsed.code, parsed.id, parsed.message);
        const agent = this.agentOf(parsed.frame.token);
        if (agent === null) return refuse('BAD_TOKEN', parsed.frame.id, 'wrong token');
        opts.onFrame(parsed.frame, conn, agent);
      }
      // Refuse early: never buffer an unbounded line from a peer.
      if (Buffer.byteLength(buffered) > MAX_FRAME_BYTES) {
        buffered = '';
        refuse('TOO_LARGE', null, `frame over ${MAX_FRAME_BYTES} bytes`);
      }
    });
    const onGone = (): void => {
      if (closed) return;
      closed = true;
      this.sockets.delete(socket);
      closers.splice(0).forEach((fn) => fn());
    };
    socket.on('close', onGone);
    socket.on('error', onGone);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
