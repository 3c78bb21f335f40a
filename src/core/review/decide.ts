// Recording a reviewer's decision. A decision counts only when a roz:roz
// reviewer run is open AND that reviewer has a `roz decide` Bash call in
// flight (registered at its PreToolUse); anything else is kept in the history
// as invalid, with the reason, and changes nothing.
import type { Decision, DecisionKind, SessionState } from './state.js';
import { openReviewers } from './state.js';

export interface DecisionRequest {
  kind: DecisionKind;
  summary: string;
  message?: string;
  opinions?: string[];
}

export type DecisionOutcome =
  | { ok: true; decision: Decision }
  | { ok: false; decision: Decision; reason: string };

export function recordDecision(state: SessionState, req: DecisionRequest, now: Date): DecisionOutcome {
  const review = state.review;
  const at = now.toISOString();
  const open = openReviewers(state);
  const issuer = open.find(([, run]) => run.decide_calls.length > 0);

  const base = {
    kind: req.kind,
    summary: req.summary,
    decided_at: at,
    ...(req.message !== undefined ? { message: req.message } : {}),
    ...(req.opinions && req.opinions.length > 0 ? { opinions: req.opinions } : {}),
  };

  if (!issuer) {
    const reason =
      open.length === 0
        ? 'no roz:roz reviewer is running for this session; a decision only counts when the reviewer records it during its own run'
        : 'this command did not come from the running roz:roz reviewer\'s Bash tool';
    const decision: Decision = { ...base, agent_id: null, valid: false, invalid_reason: reason };
    review.decision_history.push(decision);
    return { ok: false, decision, reason };
  }

  const [agentId, run] = issuer;
  run.decide_calls.shift();
  run.decided = true;
  const decision: Decision = { ...base, agent_id: agentId, valid: true };
  review.decision_history.push(decision);
  review.decision = decision;

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
  } else {
    // ISSUES keeps the review on: the next stop delivers the message and asks
    // for a new review once the agent has fixed things.
    review.enabled = true;
    review.status = 'issues';
    review.gate_approved_at = null;
  }
  return { ok: true, decision };
}
