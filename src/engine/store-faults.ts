// What a hook answers when roz's own session state is broken: the lock is held
// past its bound, the store cannot be read or written, or the document was not
// what roz wrote (repaired or replaced, with the original in quarantine).
// Decided per event, as the house rule says: governed changes and gated
// actions fail CLOSED (HOOK_ERROR), because allowing them needs state roz does
// not have; the review gate's own bookkeeping fails OPEN, loudly, because a
// gate that cannot record its blocks would wedge the user with no breaker.
import type { SessionState } from '../core/session-state.js';
import type { Verdict } from '../core/verdict.js';

/** A PreToolUse that needs session state to be allowed (a governed change, a gated action, a decision) is refused. */
export function refusedWithoutState(probe: Verdict, why: string): Verdict | null {
  if (probe.kind !== 'deny' && probe.kind !== 'ask') return null;
  return {
    kind: 'deny',
    code: 'HOOK_ERROR',
    reason:
      `roz: this call needs roz's session state (it ${probe.kind === 'ask' ? 'needs a human' : 'is a governed change or a gated action'}: ${probe.code}), ` +
      `and that state is unusable: ${why}. It is refused until that is fixed. ` +
      'Tell the human (roz debug shows the session); read-only work can continue.',
  };
}

/** The warning of a Stop that was let through while a review may have been due. Meant to be impossible to miss. */
export function gateNotEnforced(sessionId: string, why: string, known: boolean): string {
  return (
    `roz: ⚠ REVIEW GATE NOT ENFORCED ⚠ ${known ? 'A review was pending for this session, but' : 'If a review was pending for this session,'} ` +
    `the agent was allowed to stop WITHOUT it: ${why}. The work has not been reviewed. ` +
    `Check it yourself, or type #roz to ask for a review again (roz debug ${sessionId}).`
  );
}

/** A review the faulty document had on stays on in the fresh state: a broken file must not switch review off. */
export function rearmReview(state: SessionState, now: Date): void {
  const review = state.review;
  review.enabled = true;
  review.status = 'pending';
  review.trigger ??= { kind: 'prompt', at: now.toISOString() };
  review.review_started_at ??= now.toISOString();
}

/** Whether a (snapshot of a) session has a review on that a stop would be gated by. */
export function reviewDue(state: SessionState | null): boolean {
  const s = state?.review.status;
  return !!state?.review.enabled && (s === 'pending' || s === 'blocked' || s === 'issues');
}
