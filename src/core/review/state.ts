// The review gate's part of a session (core/session-state.ts holds the whole):
// review status, reviewer run windows, attempts and decision history.

export type ReviewStatus = 'idle' | 'pending' | 'blocked' | 'approved' | 'issues';
export type DecisionKind = 'complete' | 'issues';

export interface Decision {
  kind: DecisionKind;
  summary: string;
  message?: string;
  /** Second-opinion sources the reviewer consulted. */
  opinions?: string[];
  /** Why no second opinion could be had (the reviewer's words). */
  no_opinion?: string;
  /** `[review] second_opinion` when the decision was recorded. */
  opinion_policy?: SecondOpinionPolicy;
  decided_at: string;
  /** The reviewer run this decision was recorded in, when there was one. */
  agent_id: string | null;
  /** The reviewer's `roz decide` Bash call, as the client named it. */
  tool_use_id?: string;
  /** The worktree the reviewer saw (git tree hash); null when it could not be taken. */
  tree?: string | null;
  /** Files changed from the review base to `tree`: what the decision covers. */
  covers?: string[];
  /**
   * A human's approval at a terminal (`roz agent merge NAME --human`, the TUI's `m`), not a
   * reviewer's: who approved (the trusted process's OS user). `tree` is then the branch's tree.
   */
  human?: string;
  valid: boolean;
  /** Why a decision did not count (recorded outside a reviewer run, ...). */
  invalid_reason?: string;
}

export type SecondOpinionPolicy = 'off' | 'advisory' | 'required';

/** The worktree at one moment: HEAD and a git tree of every tracked and untracked-not-ignored file. */
export interface TreeSnapshot {
  head: string | null;
  tree: string;
  at: string;
}

export type AttemptOutcome = 'pending' | 'success' | 'not_spawned' | 'no_decision' | 'bad_session_id' | 'breaker_tripped';

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
  decided: boolean;
  /**
   * How the run ended, from the client's facts: its SubagentStop, a TaskStop
   * of its id, a <task-notification> saying killed/failed, its absence from the
   * Stop payload's background_tasks, the configured window, or the session end.
   */
  end_reason?: ReviewerEnd;
  /**
   * The worktree the reviewer could have seen: snapshotted when it started
   * (SubagentStart, else its first tool call) and again at each `roz context`
   * (that call's hook). Its decision is bound to this tree (seen-tree.ts).
   */
  seen_tree?: string | null;
  seen_at?: string;
  /** It ran `roz context` of something other than this session (another session, `--last`): it read another diff. */
  read_other_context?: boolean;
  /** It ran `roz context` of this session: it read this change. */
  read_own_context?: boolean;
  /** Files other agents wrote (PostToolUse) since `seen_at`, for when no tree can be compared. */
  unseen_writes?: string[];
  /**
   * A reviewer roz started itself (launched-reviewer.ts): the client it runs on. Its run id is that
   * run's own session id; it lives only inside the agent's Stop hook that started it, and is read-only.
   */
  launched?: string;
}

export type ReviewerEnd = 'subagent_stop' | 'task_stop' | 'killed' | 'failed' | 'not_running' | 'timeout' | 'session_end' | 'exited';

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
  /** The worktree when the review was triggered: `roz context` diffs from here, commits included. */
  base?: TreeSnapshot | null;
  /** An ISSUES message not yet delivered to the agent by a Stop block. */
  issues_pending?: boolean;
  /** Files changed after an approval, which re-armed the gate (cleared by the next block). */
  rearmed?: { at: string; files: string[]; why: string } | null;
  /** decided_at of the outcome last shown to the human at a stop (shown once). */
  announced?: string | null;
}

/** A fresh session's review state: gate off, nothing asked, nothing decided. */
export function newReviewState(): ReviewState {
  return {
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
  };
}

export const REVIEWER_AGENT_TYPE = 'roz:roz';

export function isReviewer(agentType: string | undefined | null): boolean {
  return agentType === REVIEWER_AGENT_TYPE;
}

/** A reviewer run that has started and not yet stopped. */
export function openReviewers(state: { review: ReviewState }): Array<[string, ReviewerRun]> {
  return Object.entries(state.review.reviewers).filter(([, r]) => r.stopped_at === null);
}

export function currentAttempt(state: { review: ReviewState }): ReviewAttempt | undefined {
  const last = state.review.attempts.at(-1);
  return last && last.outcome === 'pending' ? last : undefined;
}
