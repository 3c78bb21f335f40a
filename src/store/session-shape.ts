// Loading a persisted session defensively: anything that is not a roz session
// document is reported as corrupt; older documents get missing fields filled.
import { newSession, type SessionState } from '../core/review/state.js';

export function reviveSession(id: string, raw: string, now: Date): SessionState | { corrupt: string } {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (err) {
    return { corrupt: `not valid JSON (${(err as Error).message})` };
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { corrupt: 'not a JSON object' };
  const doc = data as Partial<SessionState>;
  if (doc.version !== 1) return { corrupt: `unknown document version ${JSON.stringify(doc.version)}` };
  if (doc.session_id !== id) return { corrupt: `belongs to session ${JSON.stringify(doc.session_id)}` };
  if (!doc.review || typeof doc.review !== 'object') return { corrupt: 'has no review section' };
  const fresh = newSession(id, now);
  return {
    ...fresh,
    ...doc,
    counters: { ...(doc.counters ?? {}) },
    denials: { ...(doc.denials ?? {}) },
    review: { ...fresh.review, ...doc.review, breaker: { ...fresh.review.breaker, ...(doc.review.breaker ?? {}) } },
  } as SessionState;
}
