// When an agent's client has ended, cleanly or not (killed, crashed), the git
// objects it staged last may not have been taken in: the hooks take them in
// after every event but PreToolUse, and a client killed mid-command runs no
// hook after it. The launcher, which knows where the staging store was before
// the agent ran (run-settings.ts), takes them in here: the agent's commits
// reach the repository hashed again, its forgeries the quarantine, at once
// rather than at the next hook, merge or `roz agent rm`. The place is the
// launch's, never found again from a `.git` the agent may have replaced.
import { realpathSync } from 'node:fs';
import { lastSessionIn } from '../../store/agent-sessions.js';
import { intakePlace, intakeReport } from '../../store/object-intake.js';
import { stagingHasWork } from '../../store/object-staging.js';
import type { SessionStore } from '../../store/session-store.js';
import type { StagingPlace } from '../../store/staging-place.js';

export interface ExitIntakeTarget {
  /** The staging store the launch prepared (LaunchedAgent.objects); null: none (not git, or a Codex agent outside a linked worktree). */
  place: StagingPlace | null;
  storeRoot: string;
  store: SessionStore;
  /** The agent's session, when its supervisor knows it; else the newest recorded in `cwd`. */
  sessionId: string | null;
  cwd: string;
}

/**
 * Take in what the agent left staged, record it in its session's trace, and
 * return what the human must read (refused forgeries, problems); nothing when
 * nothing waited. Never throws: a failure is one of the warnings.
 */
export function takeObjectsAtExit(t: ExitIntakeTarget): string[] {
  if (!t.place || !stagingHasWork(t.place.staging)) return [];
  const report = intakeReport(intakePlace(t.place, t.storeRoot));
  const warnings = [...report.warnings];
  try {
    const sid = t.sessionId ?? lastSessionIn(t.store, realpathSync.native(t.cwd));
    const records = sid ? report.trace(new Date().toISOString(), sid) : [];
    if (sid && records.length) t.store.appendTrace(sid, records);
  } catch (err) {
    warnings.push(`roz: git objects taken in at the agent's exit could not be recorded: ${(err as Error).message}`);
  }
  return warnings;
}
