// What one session amounted to, for the after-session view and
// `roz stats --tui`: tool calls, denials, reviews, breaker, human waits.
import type { SessionState } from '../core/session-state.js';
import { computeStats, type TemplateStats } from '../core/stats.js';
import type { TraceRecord } from '../store/session-store.js';

export interface SessionStats {
  session_id: string;
  /** The fleet agent that had the session, where the supervisor knows it. */
  agent?: string;
  created_at: string;
  ended_at: string | null;
  tool_calls: number;
  tool_failures: number;
  denials: Record<string, number>;
  reviews: number;
  decisions: { complete: number; issues: number; invalid: number };
  breaker_trips: number;
  human: { decisions: number; approved: number; denied: number; timed_out: number; wait_ms_total: number; wait_ms_max: number };
  templates: TemplateStats[];
}

export function sessionStats(state: SessionState, trace: TraceRecord[]): SessionStats {
  const human = { decisions: 0, approved: 0, denied: 0, timed_out: 0, wait_ms_total: 0, wait_ms_max: 0 };
  for (const r of trace) {
    if (r.event !== 'roz:HumanDecision') continue;
    const wait = typeof r.wait_ms === 'number' ? r.wait_ms : 0;
    human.wait_ms_total += wait;
    human.wait_ms_max = Math.max(human.wait_ms_max, wait);
    if (r.decided_by === 'timeout') human.timed_out += 1;
    else if (r.decided_by === 'human') human.decisions += 1;
    if (r.decision === 'allow') human.approved += 1;
    if (r.decision === 'deny') human.denied += 1;
  }
  const history = state.review.decision_history;
  return {
    session_id: state.session_id,
    created_at: state.created_at,
    ended_at: state.ended_at,
    tool_calls: state.counters.PreToolUse ?? 0,
    tool_failures: state.counters.PostToolUseFailure ?? 0,
    denials: { ...state.denials },
    reviews: state.review.attempts.length,
    decisions: {
      complete: history.filter((d) => d.valid && d.kind === 'complete').length,
      issues: history.filter((d) => d.valid && d.kind === 'issues').length,
      invalid: history.filter((d) => !d.valid).length,
    },
    breaker_trips: state.review.breaker.trips.length,
    human,
    templates: computeStats([state], new Date(0)).templates,
  };
}
