// Template A/B statistics over many sessions: how often each block template
// led to a spawned reviewer and a decision. Pure aggregation over a small
// per-session summary (what `roz stats` keeps in the store's stats index, so
// it need not read 100,000 state files).
import type { SessionState } from './session-state.js';
import type { AttemptOutcome, DecisionKind } from './review/state.js';

/** One review attempt as stats needs it: [template_id, spawned, outcome, decision_kind, blocks_needed, bad_session_id_spawns, self_approvals_denied, id]. */
export type AttemptSummary = [string, 0 | 1, AttemptOutcome, DecisionKind | null, number | null, number, number, number];

/** What stats reads of a session; short keys because the index holds one per summary change. */
export interface StatsSummary {
  /** session id */
  s: string;
  /** created_at */
  c: string;
  /** the state's updated_at when this summary was taken: the newest line of a session wins */
  u: string;
  a: AttemptSummary[];
  /** breaker trips: the attempt id of each */
  t: Array<number | null>;
  /** enforcement mode, when roz recorded one */
  e?: 'enforced' | 'advisory';
}

export function statsSummary(s: SessionState): StatsSummary {
  return {
    s: s.session_id,
    c: s.created_at,
    u: s.updated_at,
    a: s.review.attempts.map((a) => [
      a.template_id,
      a.spawned_at ? 1 : 0,
      a.outcome,
      a.decision_kind ?? null,
      a.blocks_needed ?? null,
      a.bad_session_id_spawns ?? 0,
      a.self_approvals_denied ?? 0,
      a.id,
    ]),
    t: s.review.breaker.trips.map((t) => t.attempt_id),
    ...(s.enforcement?.mode ? { e: s.enforcement.mode } : {}),
  };
}

/** The part of a summary that changes what stats reports (not the timestamp): equal keys, no new index line. */
export function summaryKey(s: SessionState): string {
  const { u: _, ...rest } = statsSummary(s);
  return JSON.stringify(rest);
}

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
  return computeStatsOfSummaries(mapIter(sessions, statsSummary), since);
}

function* mapIter<A, B>(xs: Iterable<A>, f: (a: A) => B): Generator<B> {
  for (const x of xs) yield f(x);
}

export function computeStatsOfSummaries(sessions: Iterable<StatsSummary>, since: Date): StatsReport {
  const byTemplate = new Map<string, TemplateStats & { blocksSum: number }>();
  const failures: FailureBreakdown = { not_spawned: 0, no_decision: 0, bad_session_id: 0, self_approval_denied: 0, breaker_trips: 0 };
  let count = 0;
  let reviewed = 0;
  const enforcement = { enforced: 0, advisory: 0, unknown: 0 };
  const cutoff = since.getTime();
  for (const s of sessions) {
    if (Date.parse(s.c) < cutoff) continue;
    count += 1;
    enforcement[s.e ?? 'unknown'] += 1;
    if (s.a.length > 0) reviewed += 1;
    const templateOf = new Map<number, string>();
    for (const [templateId, spawned, outcome, decisionKind, blocksNeeded, badSessionId, selfApprovals, id] of s.a) {
      templateOf.set(id, templateId);
      const t = byTemplate.get(templateId) ?? { ...empty(templateId), blocksSum: 0 };
      byTemplate.set(templateId, t);
      t.blocks += 1;
      if (spawned) t.reviews_spawned += 1;
      switch (outcome) {
        case 'success':
          if (decisionKind === 'complete') t.complete += 1;
          else t.issues += 1;
          t.blocksSum += blocksNeeded ?? 1;
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
      failures.bad_session_id += badSessionId;
      failures.self_approval_denied += selfApprovals;
    }
    for (const attemptId of s.t) {
      failures.breaker_trips += 1;
      const id = attemptId !== null ? templateOf.get(attemptId) : undefined;
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
