// The file backend: one JSON document and one JSONL trace per session under
// the store root. Updates run under a per-session lock (lock.ts: a mkdir lock
// with stale detection, safe across processes) and land with an atomic rename
// (atomic-write.ts), so a crash never leaves half a document.
import { constants, copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, type HeldLock, type LockOptions } from './lock.js';
import { checkedDir } from './no-follow.js';
import { newSession, type SessionState } from '../core/session-state.js';
import { statsSummary, summaryKey, type StatsSummary } from '../core/stats.js';
import { quarantineDir, sessionDir, sessionsDir, statePath, tracePath } from './paths.js';
import { reviewActiveIn, reviveSession } from './session-shape.js';
import { spoolRecords } from './telemetry-spool.js';
import { appendStatsSummary, compactStatsIndex, readStatsIndex, summaryAt } from './stats-index.js';
import { StoreError, type SessionStore, type SessionSummary, type StateFault, type TraceRecord, type UpdateInfo, type Warn } from './session-store.js';
import { appendRegularFile, MiB, readRegularText, UnreadableFileError } from './regular-file.js';

/** A session document is kilobytes; anything near this is not one. */
const STATE_MAX = 16 * MiB;

const LOCK_OPTIONS: LockOptions = {
  // A hook killed while holding the lock must not wedge the session for long.
  staleMs: 5_000,
  // update() holds the lock only across synchronous work (its callback cannot
  // return a promise), so there is nothing to refresh while it is held. A
  // holder past staleMs (a slow snapshot) is taken over; its write is then
  // refused (lock.ts commitWrite), never applied over the taker's.
  refreshMs: null,
  // Many hooks of one session may queue; each holds the lock for milliseconds.
  // Past this a hook gives up (and fails open).
  waitMs: 15_000,
};

export interface FileStoreOptions {
  /** OpenTelemetry export is on: trace records worth exporting also go to the telemetry spool. */
  telemetry?: boolean;
}

export class FileSessionStore implements SessionStore {
  /** Documents this store already copied to quarantine, by path and content. */
  private readonly copies = new Map<string, string>();

  constructor(
    readonly root: string,
    private readonly warn: Warn = () => {},
    private readonly opts: FileStoreOptions = {},
  ) {}

