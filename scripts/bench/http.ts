// What the client's `http` hook type costs instead of a process: a POST of
// the same hook JSON to a loopback server that checks a per-run token in a
// header, (a) answering a fixed verdict (the transport alone), (b) running
// roz's real engine in-process, and (c) roz's real Supervisor with http hooks
// on (what `roz run` does on 2.1.295+: token check, engine, live event path).
// New connection per request (the worst case) and keep-alive. Then the
// supervisor is closed and the same POST shows what the client meets: a
// refused connection, which its `onFailure: "block"` turns into a blocked call.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { request, Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { runHook } from '../../src/engine/engine.js';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { nowMs, preToolUseRaw, quantiles, round, sandboxEnv } from './common.js';

export async function httpHook(rounds: number, cwd: string) {
  const { env, home } = sandboxEnv();
  const token = randomBytes(32).toString('hex');
  const expected = Buffer.from(`Bearer ${token}`);
  const fixed = `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'bench' } })}\n`;
  let refused = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const auth = Buffer.from(String(req.headers.authorization ?? ''));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (auth.length !== expected.length || !timingSafeEqual(auth, expected)) {
        refused += 1;
        res.writeHead(401).end();
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = req.url === '/engine' ? (await runHook('PreToolUse', raw, { env })).stdout : fixed;
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const raw = preToolUseRaw('npm test -- --run && git diff --stat', cwd);
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
  const sup = await Supervisor.start({ env, approvalTimeoutMs: 30_000, httpHooks: true, log: () => {} });
  const supPort = Number(new URL(sup.httpUrl!).port);
  const post = (path: string, agent: Agent | false, auth = `Bearer ${token}`, to = port) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: to,
          path,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', authorization: auth, 'content-length': Buffer.byteLength(raw) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(raw);
    });
  const series: Record<string, number[]> = { fresh: [], keepalive: [], engine_fresh: [], supervisor_fresh: [] };
  const once = async (name: string) => {
    const t = nowMs();
    const status =
      name === 'fresh'
        ? await post('/fixed', false)
        : name === 'keepalive'
          ? await post('/fixed', keepAlive)
          : name === 'engine_fresh'
            ? await post('/engine', false)
            : await post('/hook/PreToolUse', false, `Bearer ${sup.token}`, supPort);
    if (status !== 200) throw new Error(`http hook bench: status ${status}`);
    return nowMs() - t;
  };
  for (let i = 0; i < 30; i++) for (const k of Object.keys(series)) await once(k);
  for (let i = 0; i < rounds; i++) for (const k of Object.keys(series)) series[k]!.push(await once(k));
  // The token check works: a request without it is refused.
  const wrong = await post('/fixed', false, 'Bearer nope');
  const supervisorWrong = await post('/hook/PreToolUse', false, 'Bearer nope', supPort);
  // The supervisor dies: the client's POST fails (ECONNREFUSED); with onFailure: "block" the call is blocked.
  await sup.close();
  const t = nowMs();
  const dead = await post('/hook/PreToolUse', false, `Bearer ${sup.token}`, supPort).then(
    (status) => `answered ${status}`,
    (err: NodeJS.ErrnoException) => err.code ?? err.message,
  );
  const deadMs = nowMs() - t;
  keepAlive.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(home, { recursive: true, force: true });
  const q = Object.fromEntries(Object.entries(series).map(([k, v]) => [k, quantiles(v)]));
  return {
    round_trips: rounds,
    post_new_connection_median_ms: round(q.fresh!.median),
    post_new_connection_p99_ms: round(q.fresh!.p99),
    post_keepalive_median_ms: round(q.keepalive!.median),
    post_with_inprocess_engine_median_ms: round(q.engine_fresh!.median),
    post_with_inprocess_engine_p99_ms: round(q.engine_fresh!.p99),
    supervisor_post_median_ms: round(q.supervisor_fresh!.median),
    supervisor_post_p99_ms: round(q.supervisor_fresh!.p99),
    // What roz adds over a bare loopback POST of the same bytes answered with a fixed verdict.
    supervisor_adds_median_ms: round(q.supervisor_fresh!.median - q.fresh!.median),
    supervisor_wrong_token_status: supervisorWrong,
    dead_supervisor_post: dead,
    dead_supervisor_detected_ms: round(deadMs),
    wrong_token_status: wrong,
    refused,
  };
}
