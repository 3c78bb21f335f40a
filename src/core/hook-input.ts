// Hook event payloads as the real Claude Code client sends them (see
// shared/reference). One field list per event; unknown fields pass through so a
// newer client never breaks roz, missing required fields are reported by name.
// Checked by hand, not with zod: this runs first in every hook process, and
// building zod schemas (the library's start-up plus ~40 schema objects) cost
// ~10 ms per process against ~0.05 ms for these loops. The shapes are flat and
// few; zod stays for the nested documents (intents, ledger records, frames).

/** What a field must be; `?` marks it optional, `=` optional with the default that follows. */
type FieldKind = 'string' | 'string?' | 'string=""' | 'nonEmpty' | 'boolean?' | 'number?' | 'object={}' | 'unknown?';

/** Filled in when absent, so policies never check for absence. */
const defaults: Partial<Record<FieldKind, () => unknown>> = { 'string=""': () => '', 'object={}': () => ({}) };

interface BaseInput {
  session_id: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name: string;
  permission_mode?: string;
  prompt_id?: string;
  agent_id?: string;
  agent_type?: string;
  /** Unknown fields pass through so a newer client never breaks roz. */
  [key: string]: unknown;
}

export interface ToolHookInput extends BaseInput {
  tool_name: string;
  /** `{}` when the client sent none. */
  tool_input: Record<string, unknown>;
  tool_use_id?: string;
}

interface Inputs {
  SessionStart: BaseInput & { source?: string };
  UserPromptSubmit: BaseInput & { prompt: string };
  PreToolUse: ToolHookInput;
  PostToolUse: ToolHookInput & { tool_response?: unknown; duration_ms?: number };
  PostToolUseFailure: ToolHookInput & { error?: string; is_interrupt?: boolean; duration_ms?: number };
  Stop: BaseInput & { stop_hook_active?: boolean; last_assistant_message?: string; background_tasks?: unknown };
  SubagentStart: BaseInput & { agent_id: string; agent_type: string };
  SubagentStop: BaseInput & {
    agent_id: string;
    agent_type: string;
    agent_transcript_path?: string;
    last_assistant_message?: string;
    stop_hook_active?: boolean;
  };
  SessionEnd: BaseInput & { reason?: string };
  /** The client's own permission dialog opens (sent by both pins when it asks the human). */
  PermissionRequest: ToolHookInput & { permission_suggestions?: unknown };
  /** The client tells the human something: `permission_prompt`, `idle_prompt`. */
  Notification: BaseInput & { message: string; notification_type?: string };
}

export type HookEventName = keyof Inputs;
export type HookInput<E extends HookEventName = HookEventName> = Inputs[E];

const base: Record<string, FieldKind> = {
  session_id: 'nonEmpty',
  transcript_path: 'string?',
  cwd: 'nonEmpty',
  hook_event_name: 'string',
  permission_mode: 'string?',
  prompt_id: 'string?',
  agent_id: 'string?',
  agent_type: 'string?',
};
const tool: Record<string, FieldKind> = { ...base, tool_name: 'nonEmpty', tool_input: 'object={}', tool_use_id: 'string?' };

/** The fields each event must carry (and their kinds), as the reference documents them. */
export const hookFields: Record<HookEventName, Record<string, FieldKind>> = {
  SessionStart: { ...base, source: 'string?' },
  UserPromptSubmit: { ...base, prompt: 'string' },
  PreToolUse: tool,
  PostToolUse: { ...tool, tool_response: 'unknown?', duration_ms: 'number?' },
  PostToolUseFailure: { ...tool, error: 'string?', is_interrupt: 'boolean?', duration_ms: 'number?' },
  Stop: { ...base, stop_hook_active: 'boolean?', last_assistant_message: 'string?', background_tasks: 'unknown?' },
  SubagentStart: { ...base, agent_id: 'nonEmpty', agent_type: 'string=""' },
  SubagentStop: {
    ...base,
    agent_id: 'nonEmpty',
    agent_type: 'string=""',
    agent_transcript_path: 'string?',
    last_assistant_message: 'string?',
    stop_hook_active: 'boolean?',
  },
  SessionEnd: { ...base, reason: 'string?' },
  PermissionRequest: { ...tool, permission_suggestions: 'unknown?' },
  Notification: { ...base, message: 'string=""', notification_type: 'string?' },
};

const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Why `value` is not a `kind`, or null when it is. */
function problem(kind: FieldKind, value: unknown): string | null {
  if (value === undefined) return kind.endsWith('?') || defaults[kind] ? null : 'required, missing';
  switch (kind) {
    case 'string':
    case 'string?':
    case 'string=""':
      return typeof value === 'string' ? null : `expected a string, got ${describe(value)}`;
    case 'nonEmpty':
      return typeof value !== 'string' ? `expected a string, got ${describe(value)}` : value ? null : 'expected a non-empty string';
    case 'boolean?':
      return typeof value === 'boolean' ? null : `expected a boolean, got ${describe(value)}`;
    case 'number?':
      return typeof value === 'number' && Number.isFinite(value) ? null : `expected a number, got ${describe(value)}`;
    case 'object={}':
      return describe(value) === 'object' ? null : `expected an object, got ${describe(value)}`;
    case 'unknown?':
      return null;
  }
}

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
  'permission-request': 'PermissionRequest',
  notification: 'Notification',
};

export type ParseResult<E extends HookEventName> = { ok: true; input: HookInput<E> } | { ok: false; error: string };

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
  const input = json as Record<string, unknown>;
  const problems: string[] = [];
  for (const [field, kind] of Object.entries(hookFields[event])) {
    const why = problem(kind, input[field]);
    if (why) problems.push(`${field}: ${why}`);
    else if (input[field] === undefined && defaults[kind]) input[field] = defaults[kind]();
  }
  if (problems.length > 0) return { ok: false, error: `invalid ${event} payload: ${problems.join('; ')}` };
  return { ok: true, input: input as HookInput<E> };
}

/** Session ids become file names: refuse anything that could escape the store. */
export function isSafeSessionId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id) && !id.includes('..');
}
