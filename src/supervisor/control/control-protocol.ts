// The control socket's wire format: one JSON request line from a `roz`
// command in the human's terminal, one JSON reply line. Human commands only;
// hook events never come here (they have their own socket, channel-server.ts).
import * as z from 'zod/mini';
import '../../core/zod-messages.js';

export const CONTROL_VERSION = 1;
/** A request is small: an id, a reason, a name. */
export const MAX_CONTROL_BYTES = 16 * 1024;

const str = z.string();
const secret = z.string().check(z.minLength(1), z.maxLength(256));
const v = z.literal(CONTROL_VERSION);

export const controlRequestSchema = z.discriminatedUnion('op', [
  z.strictObject({ v, secret, op: z.literal('queue') }),
  z.strictObject({ v, secret, op: z.literal('agents') }),
  z.strictObject({ v, secret, op: z.literal('approve'), id: str.check(z.minLength(1), z.maxLength(128)) }),
  z.strictObject({ v, secret, op: z.literal('block'), id: str.check(z.minLength(1), z.maxLength(128)), reason: str.check(z.maxLength(2000)) }),
  z.strictObject({ v, secret, op: z.literal('start'), name: str.check(z.minLength(1), z.maxLength(64)) }),
  z.strictObject({ v, secret, op: z.literal('stop'), name: str.check(z.minLength(1), z.maxLength(64)) }),
  z.strictObject({ v, secret, op: z.literal('stop-all') }),
  // The connection becomes an attach stream (attach-protocol.ts): a screen for this fleet, of this pane size.
  z.strictObject({
    v,
    secret,
    op: z.literal('attach'),
    view: str.check(z.minLength(1), z.maxLength(64)),
    cols: z.number().check(z.int(), z.minimum(1), z.maximum(2_000)),
    rows: z.number().check(z.int(), z.minimum(1), z.maximum(2_000)),
  }),
]);
export type ControlRequest = z.infer<typeof controlRequestSchema>;

/** One request of the queue as `roz queue --json` prints it. */
export interface QueueEntry {
  id: string;
  agent: string;
  tool: string;
  summary: string;
  /** ISO 8601: when the request arrived. */
  since: string;
}

/** One agent as the supervisor sees it now. */
export interface LiveAgent {
  name: string;
  /** The live state's label (core/fleet/agent-state.ts statusLabel). */
  state: string;
  pending: number;
  session: string | null;
  /** Its launch's enforcement (the supervisor's own facts); null before its launch. Absent from older supervisors. */
  enforcement?: 'enforced' | 'advisory' | null;
  /** Its branch, or `(base checkout)` / `(shared)` (core/fleet/agent-where.ts). */
  where?: string | null;
}

/**
 * Why a request failed: `auth` (wrong or missing secret), `bad-request`,
 * `unknown` (no such request), `answered` (already decided), `advisory`
 * (approve/block refused: the agents are not OS-confined), `unavailable`
 * (this run cannot start or stop agents), `failed` (the fleet host said no).
 */
export type ControlErrorCode = 'auth' | 'bad-request' | 'unknown' | 'answered' | 'advisory' | 'unavailable' | 'failed';

export type ControlReply = { ok: true; message: string; queue?: QueueEntry[]; agents?: LiveAgent[] } | { ok: false; code: ControlErrorCode; message: string };

export type ParsedControl = { ok: true; request: ControlRequest } | { ok: false; message: string };

/** Validate one request line; never throws. The secret is compared by the caller. */
export function parseControlRequest(line: string): ParsedControl {
  if (Buffer.byteLength(line) > MAX_CONTROL_BYTES) return { ok: false, message: `request over ${MAX_CONTROL_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    return { ok: false, message: `not JSON: ${(err as Error).message}` };
  }
  const parsed = controlRequestSchema.safeParse(json);
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  return { ok: true, request: parsed.data };
}
