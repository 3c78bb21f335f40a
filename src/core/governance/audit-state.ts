// What the scope audit keeps in the session state (loaded on every hook with
// the state, so it imports nothing heavy; the decision is in ./audit.ts).
import type { TreeSnapshot } from '../review/state.js';

export interface AuditState {
  /** The intent the base belongs to: a new selection takes a new base. */
  intent_id: string;
  /** Null when the project is not a git work tree (no audit; recorded so hooks do not retry git on every call). */
  base: TreeSnapshot | null;
  /** Project-relative paths written by tool calls roz judged (in scope, or approved by a human). */
  written: string[];
  /** The worktree before a Bash call roz asked about because it could not name its writes. */
  pending?: { tool_use_id: string; tree: TreeSnapshot } | null;
  /** The set of files a stop was last blocked for, so the same set blocks once. */
  flagged: string | null;
}

const MAX_WRITTEN = 5000;

export function remember(audit: AuditState, paths: readonly string[]): void {
  const seen = new Set(audit.written);
  for (const p of paths) if (!seen.has(p)) audit.written.push(p);
  if (audit.written.length > MAX_WRITTEN) audit.written.splice(0, audit.written.length - MAX_WRITTEN);
}

/** The audit a session's state holds, repaired; null when absent or malformed. */
export function auditOf(raw: unknown): AuditState | null {
  const a = raw as Partial<AuditState> | null | undefined;
  if (!a || typeof a !== 'object' || typeof a.intent_id !== 'string') return null;
  return {
    intent_id: a.intent_id,
    base: a.base && typeof a.base.tree === 'string' ? a.base : null,
    written: Array.isArray(a.written) ? a.written.filter((p): p is string => typeof p === 'string') : [],
    pending: a.pending && typeof a.pending.tool_use_id === 'string' && a.pending.tree ? a.pending : null,
    flagged: typeof a.flagged === 'string' ? a.flagged : null,
  };
}
