// What a policy answers for one hook event, before it is turned into the
// client's JSON. Policies compose: the strictest answer wins.

/** Denial codes shared by every policy; each reason tells the agent what to do next. */
export type DenialCode =
  | 'REVIEW_REQUIRED'
  | 'SELF_APPROVAL'
  | 'DECISION_REFUSED'
  | 'BAD_SESSION_ID'
  | 'REVIEWER_MODEL'
  /** A reviewer roz started itself tried to write (it is read-only). */
  | 'REVIEWER_READ_ONLY'
  | 'STORE_PROTECTED'
  | 'PROTECTED_PATH'
  | 'SANDBOX_BYPASS'
  | 'INTENT_REQUIRED'
  | 'SCOPE_VIOLATION'
  | 'STALE_FILE'
  | 'DESTRUCTIVE_BLOCKED'
  | 'HUMAN_GATE'
  /** The client's own permission dialog (PermissionRequest), queued for the human: roz never answers it by itself. */
  | 'CLIENT_DIALOG'
  | 'HOOK_ERROR';

export type Verdict =
  | { kind: 'none' }
  | { kind: 'allow'; reason?: string }
  /** `reason` is for the agent; `human` is one line for the human (core/human-reason.ts), shown in its place. */
  | { kind: 'ask'; code: DenialCode; reason: string; human?: string; widen?: Widen }
  /** `bare`: the reason is shown as given, without its `[CODE]` (a human's answer under `roz run`). */
  | { kind: 'deny'; code: DenialCode; reason: string; human?: string; bare?: boolean }
  | { kind: 'block'; reason: string }
  | { kind: 'context'; text: string };

/** For a scope ask: the globs that, added to the intent's owned_scope, would make the call in scope (the `g` key). */
export interface Widen {
  intent_id: string;
  globs: string[];
}

export const none: Verdict = { kind: 'none' };

const rank: Record<Verdict['kind'], number> = { none: 0, context: 1, allow: 2, ask: 3, deny: 4, block: 4 };

/** The strictest of two verdicts; context from both is kept when neither decides. */
export function combine(a: Verdict, b: Verdict): Verdict {
  if (a.kind === 'context' && b.kind === 'context') return { kind: 'context', text: `${a.text}\n\n${b.text}` };
  if (a.kind === 'block' && b.kind === 'block') return { kind: 'block', reason: `${a.reason}\n\n${b.reason}` };
  // Two reasons to ask the human: one question that says both.
  if (a.kind === 'ask' && b.kind === 'ask') {
    const merged: Verdict = { kind: 'ask', code: a.code, reason: `${a.reason}\n${b.reason}` };
    const human = a.human && b.human && a.human !== b.human ? `${a.human}; ${b.human}` : (a.human ?? b.human);
    if (human) merged.human = human;
    const widen = a.widen ?? b.widen;
    return widen ? { ...merged, widen } : merged;
  }
  return rank[b.kind] > rank[a.kind] ? b : a;
}

/** A roz event worth keeping in the session trace next to the client's events. */
export interface TraceNote {
  type: string;
  [key: string]: unknown;
}

export interface PolicyResult {
  verdict: Verdict;
  /** Shown to the human (the client's systemMessage): warnings, breaker trips. */
  warnings: string[];
  notes: TraceNote[];
}

export function result(verdict: Verdict = none, notes: TraceNote[] = [], warnings: string[] = []): PolicyResult {
  return { verdict, notes, warnings };
}

/** Two policies' answers as one: the stricter verdict, all notes and warnings. */
export function mergeResults(a: PolicyResult, b: PolicyResult): PolicyResult {
  return { verdict: combine(a.verdict, b.verdict), notes: [...a.notes, ...b.notes], warnings: [...a.warnings, ...b.warnings] };
}
