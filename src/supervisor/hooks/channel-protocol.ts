// The supervisor channel's wire format: newline-delimited JSON frames. Hook ->
// supervisor frames carry events and verdicts only; no field of them can
// approve anything. The supervisor validates them here with zod; the hook's
// side (constants, replies) is channel-frames.ts, which loads no zod.
import * as z from 'zod/mini';
import '../../core/zod-messages.js';
import { MAX_FRAME_BYTES, PROTOCOL_VERSION } from './channel-frames.js';

export { encodeFrame, INPUT_BUDGET_BYTES, MAX_FRAME_BYTES, PROTOCOL_VERSION, type ReplyFrame } from './channel-frames.js';

const str = z.string();
const v = z.literal(PROTOCOL_VERSION);

const verdictSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('allow'), reason: z.optional(str) }),
  z.object({
    kind: z.literal('ask'),
    code: str,
    reason: str,
    // One line for the human (core/human-reason.ts); `reason` is the agent's text.
    human: z.optional(str),
    // A suggestion only: the human sees the globs and decides; the supervisor re-checks them.
    widen: z.optional(z.object({ intent_id: str, globs: z.array(str).check(z.maxLength(20)) })),
  }),
  z.object({ kind: z.literal('deny'), code: str, reason: str, human: z.optional(str) }),
  z.object({ kind: z.literal('block'), reason: str }),
  z.object({ kind: z.literal('context'), text: str }),
]);
export type WireVerdict = z.infer<typeof verdictSchema>;

/** What a hook process sends after the engine has decided. */
export const hookFrameSchema = z.strictObject({
  v,
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  token: z.string().check(z.minLength(1), z.maxLength(256)),
  event: z.string().check(z.minLength(1), z.maxLength(64)),
  /** The hook's stdin as the client sent it (tool input possibly truncated). */
  input: z.record(z.string(), z.unknown()),
  verdict: verdictSchema,
  /** Epoch ms after which the hook stops waiting (it must answer the client in time). */
  deadline: z.optional(z.int().check(z.positive())),
});
export type HookFrame = z.infer<typeof hookFrameSchema>;

export type FrameProblem = 'TOO_LARGE' | 'BAD_JSON' | 'BAD_VERSION' | 'BAD_FRAME' | 'BAD_TOKEN';

export type ParsedFrame = { ok: true; frame: HookFrame } | { ok: false; code: FrameProblem; id: string | null; message: string };

/** Validate one line from a hook; never throws. The token is compared in constant time by the caller. */
export function parseHookFrame(line: string): ParsedFrame {
  if (Buffer.byteLength(line) > MAX_FRAME_BYTES) return { ok: false, code: 'TOO_LARGE', id: null, message: `frame over ${MAX_FRAME_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    return { ok: false, code: 'BAD_JSON', id: null, message: (err as Error).message };
  }
  const obj = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  const id = typeof obj?.id === 'string' ? obj.id.slice(0, 64) : null;
  if (obj && obj.v !== PROTOCOL_VERSION) return { ok: false, code: 'BAD_VERSION', id, message: `unsupported protocol version ${JSON.stringify(obj.v)}` };
  const parsed = hookFrameSchema.safeParse(json);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { ok: false, code: 'BAD_FRAME', id, message: why };
  }
  return { ok: true, frame: parsed.data };
}
