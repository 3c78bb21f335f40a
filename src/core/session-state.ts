// The persisted shape of one Claude Code session as roz sees it: hook
// counters, denials, the review gate's state, governance's opaque part and the
// enforcement mode. Hooks, store, supervisor and TUI all read it; the review
// gate is one tenant (core/review/state.ts).
import type { Enforcement } from './enforce/mode.js';
import type { SessionGit } from './git-identity.js';
import { newReviewState, type ReviewState } from './review/state.js';

export interface SessionState {
  version: 1;
  session_id: string;
  created_at: string;
  updated_at: string;
  cwd: string | null;
  transcript_path: string | null;
  ended_at: string | null;
  /** Hook events seen, by event name: every hook updates this under the lock. */
  counters: Record<string, number>;
  /** PreToolUse denials by code. */
  denials: Record<string, number>;
  /** Which second-opinion commands were on PATH at session start. */
  second_opinions: { codex: boolean; gemini: boolean; claude?: boolean } | null;
  review: ReviewState;
  /** Owned by intent governance; opaque to the review gate. */
  governance?: Record<string, unknown>;
  /** Decided at SessionStart (core/enforce/mode.ts); absent for sessions older than that. */
  enforcement?: Enforcement;
  /** The project and its `.git` at SessionStart: snapshots refuse another `.git` (store/git-repo.ts). */
  git?: SessionGit;
  /**
   * `.orchestration/` of each candidate project root (real path) when the
   * session began: `dev:ino`, `link`, or null (absent). roz writes only into
   * the one that was there then (engine/governance/orchestration-trust.ts).
   */
  orchestration_at_start?: Record<string, string | null>;
  /**
   * The roz supervisor that launched this session's client (ROZ_SUPERVISOR_PID at SessionStart). A
   * session that never ended whose supervisor is gone was ended with it (its client got SIGHUP): an http
   * SessionEnd had nobody to reach. `roz agent ls` shows it exited. Display only.
   */
  supervisor_pid?: number;
}

export function newSession(session_id: string, now: Date): SessionState {
  const at = now.toISOString();
  return {
    version: 1,
    session_id,
    created_at: at,
    updated_at: at,
    cwd: null,
    transcript_path: null,
    ended_at: null,
    counters: {},
    denials: {},
    second_opinions: null,
    review: newReviewState(),
  };
}
