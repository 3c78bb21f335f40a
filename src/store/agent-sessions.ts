// What roz's store knows about the sessions that ran in an agent's worktree:
// the sessions whose recorded project (CLAUDE_PROJECT_DIR at SessionStart, or
// the repository top it recorded) is that worktree. The store is roz's (an
// enforced agent cannot write it); the worktree's own files say nothing here.
import { realpathSync } from 'node:fs';
import type { ReviewedDecision } from '../core/fleet/merge-gate.js';
import type { SessionState } from '../core/session-state.js';
import type { SessionStore } from './session-store.js';

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

function projectOf(s: SessionState): string | null {
  const p = s.git?.identity?.top ?? s.git?.project_dir ?? null;
  return p ? realOr(p) : null;
}

/** Every session in the store with its project (real path), each document read once. */
export function sessionsByProject(store: SessionStore): Map<string, SessionState[]> {
  const out = new Map<string, SessionState[]>();
  for (const id of store.ids()) {
    let s: SessionState | null = null;
    try {
      s = store.read(id);
    } catch {
      continue; // a document roz cannot read counts for nothing
    }
    const p = s ? projectOf(s) : null;
    if (!s || !p) continue;
    const list = out.get(p) ?? [];
    list.push(s);
    out.set(p, list);
  }
  for (const list of out.values()) list.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  return out;
}

/** Sessions whose project is `worktree` (a real path), newest (last update) first. */
export function sessionsIn(store: SessionStore, worktree: string): SessionState[] {
  return sessionsByProject(store).get(worktree) ?? [];
}

/** A client session id roz may pass to `--resume`: a UUID, never anything that reads as an option. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The newest session recorded in `worktree` (a real path) whose id the client can resume, else null. */
/** Whether `id` may be passed to the client's `--resume`. */
export function resumable(id: string | null | undefined): id is string {
  return typeof id === 'string' && SESSION_ID.test(id);
}

export function lastSessionIn(store: SessionStore, worktree: string): string | null {
  return sessionsIn(store, worktree).find((s) => SESSION_ID.test(s.session_id))?.session_id ?? null;
}

/** Every valid review decision of those sessions, oldest first, with the session it was recorded in. */
export function decisionsIn(sessions: readonly SessionState[]): Array<ReviewedDecision & { session_id: string; summary: string; human?: string }> {
  const all = sessions.flatMap((s) =>
    s.review.decision_history
      .filter((d) => d.valid)
      .map((d) => ({
        kind: d.kind,
        tree: d.tree ?? null,
        decided_at: d.decided_at,
        session_id: s.session_id,
        summary: d.summary,
        ...(d.human ? { human: d.human } : {}),
      })),
  );
  return all.sort((a, b) => a.decided_at.localeCompare(b.decided_at));
}

/**
 * The ledger lines roz wrote in those sessions: the hashes its hooks kept in
 * roz's store (the `LedgerAppended` notes of each session's trace) when they
 * appended a record to the worktree's ledger. What a merge takes from the
 * agent's ledger (core/fleet/ledger-union.ts); a trace roz cannot read adds nothing.
 */
export function recordedLedgerLines(store: SessionStore, sessions: readonly SessionState[]): Set<string> {
  const out = new Set<string>();
  for (const s of sessions) {
    let trace: ReturnType<SessionStore['readTrace']>;
    try {
      trace = store.readTrace(s.session_id);
    } catch {
      continue;
    }
    for (const r of trace) if (r.event === 'roz:LedgerAppended' && typeof r.sha256 === 'string' && /^[0-9a-f]{64}$/.test(r.sha256)) out.add(r.sha256);
  }
  return out;
}
