// Template A/B statistics over many sessions: how often each block template
// led to a spawned reviewer and a decision. Pure aggregation.
import type { SessionState } from './review/state.js';

export interface TemplateStats {
  template_id: string;
  blocks: number;
  reviews_spawned: number;
  complete: number;
  issues: number;
  no_decision: number;
  not_spawned: number;
  pending: number;
  breaker_trips: number;
  /** Mean blocks in a cycle before a successful decision. */
  avg_blocks_to_decision: number | null;
  /** Decisions / blocks. */
  success_rate: number | null;
}

export interface FailureBreakdown {
  not_spawned: number;
  no_decision: number;
  bad_session_id: number;
  self_approval_denied: number;
  breaker_trips: number;
}

export interface StatsReport {
  since: string;
  sessions: number;
  reviewed_sessions: number;
  templates: TemplateStats[];
  failures: FailureBreakdown;
  /** Sessions by enforcement mode (unknown: started before roz recorded it). */
  enforcement: { enforced: number; advisory: number; unknown: number };
}

function empty(id: string): TemplateStats {
  return {
    template_id: id,
    blocks: 0,
    reviews_spawned: 0,
    complete: 0,
    issues: 0,
    no_decision: 0,
    not_spawned: 0,
    pending: 0,
    breaker_trips: 0,
    avg_blocks_to_decision: null,
    success_rate: null,
  };
}

export function computeStats(sessions: Iterable<SessionState>, since: Date): StatsReport {
  const byTemplate = new Map<string, TemplateStats & { blocksSum: number }>();
  const failures: FailureBreakdown = { not_spawned: 0, no_decision: 0, bad_session_id: 0, self_approval_denied: 0, breaker_trips: 0 };
  let count = 0;
  let reviewed = 0;
  const enforcement = { enforced: 0, advisory: 0, unknown: 0 };
  const cutoff = since.getTime();
  for (const s of sessions) {
    if (Date.parse(s.created_at) < cutoff) continue;
    count += 1;
    enforcement[s.enforcement?.mode ?? 'unknown'] += 1;
    if (s.review.attempts.length > 0) reviewed += 1;
    const templateOf = new Map<number, string>();
    for (const a of s.review.attempts) {
      templateOf.set(a.id, a.template_id);
      const t = byTemplate.get(a.template_id) ?? { ...empty(a.template_id), blocksSum: 0 };
      byTemplate.set(a.template_id, t);
      t.blocks += 1;
      if (a.spawned_at) t.reviews_spawned += 1;
      switch (a.outcome) {
        case 'success':
          if (a.decision_kind === 'complete') t.complete += 1;
          else t.issues += 1;
          t.blocksSum += a.blocks_needed ?? 1;
          break;
        case 'no_decision':
          t.no_decision += 1;
          failures.no_decision += 1;
          break;
        case 'not_spawned':
          t.not_spawned += 1;
          failures.not_spawned += 1;
          break;
        case 'pending':
          t.pending += 1;
          break;
        default:
          break;
      }
      failures.bad_session_id += a.bad_session_id_spawns ?? 0;
      failures.self_approval_denied += a.self_approvals_denied ?? 0;
    }
    for (const trip of s.review.breaker.trips) {
      failures.breaker_trips += 1;
      const id = trip.attempt_id !== null ? templateOf.get(trip.attempt_id) : undefined;
      if (id) byTemplate.get(id)!.breaker_trips += 1;
    }
  }
  const templates = [...byTemplate.values()]
    .map(({ blocksSum, ...t }) => {
      const decided = t.complete + t.issues;
      return {
        ...t,
        avg_blocks_to_decision: decided > 0 ? blocksSum / decided : null,
        success_rate: t.blocks > 0 ? decided / t.blocks : null,
      };
    })
    .sort((a, b) => a.template_id.localeCompare(b.template_id));
  return { since: since.toISOString(), sessions: count, reviewed_sessions: reviewed, templates, failures, enforcement };
}
