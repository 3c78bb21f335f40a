// Hook event payloads as the real Claude Code client sends them (see
// shared/reference). One zod schema per event; unknown fields pass through so a
// newer client never breaks roz, missing required fields are reported by name.
// zod/mini, not classic zod: the same validation, but schemas are plain objects
// instead of carrying ~50 methods each, which makes building them (on every hook
// process start) several times cheaper. See docs/performance.md.
import * as z from 'zod/mini';
import './zod-messages.js';


const str = z.string();
const nonEmpty = z.string().check(z.minLength(1));
const opt = <T extends z.core.SomeType>(t: T) => z.optional(t);

const base = z.looseObject({
  session_id: nonEmpty,
  transcript_path: opt(str),
  cwd: nonEmpty,
  hook_event_name: str,
  permission_mode: opt(str),
  prompt_id: opt(str),
  agent_id: opt(str),
  agent_type: opt(str),
});

const toolBase = z.extend(base, {
  tool_name: nonEmpty,
  tool_input: z._default(z.record(z.string(), z.unknown()), {}),
  tool_use_id: opt(str),
});

export const hookSchemas = {
  SessionStart: z.extend(base, { source: opt(str) }),
  UserPromptSubmit: z.extend(base, { prompt: str }),
  PreToolUse: toolBase,
  PostToolUse: z.extend(toolBase, { tool_response: opt(z.unknown()), duration_ms: opt(z.number()) }),
  PostToolUseFailure: z.extend(toolBase, {
    error: opt(str),
    is_interrupt: opt(z.boolean()),
    duration_ms: opt(z.number()),
  }),
  Stop: z.extend(base, { stop_hook_active: opt(z.boolean()), last_assistant_message: opt(str) }),
  SubagentStart: z.extend(base, { agent_id: nonEmpty, agent_type: z._default(str, '') }),
  SubagentStop: z.extend(base, {
    agent_id: nonEmpty,
    agent_type: z._default(str, ''),
    agent_transcript_path: opt(str),
    last_assistant_message: opt(str),
    stop_hook_active: opt(z.boolean()),
  }),
  SessionEnd: z.extend(base, { reason: opt(str) }),
} as const;

export type HookEventName = keyof typeof hookSchemas;
export type HookInput<E extends HookEventName = HookEventName> = z.infer<(typeof hookSchemas)[E]>;
export type ToolHookInput = z.infer<typeof toolBase>;

/** CLI spelling (`roz hook pre-tool-use`) -> the client's event name. */
export const hookCliNames: Record<string, HookEventName> = {
  'session-start': 'SessionStart',
  'user-prompt': 'UserPromptSubmit',
  'user-prompt-submit': 'UserPromptSubmit',
  'pre-tool-use': 'PreToolUse',
  'post-tool-use': 'PostToolUse',
  'post-tool-use-failure': 'PostToolUseFailure',
  stop: 'Stop',
  'subagent-start': 'SubagentStart',
  'subagent-stop': 'SubagentStop',
  'session-end': 'SessionEnd',
};

export type ParseResult<E extends HookEventName> =
  | { ok: true; input: HookInput<E> }
  | { ok: false; error: string };

/** Parse raw stdin for an event; never throws. */
export function parseHookInput<E extends HookEventName>(event: E, raw: string): ParseResult<E> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    const preview = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
    return { ok: false, error: `stdin is not valid JSON (${(err as Error).message}); got ${JSON.stringify(preview)}` };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { ok: false, error: 'stdin must be a JSON object' };
  }
  const result = hookSchemas[event].safeParse(json);
  if (!result.success) {
    const problems = result.error.issues
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    return { ok: false, error: `invalid ${event} payload: ${problems}` };
  }
  return { ok: true, input: result.data as HookInput<E> };
}

/** Session ids become file names: refuse anything that could escape the store. */
export function isSafeSessionId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id) && !id.includes('..');
}