  async update<T>(
    sessionId: string,
    now: Date,
    fn: (state: SessionState, info: UpdateInfo) => { value: T; trace: TraceRecord[]; persist?: boolean },
  ): Promise<T> {
    const dir = sessionDir(this.root, sessionId);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new StoreError(`cannot create ${dir}: ${(err as Error).message}`, err);
    }
    const file = statePath(this.root, sessionId);
    let release: HeldLock;
    try {
      release = await acquireLock(file, LOCK_OPTIONS);
    } catch (err) {
      throw new StoreError(`cannot lock session ${sessionId}: ${(err as Error).message}`, err);
    }
    try {
      const loaded = this.load(sessionId, now);
      const state = loaded.state ?? newSession(sessionId, now);
      const keyBefore = loaded.state ? summaryKey(state) : null;
      const out = fn(state, loaded.fault ? { fault: loaded.fault } : {});
      if (out.persist !== false) {
        state.updated_at = now.toISOString();
        try {
          // Atomic (rename) but not fsynced: a killed hook or client never
          // leaves half a document, and only an OS crash or power loss in the
          // last moments can lose the latest update or, on filesystems without
          // ext4's rename flush, leave an empty file, which load() quarantines
          // with a warning. The traces are plain appends with the same
          // exposure. Measured: the fsync was ~2-3 ms of every hook (npm run bench).
          // Through the lock (lock.ts commitWrite): a hook that held it past
          // staleMs and was taken over writes nothing, so it cannot undo the
          // update of the hook that took over.
          try {
            checkedDir(this.root, `${file}.lock`, { create: false }); // no link on the way
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // gone: taken over, commitWrite says so
          }
          release.commitWrite(file, `${JSON.stringify(state)}\n`, { mode: 0o600 });
        } catch (err) {
          throw new StoreError(`cannot write ${file}: ${(err as Error).message}`, err);
        }
        // The stats index gets a line only when what stats reports changed (a
        // few times a session), so most hooks pay two small stringify calls.
        if (summaryKey(state) !== keyBefore) {
          try {
            appendStatsSummary(this.root, statsSummary(state));
          } catch (err) {
            this.warn(`roz: cannot append to the stats index (${(err as Error).message}); roz stats may show this session's previous summary`);
          }
        }
      }
      this.appendTrace(sessionId, out.trace);
      return out.value;
    } finally {
      try {
        release();
      } catch {
        /* a lock we cannot remove goes stale and is taken over */
      }
    }
  }

  /**
   * Load a session. A document of the wrong shape is repaired and a copy kept
   * in quarantine; one that is no session at all (or no regular file) is moved
   * there and the session starts fresh. Either way the caller is told (fault).
   */
  private load(sessionId: string, now: Date): { state: SessionState | null; fault?: StateFault } {
    const file = statePath(this.root, sessionId);
    let raw: string;
    try {
      raw = readRegularText(file, STATE_MAX);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: null };
      if (!(err instanceof UnreadableFileError)) throw new StoreError(`cannot read ${file}: ${(err as Error).message}`, err);
      const kept = this.quarantine(file, sessionId, now, 'move');
      this.warn(`roz: session file ${file} is unusable (${err.message}); moved it to ${kept} and started a fresh state`);
      return { state: null, fault: { kind: 'corrupt', reason: err.message, kept, reviewWasActive: false } };
    }
    const revived = reviveSession(sessionId, raw, now);
    if ('corrupt' in revived) {
      const kept = this.quarantine(file, sessionId, now, 'move');
      this.warn(`roz: session file ${file} is corrupt (${revived.corrupt}); moved it to ${kept} and started a fresh state`);
      return { state: null, fault: { kind: 'corrupt', reason: revived.corrupt, kept, reviewWasActive: reviewActiveIn(raw) } };
    }
    if (revived.repaired.length === 0) return { state: revived.state };
    const reason = `wrong shape at ${revived.repaired.join(', ')}`;
    // An update that is retried (code loaded on demand) finds the same document: one copy is enough.
    const key = `${file}\0${raw}`;
    const kept = this.copies.get(key) ?? this.quarantine(file, sessionId, now, 'copy');
    this.copies.set(key, kept);
    this.warn(`roz: session file ${file} had fields of the ${reason.slice(6)}; reset them (a copy of the original is in ${kept})`);
    return { state: revived.state, fault: { kind: 'repaired', reason, kept, reviewWasActive: reviewActiveIn(raw) } };
  }

  /** Keep the original in `<store>/quarantine/`: moved when it is no session, copied when the session goes on repaired. */
  private quarantine(file: string, sessionId: string, now: Date, how: 'move' | 'copy'): string {
    const dir = quarantineDir(this.root);
    const target = join(dir, `${sessionId}.${now.toISOString().replace(/[:.]/g, '-')}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.state.json`);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (how === 'move') renameSync(file, target);
      else copyFileSync(file, target, constants.COPYFILE_EXCL);
    } catch (err) {
      throw new StoreError(`cannot move faulty ${file} aside: ${(err as Error).message}`, err);
    }
    return target;
  }

  read(sessionId: string): SessionState | null {
    const file = statePath(this.root, sessionId);
    let raw: string;
    try {
      raw = readRegularText(file, STATE_MAX);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreError(`cannot read ${file}: ${(err as Error).message}`, err);
    }
    const revived = reviveSession(sessionId, raw, new Date());
    if ('corrupt' in revived) throw new StoreError(`session file ${file} is corrupt: ${revived.corrupt}`);
    if (revived.repaired.length) this.warn(`roz: session file ${file} has fields of the wrong shape (${revived.repaired.join(', ')}); showing them reset`);
    return revived.state;
  }

  appendTrace(sessionId: string, records: TraceRecord[]): void {
    if (records.length === 0) return;
    const file = tracePath(this.root, sessionId);
    // One write per batch with O_APPEND: lines from concurrent writers never interleave.
    const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    try {
      mkdirSync(sessionDir(this.root, sessionId), { recursive: true, mode: 0o700 });
      appendRegularFile(this.root, file, text, { mode: 0o600 });
    } catch (err) {
      throw new StoreError(`cannot append to ${file}: ${(err as Error).message}`, err);
    }
    if (this.opts.telemetry) {
      try {
        spoolRecords(this.root, records);
      } catch (err) {
        this.warn(`roz: telemetry spool: ${(err as Error).message}; these events will not be exported`);
      }
    }
  }

  readTrace(sessionId: string): TraceRecord[] {
    let raw: string;
    try {
      raw = readRegularText(tracePath(this.root, sessionId), 512 * MiB);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new StoreError(`cannot read trace of ${sessionId}: ${(err as Error).message}`, err);
    }
    const out: TraceRecord[] = [];
    for (const line of raw.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as TraceRecord);
      } catch {
        // A torn last line (crash mid-append) is skipped, not fatal.
        this.warn(`roz: skipped an unreadable trace line in session ${sessionId}`);
      }
    }
    return out;
  }

  ids(): string[] {
    try {
      return readdirSync(sessionsDir(this.root));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new StoreError(`cannot list sessions: ${(err as Error).message}`, err);
    }
  }

  list(): SessionSummary[] {
    const names = this.ids();
    const out: SessionSummary[] = [];
    for (const id of names) {
      try {
        const doc = JSON.parse(readRegularText(statePath(this.root, id), STATE_MAX)) as SessionState;
        out.push({ session_id: id, created_at: doc.created_at, updated_at: doc.updated_at });
      } catch {
        try {
          const st = statSync(sessionDir(this.root, id));
          out.push({ session_id: id, created_at: st.birthtime.toISOString(), updated_at: st.mtime.toISOString() });
        } catch {
          /* vanished while listing */
        }
      }
    }
    // ISO timestamps: code-unit order is time order, without localeCompare's ICU collator.
    return out.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  }

  /** Every session's stats summary: from the index, else from its state file. */
  *summaries(): Generator<StatsSummary> {
    const index = readStatsIndex(this.root);
    const ids = this.ids();
    // Reading tidies: once superseded lines outnumber sessions, the next read would pay for them again.
    if (index.lines > 2 * ids.length + 1_000) {
      try {
        compactStatsIndex(this.root, new Set(ids));
      } catch (err) {
        this.warn(`roz: could not compact the stats index: ${(err as Error).message}`);
      }
    }
    for (const id of ids) {
      const indexed = summaryAt(index, id);
      if (indexed) {
        yield indexed;
        continue;
      }
      try {
        const state = this.read(id);
        if (state) yield statsSummary(state);
      } catch (err) {
        this.warn(`roz: skipped session ${id}: ${(err as Error).message}`);
      }
    }
  }

  remove(sessionId: string): void {
    rmSync(sessionDir(this.root, sessionId), { recursive: true, force: true });
  }
}
