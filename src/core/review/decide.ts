// Recording a reviewer's decision. The PreToolUse hook of the reviewer's own
// Bash call records it (policy.ts checks that the call is the roz:roz
// reviewer's, that its run is open and that the command is exactly one
// `roz decide ...`); `roz decide` itself only reports what was recorded.
import type { SessionState } from '../session-state.js';
import type { Decision, SecondOpinionPolicy } from './state.js';
import type { DecideArgs } from './decide-args.js';

export interface DecisionBy {
  agent_id: string;
  tool_use_id?: string;
  /** The worktree the reviewer saw. */
  tree?: string | null;
  covers?: string[];
  opinion_policy?: SecondOpinionPolicy;
}

export function recordDecision(state: SessionState, req: Omit<DecideArgs, 'session'>, by: DecisionBy, now: Date): Decision {
  const review = state.review;
  const at = now.toISOString();
  const decision: Decision = {
    kind: req.kind,
    summary: req.summary,
    ...(req.message !== undefined ? { message: req.message } : {}),
    ...(req.opinions && req.opinions.length > 0 ? { opinions: req.opinions } : {}),
    ...(req.no_opinion ? { no_opinion: req.no_opinion } : {}),
    ...(by.opinion_policy ? { opinion_policy: by.opinion_policy } : {}),
    decided_at: at,
    agent_id: by.agent_id,
    ...(by.tool_use_id ? { tool_use_id: by.tool_use_id } : {}),
    ...(by.tree !== undefined ? { tree: by.tree } : {}),
    ...(by.covers ? { covers: by.covers } : {}),
    valid: true,
  };
  const run = review.reviewers[by.agent_id];
  if (run) run.decided = true;
  review.decision_history.push(decision);
  review.decision = decision;
  review.rearmed = null;

  const attempt = review.attempts.at(-1);
  if (attempt && attempt.outcome === 'pending') {
    attempt.outcome = 'success';
    attempt.decision_kind = req.kind;
    attempt.blocks_needed = review.block_count;
    attempt.ended_at = at;
  }

  if (req.kind === 'complete') {
    review.status = 'approved';
    review.gate_approved_at = at;
    review.block_count = 0;
    review.issues_pending = false;
  } else {
    // ISSUES is progress: a new breaker cycle starts, and the next stop
    // delivers the message (whatever the block count) and asks for a new review.
    review.enabled = true;
    review.status = 'issues';
    review.gate_approved_at = null;
    review.block_count = 0;
    review.issues_pending = true;
  }
  return decision;
}
