// The persisted shape of one Claude Code session as roz sees it: review state,
// reviewer run windows, decision history and counters for stats.
import type { Enforcement } from '../enforce/mode.js';

export type ReviewStatus = 'idle' | 'pending' | 'blocked' | 'approved' | 'issues';
export type DecisionKind = 'complete' | 'issues';

export interface Decision {
  kind: DecisionKind;
  summary: string;
  message?: string;
  opinions?: string[];
  decided_at: string;
  /** The reviewer run this decision was recorded in, when there was one. */
  agent_id: string | null;
  valid: boolean;
  /** Why a decision did not count (recorded outside a reviewer run, ...). */
  invalid_reason?: string;
}

export type AttemptOutcome =
  | 'pending'
  | 'success'
  | 'not_spawned'
  | 'no_decision'
  | 'bad_session_id'
  | 'breaker_tripped';

export interface ReviewAttempt {
  id: number;
  template_id: string;
  blocked_at: string;
  /** Why this block happened: the first review, ISSUES feedback, or a retry. */
  reason: 'review' | 'issues' | 'retry';
  spawned_at?: string;
  reviewer_agent_id?: string;
  outcome: AttemptOutcome;
  decision_kind?: DecisionKind;
  /** Blocks in the review cycle up to and including this attempt's success. */
  blocks_needed?: number;
  bad_session_id_spawns?: number;
  self_approvals_denied?: number;
  ended_at?: string;
}

export type ReviewTrigger =
  | { kind: 'prompt'; at: string }
  | { kind: 'always'; at: string }
  | { kind: 'gate'; at: string; tool_name: string; pattern: string; command?: string };

export interface ReviewerRun {
  agent_type: string;
  started_at: string;
  stopped_at: string | null;
  /** Bash tool calls of this reviewer that run `roz decide`, not yet finished. */
  decide_calls: string[];
  decided: boolean;
}

export interface BreakerTrip {
  at: string;
  block_count: number;
  attempt_id: number | null;
  trigger: ReviewTrigger['kind'] | null;
}

export interface ReviewState {
  enabled: boolean;
  status: ReviewStatus;
  trigger: ReviewTrigger | null;
  /** Blocks in the current review cycle (reset by a new `#roz` or an approval). */
  block_count: number;
  decision: Decision | null;
  decision_history: Decision[];
  user_prompts: Array<{ text: string; at: string; truncated?: boolean }>;
  attempts: ReviewAttempt[];
  breaker: { open_until: string | null; trips: BreakerTrip[] };
  gate_approved_at: string | null;
  last_prompt_at: string | null;
  review_started_at: string | null;
  reviewers: Record<string, ReviewerRun>;
}

export interface SessionState {
  version: 1;
  session_id: string;
  created_at: string;
  updated_at: string;
  cwd: string | null;
  transcript_path: string | null;
  ended_at: string | null;
  /** Hook events seen, by event name: every hook updates this under the lock. */
  counters: Record<string, number>;
  /** PreToolUse denials by code. */
  denials: Record<string, number>;
  second_opinions: { codex: boolean; gemini: boolean } | null;
  review: ReviewState;
  /** Owned by intent governance; opaque to the review gate. */
  governance?: Record<string, unknown>;
  /** Decided at SessionStart (core/enforce/mode.ts); absent for sessions older than that. */
  enforcement?: Enforcement;
}

export function newSession(session_id: string, now: Date): SessionState {
  const at = now.toISOString();
  return {
    version: 1,
    session_id,
    created_at: at,
    updated_at: at,
    cwd: null,
    transcript_path: null,
    ended_at: null,
    counters: {},
    denials: {},
    second_opinions: null,
    review: {
      enabled: false,
      status: 'idle',
      trigger: null,
      block_count: 0,
      decision: null,
      decision_history: [],
      user_prompts: [],
      attempts: [],
      breaker: { open_until: null, trips: [] },
      gate_approved_at: null,
      last_prompt_at: null,
      review_started_at: null,
      reviewers: {},
    },
  };
}

export const REVIEWER_AGENT_TYPE = 'roz:roz';

export function isReviewer(agentType: string | undefined | null): boolean {
  return agentType === REVIEWER_AGENT_TYPE;
}

/** A reviewer run that has started and not yet stopped. */
export function openReviewers(state: SessionState): Array<[string, ReviewerRun]> {
  return Object.entries(state.review.reviewers).filter(([, r]) => r.stopped_at === null);
}

export function currentAttempt(state: SessionState): ReviewAttempt | undefined {
  const last = state.review.attempts.at(-1);
  return last && last.outcome === 'pending' ? last : undefined;
}
