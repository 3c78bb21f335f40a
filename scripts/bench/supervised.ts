// Supervised hook cost: one PreToolUse event through the real channel client
// and the real supervisor (src/supervisor), against a bare Unix-socket round
// trip of the same bytes (connect, write the frame, read one reply line,
// close). Both run interleaved in one process, so only the difference counts.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Verdict } from '../../src/core/verdict.js';
import { relayToSupervisor } from '../../src/supervisor/hooks/channel-client.js';
import { encodeFrame, PROTOCOL_VERSION } from '../../src/supervisor/hooks/channel-protocol.js';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { nowMs, preToolUseRaw, quantiles, round, sandboxEnv } from './common.js';

const ALLOW: Verdict = { kind: 'allow', reason: 'bench' };

/** A server that answers each newline-terminated line with an ack of the same shape the supervisor sends. */
async function bareServer(): Promise<{ path: string; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'roz-bench-bare-'));
  const path = join(dir, 'bare.sock');
  const server: Server = createServer((socket) => {
    let buf = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        buf = buf.slice(nl + 1);
        socket.write(`${JSON.stringify({ v: PROTOCOL_VERSION, id: 'x'.repeat(36), type: 'ack' })}\n`);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((res) => server.listen(path, res));
  return { path, close: () => new Promise<void>((res) => server.close(() => (rmSync(dir, { recursive: true, force: true }), res()))) };
}

function bareRoundTrip(path: string, bytes: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    let buf = '';
    s.on('connect', () => s.write(bytes));
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      buf += d;
      if (buf.includes('\n')) {
        s.destroy();
        resolve();
      }
    });
    s.on('error', reject);
  });
}

export async function supervised(rounds: number) {
  const { env, home } = sandboxEnv();
  const sup = await Supervisor.start({ env, approvalTimeoutMs: 10_000, log: () => {} });
  const childEnv = { ...env, ...sup.childEnv() };
  const bare = await bareServer();
  const raw = preToolUseRaw();
  // The same frame the client builds (fresh id per event).
  const frameBytes = () =>
    encodeFrame({
      v: PROTOCOL_VERSION,
      id: randomUUID(),
      token: sup.token,
      event: 'PreToolUse',
      input: JSON.parse(raw),
      verdict: ALLOW,
      deadline: Date.now() + 20_000,
    });
  const sup_ms: number[] = [];
  const bare_ms: number[] = [];
  let fallbacks = 0;
  const one = async (which: 'sup' | 'bare') => {
    const t = nowMs();
    if (which === 'sup') {
      const r = await relayToSupervisor({ event: 'PreToolUse', raw, stderr: '', verdict: ALLOW, env: childEnv, deadline: Date.now() + 20_000 });
      if (r.outcome !== 'notified') fallbacks += 1;
      return nowMs() - t;
    }
    await bareRoundTrip(bare.path, frameBytes());
    return nowMs() - t;
  };
  // Warm-up: JIT, zod schemas, socket paths.
  for (let i = 0; i < 50; i++) {
    await one('sup');
    await one('bare');
  }
  const before = sup.events.total;
  for (let i = 0; i < rounds; i++) {
    // Alternate the order so neither side always goes first.
    if (i % 2) {
      sup_ms.push(await one('sup'));
      bare_ms.push(await one('bare'));
    } else {
      bare_ms.push(await one('bare'));
      sup_ms.push(await one('sup'));
    }
  }
  const seen = sup.events.total - before;
  await sup.close();
  await bare.close();
  rmSync(home, { recursive: true, force: true });
  const s = quantiles(sup_ms);
  const b = quantiles(bare_ms);
  return {
    round_trips: rounds,
    frame_bytes: Buffer.byteLength(frameBytes()),
    supervised_median_ms: round(s.median),
    supervised_p99_ms: round(s.p99),
    baseline_bare_socket_median_ms: round(b.median),
    baseline_bare_socket_p99_ms: round(b.p99),
    added_median_ms: round(s.median - b.median),
    added_p99_ms: round(s.p99 - b.p99),
    events_seen_by_supervisor: seen,
    fallbacks,
  };
}

/** A supervisor for the hook-process benchmark: prints its child env as one JSON line, runs until stdin closes. */
export async function supervisorServer(): Promise<void> {
  const { env, home } = sandboxEnv();
  const sup = await Supervisor.start({ env, approvalTimeoutMs: 10_000, log: () => {} });
  process.stdout.write(`${JSON.stringify(sup.childEnv())}\n`);
  process.stdin.resume();
  process.stdin.on('end', async () => {
    process.stderr.write(`${JSON.stringify({ events: sup.events.total })}\n`);
    await sup.close();
    rmSync(home, { recursive: true, force: true });
    process.exit(0);
  });
}
