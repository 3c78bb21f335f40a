// The hook's end of the channel (loaded by the lean hook process, so no UI
// here): tell a running `roz run` supervisor what the engine decided and, for
// an `ask`, wait for the human's answer. Every wait is bounded; when the
// supervisor is gone or hangs, the engine's own verdict stands. It passes a
// verdict back, never the client's JSON: that is rendered in one place
// (engine/output.ts) by the hook process.
import { connect } from 'node:net';
import { truncateValue } from '../../core/truncate.js';
import type { Verdict } from '../../core/verdict.js';
import { encodeFrame, INPUT_BUDGET_BYTES, parseReplyFrame, PROTOCOL_VERSION, type ReplyFrame } from './channel-frames.js';
// Types only: the zod schemas behind them stay in the supervisor.
import type { HookFrame } from './channel-protocol.js';

/** Bounds on every wait of a hook on the supervisor (documented in docs/supervisor.md). */
export const CONNECT_TIMEOUT_MS = 200;
export const NOTIFY_TIMEOUT_MS = 500;
/** While a human decides, the supervisor sends a heartbeat each second; silence this long means it hangs. */
export const HEARTBEAT_GAP_MS = 2_500;

export interface Relayed {
  /** The verdict that stands: the human's answer, or the engine's own. */
  verdict: Verdict;
  stderr: string;
  /** How it went, for tests and stderr: answered, notified, or why it fell back. */
  outcome: 'answered' | 'notified' | 'fallback';
}

export interface RelayRequest {
  event: string;
  raw: string;
  stderr: string;
  verdict: Verdict;
  env: Record<string, string | undefined>;
  /** Epoch ms by which the hook must have answered the client. */
  deadline: number;
}

/** Keep each big field of the hook input inside the frame budget. */
export function frameInput(raw: string): Record<string, unknown> {
  let input: Record<string, unknown>;
  try {
    const parsed = JSON.parse(raw) as unknown;
    input = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { raw: parsed };
  } catch {
    input = { unparsed: raw.slice(0, 2_000) };
  }
  if (raw.length <= INPUT_BUDGET_BYTES) return input;
  const out: Record<string, unknown> = {};
  const share = Math.floor(INPUT_BUDGET_BYTES / Math.max(1, Object.keys(input).length));
  for (const [k, v] of Object.entries(input)) {
    const t = truncateValue(v, share);
    out[k] = t.truncated ? { roz_truncated: true, ...t } : v;
  }
  return out;
}

/** The human's answer to an `ask` as a verdict; a refusal keeps the ask's code and shows the reason as the supervisor worded it. */
export function answerVerdict(asked: Verdict, decision: 'allow' | 'deny', reason: string): Verdict {
  if (decision === 'allow') return { kind: 'allow', reason };
  return { kind: 'deny', code: asked.kind === 'ask' || asked.kind === 'deny' ? asked.code : 'HUMAN_GATE', reason, bare: true };
}

export async function relayToSupervisor(req: RelayRequest): Promise<Relayed> {
  const path = req.env.ROZ_SOCKET ?? '';
  const token = req.env.ROZ_TOKEN ?? '';
  const isAsk = req.verdict.kind === 'ask';
  const fallback = (why: string): Relayed => ({
    verdict: req.verdict,
    stderr: req.stderr + `roz: supervisor ${why}; ${isAsk ? "using the hook's own verdict (the client will ask)" : 'event not shown in roz run'}\n`,
    outcome: 'fallback',
  });
  if (!token) return fallback('token missing (ROZ_TOKEN unset)');

  const frame: HookFrame = {
    v: PROTOCOL_VERSION,
    // Only matches replies to this request on this connection (the token authenticates).
    id: `${process.pid.toString(36)}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
    token,
    event: req.event,
    input: frameInput(req.raw),
    verdict: req.verdict as HookFrame['verdict'],
    deadline: req.deadline,
  };

  return new Promise<Relayed>((resolve) => {
    let settled = false;
    let buffered = '';
    let timer: NodeJS.Timeout | undefined;
    const socket = connect(path);
    const settle = (r: Relayed): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    // Each phase re-arms one timer: connect, first reply, then heartbeats.
    const arm = (ms: number, why: string): void => {
      if (timer) clearTimeout(timer);
      const left = Math.max(0, req.deadline - Date.now());
      timer = setTimeout(() => settle(fallback(why)), Math.min(ms, left));
    };
    arm(CONNECT_TIMEOUT_MS, `did not accept a connection within ${CONNECT_TIMEOUT_MS} ms`);
    socket.on('connect', () => {
      arm(NOTIFY_TIMEOUT_MS, `did not answer within ${NOTIFY_TIMEOUT_MS} ms`);
      socket.write(encodeFrame(frame));
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let reply: ReplyFrame;
        try {
          const parsed = parseReplyFrame(JSON.parse(line));
          if (!parsed) return settle(fallback('sent an unreadable reply'));
          reply = parsed;
        } catch {
          return settle(fallback('sent an unreadable reply'));
        }
        if (reply.type === 'error') return settle(fallback(`refused the event (${reply.code}: ${reply.message})`));
        if (reply.id !== frame.id) continue;
        if (reply.type === 'ack') return settle({ verdict: req.verdict, stderr: req.stderr, outcome: 'notified' });
        if (!isAsk) continue;
        if (reply.type === 'pending' || reply.type === 'heartbeat') {
          arm(HEARTBEAT_GAP_MS, `stopped responding while a human decided (no heartbeat for ${HEARTBEAT_GAP_MS} ms)`);
          continue;
        }
        if (reply.type === 'answer') {
          return settle({ verdict: answerVerdict(req.verdict, reply.decision, reply.reason), stderr: req.stderr, outcome: 'answered' });
        }
      }
    });
    socket.on('error', (err) => settle(fallback(`unreachable (${(err as NodeJS.ErrnoException).code ?? err.message})`)));
    socket.on('close', () => settle(fallback('closed the connection before answering')));
  });
}
