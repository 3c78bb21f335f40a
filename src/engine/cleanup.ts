// Removing old sessions: `roz clean`, and the automatic clean-up after
// cleanup.retention_days that a SessionStart runs at most once a day. A
// session with a pending review is never removed. Then the snapshot objects
// no remaining session names are swept (store/snapshot-prune.ts), so
// `<store>/snapshots.git` stays bounded by the sessions kept.
import { statSync } from 'node:fs';
import { writeFileAtomicSync } from '../store/atomic-write.js';
import { join } from 'node:path';
import type { SessionState } from '../core/session-state.js';
import type { SessionStore } from '../store/session-store.js';
import type { PruneResult } from '../store/snapshot-prune.js';

const DAY_MS = 86_400_000;
/** Its mtime is when the automatic clean-up last ran. */
export const CLEANUP_STAMP = 'last-cleanup';

export function reviewPending(s: SessionState): boolean {
  return s.review.enabled && (s.review.status === 'pending' || s.review.status === 'blocked' || s.review.status === 'issues');
}

export interface CleanResult {
  removed: string[];
  /** Old enough, but with a pending review. */
  kept: string[];
  /** The sweep of roz's snapshot repository after the sessions went (file stores only). */
  snapshots?: PruneResult;
}

/**
 * Sweep the snapshot objects no session left in `storeRoot` needs; stat caches
 * idle past the retention go too. Loaded when it runs (once a day in a hook):
 * the sweep is no part of every hook's bundle (hook-snapshot-prune.cjs).
 */
export async function pruneAfterClean(storeRoot: string, opts: { now: Date; retentionMs: number; dryRun?: boolean }): Promise<PruneResult> {
  const { pruneSnapshots, PRUNE_GRACE_MS } = await import('../store/snapshot-prune.js');
  return pruneSnapshots(storeRoot, { now: opts.now, graceMs: PRUNE_GRACE_MS, statCacheMaxAgeMs: opts.retentionMs, dryRun: opts.dryRun === true });
}

/** Remove sessions last updated before `cutoff` (every session with `cutoff` null), except `spare` and any with a pending review. */
export function cleanSessions(store: SessionStore, opts: { cutoff: Date | null; dryRun?: boolean; spare?: string }): CleanResult {
  const out: CleanResult = { removed: [], kept: [] };
  for (const summary of store.list()) {
    const id = summary.session_id;
    if (id === opts.spare) continue;
    if (opts.cutoff && Date.parse(summary.updated_at) >= opts.cutoff.getTime()) continue;
    let state: SessionState | null = null;
    try {
      state = store.read(id);
    } catch {
      /* corrupt: removable */
    }
    if (state && reviewPending(state)) {
      out.kept.push(id);
      continue;
    }
    if (!opts.dryRun) store.remove(id);
    out.removed.push(id);
  }
  return out;
}

/**
 * The daily clean-up, cheap on every other start: one stat of the stamp file.
 * The stamp is written before the pass, so parallel session starts do not
 * both run it; a failure only warns (it is housekeeping, never a verdict).
 */
export async function autoCleanup(
  store: SessionStore,
  opts: { storeRoot: string; retentionDays: number; now: Date; current: string },
  warn: (m: string) => void,
): Promise<CleanResult | null> {
  const stamp = join(opts.storeRoot, CLEANUP_STAMP);
  try {
    if (opts.now.getTime() - statSync(stamp).mtimeMs < DAY_MS) return null;
  } catch {
    /* never ran */
  }
  try {
    writeFileAtomicSync(opts.storeRoot, stamp, `${opts.now.toISOString()}\n`, { durable: false });
    const cleaned = cleanSessions(store, { cutoff: new Date(opts.now.getTime() - opts.retentionDays * DAY_MS), spare: opts.current });
    const snapshots = await pruneAfterClean(opts.storeRoot, { now: opts.now, retentionMs: opts.retentionDays * DAY_MS });
    if (snapshots.skipped) warn(`roz: snapshot objects not pruned this time (${snapshots.skipped})`);
    return { ...cleaned, snapshots };
  } catch (err) {
    warn(`roz: automatic clean-up of old sessions failed (${(err as Error).message}); run roz clean`);
    return null;
  }
}
