// The attach stream's wire format (`roz attach`, and `roz run` of an enforced
// launch): after an authenticated `attach` request on the control socket
// (control-protocol.ts), JSON lines both ways. The supervisor pushes what a
// screen draws (agents, each agent's pty output, the snapshot of the agent
// in view, queue, live events) and `end` when every agent exited; the
// screen sends the human's keys, answers and fleet actions. Every line from
// a client is validated here; a bad one is answered with an error line and
// never takes the supervisor down.
import * as z from 'zod/mini';
import '../../core/zod-messages.js';
import type { QueuedRequest } from '../../core/fleet/queue.js';
import type { ScreenAgent } from './fleet-connection.js';
import type { LiveEvent } from '../live-event.js';
import type { SessionStats } from '../session-stats.js';
import type { AgentOverview, SupervisorSnapshot } from '../view.js';

/** A client line: keys (a paste is chunked by the terminal, not megabytes), an answer, a name. */
export const MAX_ATTACH_LINE = 256 * 1024;
/** What the supervisor keeps of each agent's pty output to replay to a screen that attaches. */
export const PTY_REPLAY_CHARS = 256 * 1024;
/** The live events a screen gets when it attaches (the trace view shows fewer). */
export const HELLO_EVENTS = 1_000;

const name = z.string().check(z.minLength(1), z.maxLength(64));
const dim = z.number().check(z.int(), z.minimum(1), z.maximum(2_000));
const rid = z.number().check(z.int(), z.minimum(0));

const humanAnswer = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('approve-once') }),
  z.strictObject({ action: z.literal('approve-session') }),
  z.strictObject({ action: z.literal('widen') }),
  z.strictObject({ action: z.literal('block'), reason: z.string().check(z.maxLength(2000)) }),
]);

export const attachClientSchema = z.discriminatedUnion('t', [
  // `kind: 'reply'`: the screen's terminal answering the agent's query (cursor position, device attributes), not a key
  // the human typed; the supervisor takes those from one screen only (attach-hub.ts).
  z.strictObject({
    t: z.literal('input'),
    agent: name,
    data: z.string().check(z.maxLength(MAX_ATTACH_LINE)),
    kind: z.optional(z.literal('reply')),
  }),
  z.strictObject({ t: z.literal('resize'), cols: dim, rows: dim }),
  z.strictObject({ t: z.literal('view'), agent: name }),
  z.strictObject({ t: z.literal('answer'), id: z.string().check(z.minLength(1), z.maxLength(128)), answer: humanAnswer }),
  z.strictObject({ t: z.literal('intent'), rid, agent: name, intent: z.nullable(z.string().check(z.minLength(1), z.maxLength(256))) }),
  z.strictObject({ t: z.literal('stats'), session: z.string().check(z.minLength(1), z.maxLength(256)) }),
  z.strictObject({ t: z.literal('add'), rid, name, prompt: z.optional(z.string().check(z.minLength(1), z.maxLength(16_384))) }),
  z.strictObject({ t: z.literal('merge'), rid, name }),
  z.strictObject({ t: z.literal('human-merge'), rid, name, head: z.string().check(z.regex(/^[0-9a-f]{40}$/)) }),
  z.strictObject({ t: z.literal('stop'), rid, name }),
]);
export type AttachClientLine = z.infer<typeof attachClientSchema>;

/** The supervisor's lines. */
export type AttachServerLine =
  | { t: 'hello'; notes: string[]; agents: ScreenAgent[]; replay: Record<string, string>; events: LiveEvent[] }
  | {
      t: 'state';
      /** `decided` is left out (null) when it did not change since this screen's last state line: the screen keeps its copy. */
      snapshot: Omit<SupervisorSnapshot, 'decided'> & { decided: SupervisorSnapshot['decided'] | null };
      agents: AgentOverview[];
      queue: QueuedRequest[];
      /** Live events newer than the last state line's. */
      events: LiveEvent[];
      total: number;
    }
  | { t: 'agents'; agents: ScreenAgent[] }
  /** `resync`: the agent's newest output (the supervisor's tail) replacing what the screen had of it: it comes into view. */
  | { t: 'pty'; agent: string; data: string; resync?: true }
  | { t: 'reply'; rid: number; ok: boolean; message: string; review?: boolean }
  | { t: 'answered'; id: string; ok: boolean; message: string }
  | { t: 'stats'; session: string; stats: SessionStats | null }
  | { t: 'error'; message: string }
  | { t: 'end'; code: number; stats: Array<SessionStats | null> };

export type ParsedAttach = { ok: true; line: AttachClientLine } | { ok: false; message: string };

/** Validate one client line; never throws. */
export function parseAttachLine(text: string): ParsedAttach {
  if (text.length > MAX_ATTACH_LINE * 2) return { ok: false, message: `line over ${MAX_ATTACH_LINE} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `not JSON: ${(err as Error).message}` };
  }
  const parsed = attachClientSchema.safeParse(json);
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  return { ok: true, line: parsed.data };
}

/** Splits a byte stream into lines, refusing one that grows past `max` characters without a newline. */
export class LineSplitter {
  /** The unfinished line, in the chunks it came in (a long line is joined once, not re-scanned per chunk). */
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly max: number) {}

  /** The complete lines in `chunk` (and before it); `overflow` when the unfinished one is too long (the buffer is dropped). */
  push(chunk: string): { lines: string[]; overflow: boolean } {
    const lines: string[] = [];
    let from = 0;
    let nl = chunk.indexOf('\n');
    while (nl >= 0) {
      this.parts.push(chunk.slice(from, nl));
      lines.push(this.parts.join(''));
      this.parts = [];
      this.size = 0;
      from = nl + 1;
      nl = chunk.indexOf('\n', from);
    }
    const rest = chunk.slice(from);
    if (rest) {
      this.parts.push(rest);
      this.size += rest.length;
    }
    if (this.size > this.max) {
      this.parts = [];
      this.size = 0;
      return { lines, overflow: true };
    }
    return { lines, overflow: false };
  }
}
