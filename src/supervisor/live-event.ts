// One hook event as the live trace shows it: a slim copy of the frame (tool
// input capped) so a ring of thousands stays small.
import { humanReason } from '../core/human-reason.js';
import { clip, truncateValue } from '../core/truncate.js';
import type { HookFrame, WireVerdict } from './hooks/channel-protocol.js';

export const LIVE_INPUT_LIMIT = 4_096;

export interface LiveEvent {
  seq: number;
  at: number;
  event: string;
  session_id: string;
  /** The fleet agent whose token sent it (the supervisor's word, never the frame's). */
  agent?: string;
  agent_type?: string;
  tool_name?: string;
  /** One line: the command, file, prompt or reason. */
  summary: string;
  verdict: WireVerdict;
  /** The code of a deny/ask verdict, for filtering. */
  code?: string;
  /** Why it was asked or denied, in one line for the human (core/human-reason.ts). */
  why?: string;
  /** A bounded copy of the hook input, for the detail view. */
  input: unknown;
}

function detailOf(input: Record<string, unknown>): string {
  const ti = input.tool_input as Record<string, unknown> | undefined;
  if (ti && typeof ti === 'object') {
    const d = ti.command ?? ti.file_path ?? ti.subagent_type ?? ti.pattern ?? ti.url ?? '';
    return typeof d === 'string' ? d : JSON.stringify(d);
  }
  for (const k of ['prompt', 'source', 'reason', 'last_assistant_message']) {
    if (typeof input[k] === 'string') return input[k] as string;
  }
  return '';
}

export function toLiveEvent(frame: HookFrame, seq: number, at: number): LiveEvent {
  const input = frame.input;
  const v = frame.verdict;
  const ev: LiveEvent = {
    seq,
    at,
    event: frame.event,
    session_id: typeof input.session_id === 'string' ? input.session_id : '',
    summary: clip(detailOf(input), 200),
    verdict: v,
    input: truncateValue(input, LIVE_INPUT_LIMIT).value,
  };
  if (typeof input.tool_name === 'string') ev.tool_name = input.tool_name;
  if (typeof input.agent_type === 'string') ev.agent_type = input.agent_type;
  if (v.kind === 'deny' || v.kind === 'ask') {
    ev.code = v.code;
    ev.why = humanReason(v as Parameters<typeof humanReason>[0]) ?? v.code;
  }
  return ev;
}

/** A supervisor-side happening (refused frame, human decision) in the same stream. */
export function noticeEvent(seq: number, at: number, event: string, summary: string, session_id = '', input: unknown = null): LiveEvent {
  return {
    seq,
    at,
    event,
    session_id,
    summary: clip(summary, 200),
    verdict: { kind: 'none' },
    input: input === null ? null : truncateValue(input, LIVE_INPUT_LIMIT).value,
  };
}
