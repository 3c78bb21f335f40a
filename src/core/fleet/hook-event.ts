// Which agent-state event a hook frame is. Pure: the supervisor calls it with
// the frame of an agent it already identified by token. Asks and their answers
// are not here: the approval broker knows when a request is queued and when it
// leaves the queue, whoever answered it.
import type { AgentEvent } from './agent-state.js';

/** The reviewer subagent whose start means "reviewing". */
const REVIEWER = 'roz:roz';

export function agentEventOf(event: string, input: Record<string, unknown>, verdict: { kind: string }): AgentEvent | null {
  const str = (k: string): string => (typeof input[k] === 'string' ? (input[k] as string) : '');
  switch (event) {
    case 'SessionStart':
      // Sent by both pinned clients at startup, interactive too (a command hook: never http).
      return { kind: 'session-start' };
    case 'UserPromptSubmit':
      return verdict.kind === 'block' ? null : { kind: 'prompt' };
    case 'PreToolUse':
      // An ask is the broker's; a deny or block means no tool ran.
      if (verdict.kind === 'deny') return { kind: 'refused' };
      return verdict.kind === 'ask' || verdict.kind === 'block' ? null : { kind: 'tool' };
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return { kind: 'tool' };
    case 'Notification':
      return { kind: 'notification', type: str('notification_type'), message: str('message') };
    case 'SubagentStart':
      return str('agent_type') === REVIEWER ? { kind: 'reviewer-start' } : null;
    case 'Stop':
      return { kind: 'stop', verdict: verdict.kind === 'block' ? 'block' : 'allow' };
    default:
      return null;
  }
}
