// The supervisor's end of the channel: a Unix socket in a private directory,
// authenticated by a per-run token. It validates frames and hands good ones
// on; everything refused is logged and the connection dropped.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFrame, MAX_FRAME_BYTES, parseHookFrame, PROTOCOL_VERSION, type HookFrame, type ReplyFrame } from './channel-protocol.js';

/** One hook's connection, as the supervisor sees it. */
export interface HookConnection {
  reply(frame: ReplyFrame): void;
  readonly closed: boolean;
  onClose(fn: () => void): void;
}

export interface ChannelServerOptions {
  onFrame: (frame: HookFrame, conn: HookConnection) => void;
  /** A refused frame or connection: what and why, for the supervisor's log. */
  onRefused: (code: string, message: string) => void;
  /** Parent of the private directory (tests); default the OS temp dir. */
  baseDir?: string;
}

export class ChannelServer {
  readonly token = randomBytes(32).toString('hex');
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly dir: string,
    readonly path: string,
    private readonly server: Server,
  ) {}

  static async start(opts: ChannelServerOptions): Promise<ChannelServer> {
    // mkdtemp creates the directory 0700: no other user can reach the socket.
    const dir = mkdtempSync(join(opts.baseDir ?? tmpdir(), 'roz-run-'));
    chmodSync(dir, 0o700);
    const path = join(dir, 'roz.sock');
    const server = createServer();
    const channel = new ChannelServer(dir, path, server);
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

  private tokenOk(given: string): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(this.token);
    return a.length === b.length && timingSafeEqual(a, b);
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
        if (!this.tokenOk(parsed.frame.token)) return refuse('BAD_TOKEN', parsed.frame.id, 'wrong token');
        opts.onFrame(parsed.frame, conn);
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
