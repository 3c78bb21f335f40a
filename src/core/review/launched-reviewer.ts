// A reviewer roz starts itself (issue 33): where the agent's client has no
// roz:roz subagent (Codex CLI, Gemini CLI), or the user chose another client
// to review (`[review] reviewer_client`), the agent's Stop hook starts a
// separate client run, read-only, registered in the agent's session as a
// reviewer run before it starts, and waits for it (engine/reviewer-launch.ts).
//
// That run is a session of its own in its client, started with
// ROZ_REVIEW_OF=<the agent's session> in its environment (its hooks inherit
// it; the agent cannot change a hook's environment). Its hook events are read
// here as the agent's session's reviewer subagent events: its tool calls are
// the reviewer's (agent_id = the run's own session id, agent_type roz:roz),
// its Stop is the reviewer's SubagentStop, and the rest (its SessionStart,
// prompt, SessionEnd) are not the agent's session's business. So the one
// review policy (policy.ts) judges it: a `roz decide` counts only from the
// PreToolUse of a tool call of a run roz registered for that session and that
// is still open, exactly as for a Claude Code subagent.
// Pure.
import type { ClientId } from '../clients.js';
import type { RozConfig } from '../config.js';
import type { HookEventName, HookInput } from '../hook-input.js';
import { REVIEWER_AGENT_TYPE } from './state.js';

/** How an agent of this client is reviewed: roz's subagent inside its own client, or a client run roz starts. */
export type ReviewerRoute = { kind: 'subagent' } | { kind: 'launch'; client: ClientId };

export function reviewerRoute(agentClient: ClientId, config: RozConfig): ReviewerRoute {
  const chosen = config.review.reviewer_client;
  if (agentClient === 'claude' && chosen === 'claude') return { kind: 'subagent' };
  return { kind: 'launch', client: chosen };
}

/** A run with no configured window still ends: 30 minutes, the default window. */
const DEFAULT_WINDOW_S = 1800;

/** Claude Code's Stop hook timeout in the plugin's hooks.json: it kills the hook (and lets the stop through) after that. */
export const CLAUDE_STOP_HOOK_TIMEOUT_S = 1860;

/**
 * How long the Stop hook waits for the reviewer it started before killing it. A Claude Code agent's
 * Stop hook has a fixed timeout (hooks.json), so its reviewer's window stays a minute inside it.
 */
export function reviewerWindowSeconds(config: RozConfig, agentClient: ClientId = 'codex'): number {
  const w = config.review.reviewer_timeout_seconds > 0 ? config.review.reviewer_timeout_seconds : DEFAULT_WINDOW_S;
  return agentClient === 'claude' ? Math.min(w, CLAUDE_STOP_HOOK_TIMEOUT_S - 60) : w;
}

/** The agent's Stop hook waits for the reviewer: its client must wait longer for the hook (a minute to spare). */
export function stopHookTimeoutSeconds(config: RozConfig): number {
  return reviewerWindowSeconds(config) + 60;
}

/**
 * One hook event of a launched reviewer's own session, as the agent's session
 * sees it, or null for an event that is only the reviewer's (nothing recorded).
 */
export function asReviewerEvent(
  event: HookEventName,
  input: HookInput,
  reviewOf: string,
  runId: string | undefined,
): { event: HookEventName; input: HookInput } | null {
  // The run's id: its own session id where roz chose it (`claude --session-id`), else the one roz gave it
  // in ROZ_REVIEW_RUN (Codex names its sessions itself).
  const run = runId || input.session_id;
  const as = { ...(input as unknown as Record<string, unknown>), session_id: reviewOf, agent_id: run, agent_type: REVIEWER_AGENT_TYPE };
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return { event, input: as as unknown as HookInput };
    case 'Stop':
      // Its turn's end is the reviewer's SubagentStop: nudged once if it has not decided, then its run ends.
      return { event: 'SubagentStop', input: { ...as, hook_event_name: 'SubagentStop' } as unknown as HookInput };
    default:
      return null;
  }
}

/** Tools a launched reviewer may use: reading, and Bash (whose commands policy.ts reads, refusing writes). */
const READ_TOOLS = new Set(['Read', 'Grep', 'Glob', 'LS', 'Bash']);

/**
 * Why a launched reviewer's tool call is refused (it is read-only), or null.
 * `writes` is the shell parser's view of a Bash command's writes.
 */
export function reviewerWriteRefusal(toolName: string, writes: (() => { targets: string[]; unknown: boolean }) | null): string | null {
  if (!READ_TOOLS.has(toolName)) return `roz: the reviewer roz started is read-only: ${toolName} is not one of its tools (${[...READ_TOOLS].join(', ')}).`;
  if (toolName !== 'Bash' || !writes) return null;
  const w = writes();
  const real = w.targets.filter((t) => !t.startsWith('/dev/'));
  if (real.length || w.unknown)
    return `roz: the reviewer roz started is read-only: this command would write (${real.length ? real.join(', ') : 'somewhere roz cannot name'}). Read, and record your decision with \`roz decide\`.`;
  return null;
}

/** The prompt of a launched reviewer run: the session to review, and how to record the decision. */
export function launchedReviewerPrompt(sessionId: string, agentLabel: string, roz = 'roz'): string {
  return (
    `SESSION_ID=${sessionId}\n` +
    `Review the work of a ${agentLabel} agent in this project (session ${sessionId}). Read what the user asked and the real change with ` +
    `\`${roz} context ${sessionId}\`, check it, then record your decision with a shell command of its own: ` +
    `\`${roz} decide ${sessionId} COMPLETE "what you verified"\` or \`${roz} decide ${sessionId} ISSUES "what is wrong" --message "what the agent must fix"\`. ` +
    'You are read-only: change no file.'
  );
}

/** What the agent is told to do after ISSUES or a re-arm when roz, not the agent, starts the reviewer. */
export function launchedReviewAgain(reviewerLabel: string): string {
  return `When you have fixed this, finish your turn: roz starts the reviewer (${reviewerLabel}) again at your next stop. Do not run \`roz decide\` yourself: only the reviewer's decision counts.`;
}
