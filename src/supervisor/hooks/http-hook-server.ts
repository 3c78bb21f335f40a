// The supervisor's http hook endpoint: loopback TCP (the client's http hooks
// cannot reach a Unix socket), a bearer token compared in constant time, one
// POST per hook event at /hook/<EventName> with the hook's JSON as the body.
// Whatever the handler returns is the response body (the client reads it as
// a command hook's stdout). A request the client abandons (its timeout)
// aborts the handler's signal.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hookCliNames, type HookEventName } from '../../core/hook-input.js';

/** The events roz handles: the ones its hooks.json names (core/hook-input.ts). */
const EVENTS: ReadonlySet<string> = new Set(Object.values(hookCliNames));
const MAX_BODY = 64 * 1024 * 1024;

export interface HttpHookServerOptions {
  /** One token, or a lookup from a bearer token to the agent it belongs to (null: refused). */
  token: string | ((bearer: string) => string | null);
  /** `agent`: whose token the request carried. */
  handle: (event: HookEventName, raw: string, aborted: AbortSignal, agent: string) => Promise<string>;
  onRefused: (code: string, message: string) => void;
}

export class HttpHookServer {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(opts: HttpHookServerOptions): Promise<HttpHookServer> {
    const single = typeof opts.token === 'string' ? Buffer.from(`Bearer ${opts.token}`) : null;
    const lookup = typeof opts.token === 'function' ? opts.token : null;
    const agentOf = (header: string): string | null => {
      if (lookup) return header.startsWith('Bearer ') ? lookup(header.slice(7)) : null;
      const auth = Buffer.from(header);
      return single && auth.length === single.length && timingSafeEqual(auth, single) ? '' : null;
    };
    const server = createServer((req, res) => {
      const refuse = (status: number, code: string, message: string): void => {
        opts.onRefused(code, message);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(`${code}: ${message}\n`);
      };
      const agent = agentOf(String(req.headers.authorization ?? ''));
      if (agent === null) {
        req.resume();
        return refuse(401, 'BAD_TOKEN', 'missing or wrong bearer token');
      }
      const m = /^\/hook\/([A-Za-z]+)$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !m || !EVENTS.has(m[1]!)) {
        req.resume();
        return refuse(404, 'BAD_EVENT', `${req.method} ${req.url}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) req.destroy();
        else chunks.push(c);
      });
      const abort = new AbortController();
      // The client gave up (its hook timeout) or the connection broke.
      res.on('close', () => abort.abort());
      req.on('end', () => {
        opts
          .handle(m[1] as HookEventName, Buffer.concat(chunks).toString('utf8'), abort.signal, agent)
          .then((body) => {
            if (!res.writableEnded) res.writeHead(200, { 'content-type': 'application/json' }).end(body);
          })
          .catch((err: Error) => refuse(500, 'HOOK_FAILED', err.message));
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(0, '127.0.0.1', () => ok());
    });
    const { port } = server.address() as AddressInfo;
    return new HttpHookServer(server, `http://127.0.0.1:${port}`);
  }

  close(): Promise<void> {
    return new Promise((ok) => {
      this.server.closeAllConnections();
      this.server.close(() => ok());
    });
  }
}
