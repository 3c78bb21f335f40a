// The storage interface the engine and the CLI use; files in production,
// memory in tests.
import type { SessionState } from '../core/session-state.js';
import type { StatsSummary } from '../core/stats.js';

export interface TraceRecord {
  ts: string;
  event: string;
  session_id: string;
  [key: string]: unknown;
}

export interface SessionSummary {
  session_id: string;
  created_at: string;
  updated_at: string;
}

/**
 * A session document that was not what roz wrote: `repaired` (fields of the
 * wrong shape reset; the session goes on with the rest) or `corrupt` (not a
 * session at all, or not a regular file; the session starts fresh). Either
 * way the original is kept in `<store>/quarantine/` (`kept`).
 */
export interface StateFault {
  kind: 'repaired' | 'corrupt';
  reason: string;
  kept: string;
  /** The document had a review on (corrupt documents that still parse say so too). */
  reviewWasActive: boolean;
}

/** What the store tells an update besides the state. */
export interface UpdateInfo {
  /** Set when this update found the document faulty (and quarantined it). */
  fault?: StateFault;
}

/** Reports problems the store recovered from (a corrupt file moved aside, ...). */
export type Warn = (message: string) => void;

export interface SessionStore {
  readonly root: string;
  /**
   * Run `fn` on the session's state under the session lock and persist what it
   * leaves, together with any trace records it returns: concurrent hooks of one
   * session never lose an update or a trace line.
   */
  update<T>(sessionId: string, now: Date, fn: (state: SessionState, info: UpdateInfo) => { value: T; trace: TraceRecord[]; persist?: boolean }): Promise<T>;
  read(sessionId: string): SessionState | null;
  readTrace(sessionId: string): TraceRecord[];
  /** Append trace records without touching state (used when state is unavailable). */
  appendTrace(sessionId: string, records: TraceRecord[]): void;
  /** Every session, newest first (reads each state document). */
  list(): SessionSummary[];
  /** Every session id, unordered, without reading any document: for a pass that reads each once. */
  ids(): string[];
  /** Every session's stats summary (the file store reads its stats index, not each state). */
  summaries(): Iterable<StatsSummary>;
  remove(sessionId: string): void;
}

export class StoreError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}
