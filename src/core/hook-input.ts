// Hook event payloads as the real Claude Code client sends them (see
// shared/reference). One zod schema per event; unknown fields pass through so a
// newer client never breaks roz, missing required fields are reported by name.
import { z } from 'zod';

const base = z
  .object({
    session_id: z.string().min(1),
    transcript_path: z.string().optional(),
    cwd: z.string().min(1),
    hook_event_name: z.string(),
    permission_mode: z.string().optional(),
    prompt_id: z.string().optional(),
    agent_id: z.string().optional(),
    agent_type: z.string().optional(),
  })
  .passthrough();

const toolBase = base.extend({
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()).default({}),
  tool_use_id: z.string().optional(),
});

export const hookSchemas = {
  SessionStart: base.extend({ source: z.string().optional() }),
  UserPromptSubmit: base.extend({ prompt: z.string() }),
  PreToolUse: toolBase,
  PostToolUse: toolBase.extend({ tool_response: z.unknown().optional(), duration_ms: z.number().optional() }),
  PostToolUseFailure: toolBase.extend({
    error: z.string().optional(),
    is_interrupt: z.boolean().optional(),
    duration_ms: z.number().optional(),
  }),
  Stop: base.extend({ stop_hook_active: z.boolean().optional(), last_assistant_message: z.string().optional() }),
  SubagentStart: base.extend({ agent_id: z.string().min(1), agent_type: z.string().default('') }),
  SubagentStop: base.extend({
    agent_id: z.string().min(1),
    agent_type: z.string().default(''),
    agent_transcript_path: z.string().optional(),
    last_assistant_message: z.string().optional(),
    stop_hook_active: z.boolean().optional(),
  }),
  SessionEnd: base.extend({ reason: z.string().optional() }),
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
