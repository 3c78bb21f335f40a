// What a reviewer could have seen. A reviewer reads the change whenever it
// likes (plain `git diff`, the Read tool, `roz context`), and on current
// clients it runs in the background while the agent goes on working. So an
// approval is bound to the worktree when the reviewer started, moved forward
// only by its `roz context` calls (which show it the tree roz snapshotted).
// Whatever another agent writes after that is not covered: at the decision,
// those files re-arm the gate by name. Pure.
import type { SessionState } from '../session-state.js';
import type { ReviewerRun } from './state.js';

/**
 * Files roz and the client write into a project themselves (the Agent Trace
 * ledger, the intent map, lessons; the client's local settings): not the
 * agent's work, so they neither undo an approval nor appear in what it covers.
 */
const OWN_FILES = /^(\.orchestration|\.claude)\//;

/** The project's own files among `files` (repository-relative paths). */
export function projectFiles(files: readonly string[]): string[] {
  return files.filter((f) => !OWN_FILES.test(f));
}

/** At most this many unseen writes are remembered per run: the block names them, it does not list a build. */
const UNSEEN_LIMIT = 50;

/** The reviewer has (again) been shown the worktree `tree`: earlier writes are now seen. */
export function noteSeen(run: ReviewerRun, tree: string | null, now: Date): void {
  run.seen_tree = tree;
  run.seen_at = now.toISOString();
  delete run.unseen_writes;
}

/**
 * Another agent (the main agent, or any subagent but the reviewer itself)
 * wrote `files` while reviewers are running: no open, undecided run has seen
 * them. Used by the decision when no tree can be compared (git unavailable).
 */
export function noteUnseenWrites(state: SessionState, files: readonly string[], byAgent: string | undefined): void {
  if (files.length === 0) return;
  for (const [id, run] of Object.entries(state.review.reviewers)) {
    if (run.stopped_at !== null || run.decided || id === byAgent) continue;
    const seen = new Set(run.unseen_writes ?? []);
    for (const f of files) if (seen.size < UNSEEN_LIMIT) seen.add(f);
    run.unseen_writes = [...seen];
  }
}

/**
 * Files changed after the reviewer last saw the worktree, at its decision, or
 * null when nothing changed. The difference between the tree it saw and the
 * tree now when both are known (the truth: a write undone, or shown by a later
 * `roz context`, is no change; [] when git cannot name the files), else the
 * writes PostToolUse saw.
 */
export function unseenChanges(run: ReviewerRun, nowTree: string | null, changedFiles: (from: string, to: string) => string[] | null): string[] | null {
  const seen = run.seen_tree;
  if (seen && nowTree) {
    if (seen === nowTree) return null;
    const files = changedFiles(seen, nowTree);
    if (files === null) return [];
    const work = projectFiles(files);
    return work.length > 0 ? work : null;
  }
  return run.unseen_writes?.length ? [...run.unseen_writes] : null;
}

/** The `why` of a re-arm for files written while the review ran. */
export const WRITTEN_DURING_REVIEW = 'written while the review ran, after the reviewer last read the change';

/** Up to ten file names, for a message. */
export function namedFiles(files: readonly string[]): string {
  if (files.length === 0) return 'files';
  const shown = files.slice(0, 10).join(', ');
  return files.length > 10 ? `${shown} and ${files.length - 10} more` : shown;
}

/** What the reviewer is told when its COMPLETE could not cover everything: the decision stands for what it saw. */
export function unseenSentence(files: readonly string[], seenAt: string | undefined): string {
  return (
    `It covers the worktree as you saw it${seenAt ? ` at ${seenAt}` : ''}. ` +
    `Since then ${namedFiles(files)} changed (written by another agent while you reviewed): ` +
    `the agent needs another review for ${files.length === 1 ? 'it' : 'them'}.`
  );
}
