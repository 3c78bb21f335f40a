// Loading a persisted session defensively. The document is a file anyone
// running as this user can write, so every field is checked against the shape
// the policies rely on (by hand: no zod on the hook path). Three outcomes:
// - a valid document (older ones get missing fields filled, silently);
// - a repairable one: a field of the wrong type (`review.reviewers: null`,
//   a string where a number belongs) is reset to its fresh value, invalid
//   entries of lists and maps are dropped, and the caller keeps a copy of the
//   original in quarantine and says so. Never looser than the document: a
//   review that was on stays on, and a broken field only ever loses what it
//   granted (an approval, a reviewer run);
// - a corrupt one (not JSON, not a roz session, another session's): the
//   caller quarantines it and starts fresh.
import { newSession, type SessionState } from '../core/session-state.js';
import { type ReviewState } from '../core/review/state.js';

export type Revived = { state: SessionState; repaired: string[] } | { corrupt: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const oneOf =
  <T extends string>(...xs: T[]) =>
  (v: unknown): v is T =>
    typeof v === 'string' && (xs as string[]).includes(v);

const STATUS = oneOf('idle', 'pending', 'blocked', 'approved', 'issues');
const DECISION_KIND = oneOf('complete', 'issues');
const TRIGGER_KIND = oneOf('prompt', 'always', 'gate');
const ATTEMPT_REASON = oneOf('review', 'issues', 'retry');
const OUTCOME = oneOf('pending', 'success', 'not_spawned', 'no_decision', 'bad_session_id', 'breaker_tripped');

const isDecision = (v: unknown): boolean =>
  isObj(v) &&
  DECISION_KIND(v.kind) &&
  isStr(v.summary) &&
  isStr(v.decided_at) &&
  isStrOrNull(v.agent_id) &&
  isBool(v.valid) &&
  (v.message === undefined || isStr(v.message)) &&
  (v.opinions === undefined || (Array.isArray(v.opinions) && v.opinions.every(isStr))) &&
  (v.tree === undefined || isStrOrNull(v.tree)) &&
  (v.covers === undefined || (Array.isArray(v.covers) && v.covers.every(isStr))) &&
  (v.human === undefined || isStr(v.human));
const isTrigger = (v: unknown): boolean =>
  v === null || (isObj(v) && TRIGGER_KIND(v.kind) && isStr(v.at) && (v.kind !== 'gate' || (isStr(v.tool_name) && isStr(v.pattern))));
const isPrompt = (v: unknown): boolean => isObj(v) && isStr(v.text) && isStr(v.at) && (v.truncated === undefined || isBool(v.truncated));
const isAttempt = (v: unknown): boolean =>
  isObj(v) && typeof v.id === 'number' && isStr(v.template_id) && isStr(v.blocked_at) && ATTEMPT_REASON(v.reason) && OUTCOME(v.outcome);
const isTrip = (v: unknown): boolean => isObj(v) && isStr(v.at) && typeof v.block_count === 'number';
const isReviewerRun = (v: unknown): boolean =>
  isObj(v) &&
  isStr(v.agent_type) &&
  isStr(v.started_at) &&
  isStrOrNull(v.stopped_at) &&
  isBool(v.decided) &&
  (v.end_reason === undefined || isStr(v.end_reason)) &&
  (v.seen_tree === undefined || isStrOrNull(v.seen_tree)) &&
  (v.read_other_context === undefined || isBool(v.read_other_context)) &&
  (v.launched === undefined || isStr(v.launched));
const isSnapshot = (v: unknown): boolean => v === null || (isObj(v) && isStrOrNull(v.head) && isStr(v.tree) && isStr(v.at));
const isRearmed = (v: unknown): boolean => v === null || (isObj(v) && isStr(v.at) && Array.isArray(v.files) && v.files.every(isStr) && isStr(v.why));
/** Optional fields of the review section: checked when present, left out when absent. */
const OPTIONAL_REVIEW: Array<[string, (v: unknown) => boolean, unknown]> = [
  ['base', isSnapshot, null],
  ['issues_pending', isBool, false],
  ['rearmed', isRearmed, null],
  ['announced', isStrOrNull, null],
];
const isCounts = (v: unknown): boolean => isObj(v) && Object.values(v).every((n) => typeof n === 'number');

/** Checks `doc[key]`: missing is filled silently, wrong is reset and reported. */
function field<T>(doc: Obj, key: string, ok: (v: unknown) => boolean, fresh: T, problems: string[], where: string): T {
  const v = doc[key];
  if (v === undefined) return fresh;
  if (ok(v)) return v as T;
  problems.push(`${where}${key}`);
  return fresh;
}

/** A list whose invalid entries are dropped (each reported once per list). */
function list<T>(doc: Obj, key: string, ok: (v: unknown) => boolean, problems: string[], where: string): T[] {
  const v = doc[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    problems.push(`${where}${key}`);
    return [];
  }
  const kept = v.filter(ok);
  if (kept.length !== v.length) problems.push(`${where}${key}[]`);
  return kept as T[];
}

function reviveReview(raw: Obj, fresh: ReviewState, problems: string[]): ReviewState {
  const w = 'review.';
  const enabled = field(raw, 'enabled', isBool, fresh.enabled, problems, w);
  // A status that cannot be read keeps an enabled review on, never approves it.
  let status = field(raw, 'status', STATUS, fresh.status, problems, w);
  if (raw.status !== undefined && !STATUS(raw.status) && enabled) status = 'pending';
  const breakerRaw = raw.breaker;
  let breaker = fresh.breaker;
  if (breakerRaw !== undefined) {
    if (!isObj(breakerRaw)) problems.push(`${w}breaker`);
    else
      breaker = {
        open_until: field(breakerRaw, 'open_until', isStrOrNull, null, problems, `${w}breaker.`),
        trips: list(breakerRaw, 'trips', isTrip, problems, `${w}breaker.`),
      };
  }
  const reviewersRaw = raw.reviewers;
  const reviewers: ReviewState['reviewers'] = {};
  if (reviewersRaw !== undefined) {
    if (!isObj(reviewersRaw)) problems.push(`${w}reviewers`);
    else {
      for (const [id, run] of Object.entries(reviewersRaw)) {
        if (isReviewerRun(run)) reviewers[id] = run as ReviewState['reviewers'][string];
        else if (!problems.includes(`${w}reviewers{}`)) problems.push(`${w}reviewers{}`);
      }
    }
  }
  const optional: Obj = {};
  for (const [key, ok, fresh] of OPTIONAL_REVIEW) if (raw[key] !== undefined) optional[key] = field(raw, key, ok, fresh, problems, w);
  return {
    ...raw,
    ...optional,
    enabled,
    status,
    trigger: field(raw, 'trigger', isTrigger, fresh.trigger, problems, w),
    block_count: field(raw, 'block_count', isCount, fresh.block_count, problems, w),
    decision: field(raw, 'decision', (v) => v === null || isDecision(v), fresh.decision, problems, w),
    decision_history: list(raw, 'decision_history', isDecision, problems, w),
    user_prompts: list(raw, 'user_prompts', isPrompt, problems, w),
    attempts: list(raw, 'attempts', isAttempt, problems, w),
    breaker,
    gate_approved_at: field(raw, 'gate_approved_at', isStrOrNull, fresh.gate_approved_at, problems, w),
    last_prompt_at: field(raw, 'last_prompt_at', isStrOrNull, fresh.last_prompt_at, problems, w),
    review_started_at: field(raw, 'review_started_at', isStrOrNull, fresh.review_started_at, problems, w),
    reviewers,
  } as ReviewState;
}

export function reviveSession(id: string, raw: string, now: Date): Revived {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (err) {
    return { corrupt: `not valid JSON (${(err as Error).message})` };
  }
  if (!isObj(data)) return { corrupt: 'not a JSON object' };
  if (data.version !== 1) return { corrupt: `unknown document version ${JSON.stringify(data.version)}` };
  if (data.session_id !== id) return { corrupt: `belongs to session ${JSON.stringify(data.session_id)}` };
  if (!isObj(data.review)) return { corrupt: 'has no review section' };
  const fresh = newSession(id, now);
  const problems: string[] = [];
  const state = {
    ...data,
    version: 1,
    session_id: id,
    created_at: field(data, 'created_at', isStr, fresh.created_at, problems, ''),
    updated_at: field(data, 'updated_at', isStr, fresh.updated_at, problems, ''),
    cwd: field(data, 'cwd', isStrOrNull, fresh.cwd, problems, ''),
    transcript_path: field(data, 'transcript_path', isStrOrNull, fresh.transcript_path, problems, ''),
    ended_at: field(data, 'ended_at', isStrOrNull, fresh.ended_at, problems, ''),
    counters: { ...field(data, 'counters', isCounts, fresh.counters, problems, '') },
    denials: { ...field(data, 'denials', isCounts, fresh.denials, problems, '') },
    second_opinions: field(
      data,
      'second_opinions',
      (v) => v === null || (isObj(v) && isBool(v.codex) && isBool(v.gemini) && (v.claude === undefined || isBool(v.claude))),
      fresh.second_opinions,
      problems,
      '',
    ),
    review: reviveReview(data.review, fresh.review, problems),
    ...(data.governance === undefined ? {} : { governance: field(data, 'governance', isObj, {}, problems, '') }),
    ...(data.enforcement === undefined ? {} : { enforcement: field(data, 'enforcement', isObj, undefined, problems, '') }),
    ...(data.git === undefined ? {} : { git: field(data, 'git', isObj, undefined, problems, '') }),
    ...(data.supervisor_pid === undefined
      ? {}
      : { supervisor_pid: field(data, 'supervisor_pid', (v) => Number.isInteger(v) && (v as number) > 0, undefined, problems, '') }),
    ...(data.orchestration_at_start === undefined
      ? {}
      : {
          orchestration_at_start: field(
            data,
            'orchestration_at_start',
            (v) => isObj(v) && Object.values(v).every((x) => x === null || typeof x === 'string'),
            {},
            problems,
            '',
          ),
        }),
  } as SessionState;
  return { state, repaired: problems };
}

/** Whether a document (parsed however far it goes) had a review on: a corrupt one may still say so. */
export function reviewActiveIn(raw: string): boolean {
  try {
    const review = (JSON.parse(raw) as { review?: { enabled?: unknown; status?: unknown } } | null)?.review;
    return review?.enabled === true && (review.status === 'pending' || review.status === 'blocked' || review.status === 'issues' || !STATUS(review.status));
  } catch {
    return false;
  }
}
