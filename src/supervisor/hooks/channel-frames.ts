// The parts of the channel's wire format the hook process needs: constants,
// framing, and the supervisor's replies checked by hand. Kept free of zod so a
// supervised hook does not load a schema library to read five small shapes;
// the supervisor validates hook frames with zod (channel-protocol.ts).

export const PROTOCOL_VERSION = 1;
/** Frames past this size are refused: the hook truncates tool inputs to fit. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Budget for the tool input inside a frame, leaving room for the rest. */
export const INPUT_BUDGET_BYTES = 512 * 1024;

/** Supervisor -> hook. `answer` exists only on this side of the wire. */
export type ReplyFrame =
  | { v: typeof PROTOCOL_VERSION; id: string; type: 'ack' }
  /** An `ask` reached a human; heartbeats follow until the answer. */
  | { v: typeof PROTOCOL_VERSION; id: string; type: 'pending'; timeout_ms: number }
  | { v: typeof PROTOCOL_VERSION; id: string; type: 'heartbeat' }
  | { v: typeof PROTOCOL_VERSION; id: string; type: 'answer'; decision: 'allow' | 'deny'; reason: string }
  | { v: typeof PROTOCOL_VERSION; id: string; type: 'error'; code: string; message: string };

const isString = (v: unknown): v is string => typeof v === 'string';

/** A reply as the supervisor sends it, or null for anything else (the hook then falls back). */
export function parseReplyFrame(value: unknown): ReplyFrame | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const f = value as Record<string, unknown>;
  if (f.v !== PROTOCOL_VERSION || !isString(f.id)) return null;
  const head = { v: PROTOCOL_VERSION, id: f.id } as const;
  switch (f.type) {
    case 'ack':
    case 'heartbeat':
      return { ...head, type: f.type };
    case 'pending':
      return typeof f.timeout_ms === 'number' ? { ...head, type: 'pending', timeout_ms: f.timeout_ms } : null;
    case 'answer':
      return (f.decision === 'allow' || f.decision === 'deny') && isString(f.reason)
        ? { ...head, type: 'answer', decision: f.decision, reason: f.reason }
        : null;
    case 'error':
      return isString(f.code) && isString(f.message) ? { ...head, type: 'error', code: f.code, message: f.message } : null;
    default:
      return null;
  }
}

export function encodeFrame(frame: unknown): string {
  return `${JSON.stringify(frame)}\n`;
}
