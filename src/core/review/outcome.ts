// What a session's review came to, in words and numbers: the message shown at
// the stop an approval lets through, the reminder after a compaction, the
// verdict a status line shows, and the exit code `roz exec --require-review`
// uses. Pure.
import { breakerOpen } from './breaker.js';
import type { SessionState } from '../session-state.js';

const short = (tree: string | null | undefined): string => (tree ? tree.slice(0, 12) : 'unknown tree');

function covers(files: string[] | undefined): string {
  if (!files) return 'the worktree as the reviewer saw it';
  if (files.length === 0) return 'no file changes';
  const shown = files.slice(0, 5).join(', ');
  return `${files.length} changed file${files.length === 1 ? '' : 's'} (${shown}${files.length > 5 ? ', ...' : ''})`;
}

function opinions(d: { opinions?: string[]; no_opinion?: string }): string {
  if (d.opinions?.length) return `second opinions: ${d.opinions.join(', ')}`;
  if (d.no_opinion) return `no second opinion: ${d.no_opinion}`;
  return 'no second opinion recorded';
}

/** The systemMessage at the stop an approval lets through. */
export function approvedMessage(state: SessionState): string {
  const d = state.review.decision!;
  return (
    `roz: review APPROVED (COMPLETE by reviewer ${d.agent_id ?? '?'}): ${d.summary}. ` + `Covers ${covers(d.covers)}, tree ${short(d.tree)}; ${opinions(d)}.`
  );
}

/** For the agent after a compaction: its work is under review, and what is pending. */
export function pendingSummary(state: SessionState): string {
  const r = state.review;
  const sid = state.session_id;
  const head = `your work in this session is under independent review (SESSION_ID=${sid}).`;
  switch (r.status) {
    case 'approved':
      return `${head} The reviewer approved it (${r.decision?.summary ?? ''}); any further change needs a new review before you stop.`;
    case 'issues':
      return (
        `${head} The reviewer found issues: ${r.decision?.summary ?? ''}` +
        (r.decision?.message ? `. What to fix: ${r.decision.message}` : '') +
        `. Fix them, then spawn the roz:roz reviewer again (prompt starting SESSION_ID=${sid}).`
      );
    default:
      return (
        `${head} Before you stop, the roz:roz reviewer must read the real diff and record COMPLETE: ` +
        `spawn it with the Agent tool (subagent_type "roz:roz", prompt starting SESSION_ID=${sid}). You cannot record the decision yourself.` +
        (r.rearmed ? ` Pending: ${r.rearmed.files.join(', ') || 'files'} ${r.rearmed.why}.` : '')
      );
  }
}

export type ReviewOutcome = 'not_requested' | 'approved' | 'issues_open' | 'unreviewed' | 'breaker_tripped';

/**
 * Exit codes of `roz exec --require-review` when the client itself exited 0.
 * 0 approved (or no review was asked for); 5 ended with the reviewer's ISSUES
 * open; 6 ended unreviewed (no decision, or changes after the approval); 7 the
 * circuit breaker let it stop unreviewed.
 */
export const OUTCOME_EXIT: Record<ReviewOutcome, number> = {
  not_requested: 0,
  approved: 0,
  issues_open: 5,
  unreviewed: 6,
  breaker_tripped: 7,
};

export interface SessionOutcome {
  outcome: ReviewOutcome;
  exit: number;
  message: string;
}

/** A finished session's review outcome. `now` tells whether a breaker trip is still in force. */
export function sessionOutcome(state: SessionState | null, now: Date): SessionOutcome {
  const make = (outcome: ReviewOutcome, message: string): SessionOutcome => ({ outcome, exit: OUTCOME_EXIT[outcome], message });
  if (!state) return make('unreviewed', 'roz: no roz session was recorded for this run; nothing was reviewed');
  const r = state.review;
  const lastTrip = r.breaker.trips.at(-1);
  const lastDecision = r.decision_history.filter((d) => d.valid).at(-1);
  if (r.enabled && r.status === 'approved') return make('approved', `roz: review approved: ${r.decision?.summary ?? ''}`);
  if (lastTrip && (!lastDecision || lastDecision.decided_at < lastTrip.at) && (breakerOpen(state, now) || r.status === 'idle')) {
    return make('breaker_tripped', `roz: the circuit breaker let the session stop UNREVIEWED after ${lastTrip.block_count} blocked stops`);
  }
  if (!r.enabled && !r.trigger) return make('not_requested', 'roz: no review was requested');
  if (r.status === 'issues' || (r.decision?.kind === 'issues' && r.status !== 'idle')) {
    return make('issues_open', `roz: the session ended with the reviewer's ISSUES open: ${r.decision?.summary ?? ''}`);
  }
  if (!r.enabled) return make('not_requested', 'roz: no review was pending when the session ended');
  return make('unreviewed', `roz: the session ended UNREVIEWED (review ${r.status}${r.rearmed ? `; ${r.rearmed.files.join(', ')} ${r.rearmed.why}` : ''})`);
}

/** What a status line shows about the review: a short label and what it covers. */
export interface ReviewVerdict {
  label: 'off' | 'pending' | 'reviewing' | 'approved' | 'issues' | 'breaker';
  text: string;
}

export function reviewVerdict(state: SessionState, now: Date): ReviewVerdict {
  const r = state.review;
  if (breakerOpen(state, now) && !(r.enabled && r.status !== 'idle')) return { label: 'breaker', text: 'breaker open: stop let through UNREVIEWED' };
  if (!r.enabled || r.status === 'idle') return { label: 'off', text: 'no review' };
  if (r.status === 'approved' && r.decision) return { label: 'approved', text: `APPROVED: ${covers(r.decision.covers)}` };
  if (r.status === 'issues' && r.decision) return { label: 'issues', text: `ISSUES: ${r.decision.summary}` };
  const running = Object.values(r.reviewers).some((x) => x.stopped_at === null);
  if (running) return { label: 'reviewing', text: 'reviewer running' };
  return {
    label: 'pending',
    text: r.rearmed
      ? `review needed: ${r.rearmed.files.length} file(s) changed after approval`
      : `review needed (${r.block_count} block${r.block_count === 1 ? '' : 's'})`,
  };
}

/** The outcome of a run that touched several sessions: the worst of them (none: unreviewed). */
export function runOutcome(outcomes: SessionOutcome[]): SessionOutcome {
  if (outcomes.length === 0) return sessionOutcome(null, new Date(0));
  return outcomes.reduce((worst, o) => (o.exit > worst.exit ? o : worst));
}

/** Client flags that choose or resume a session: with one of them roz cannot pick the session id itself. */
const SESSION_FLAGS = new Set(['--session-id', '--resume', '-r', '--continue', '-c', '--fork-session']);

/**
 * For `roz exec --require-review`: the claude argv with `--session-id <id>`
 * added so the run's session is known, unless the caller already chose or
 * resumes one (then the caller's `--session-id` is returned, or null).
 */
export function withSessionId(args: readonly string[], fresh: string): { args: string[]; sessionId: string | null } {
  const given = args.findIndex((a) => a === '--session-id' || a.startsWith('--session-id='));
  if (given >= 0) {
    const a = args[given]!;
    return { args: [...args], sessionId: a.includes('=') ? a.slice(a.indexOf('=') + 1) : (args[given + 1] ?? null) };
  }
  if (args.some((a) => SESSION_FLAGS.has(a.split('=')[0]!))) return { args: [...args], sessionId: null };
  return { args: ['--session-id', fresh, ...args], sessionId: fresh };
}
