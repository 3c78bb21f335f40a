// A lock between processes on one file: `mkdir <file>.lock` is atomic on local
// filesystems, so exactly one process holds it. The holder touches the lock's
// mtime while it holds it; a lock whose mtime is older than `staleMs` belongs
// to a process that died and is taken over. This is proper-lockfile's protocol
// (so both can share a store); roz uses its own ~60 lines because
// proper-lockfile loads graceful-fs (which clones fs, pulling in streams,
// fs/promises, readline and assert) and signal-exit on every hook process.
import { mkdirSync, renameSync, rmdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { aboutToWait } from '../core/first-wait.js';

export interface LockOptions {
  /** A lock untouched for this long is taken over. */
  staleMs: number;
  /**
   * How often the holder refreshes its lock's mtime; null for a holder that
   * never yields to the event loop while it holds the lock (a timer could not
   * fire then anyway), which spares each hook node's timer machinery.
   */
  refreshMs: number | null;
  /** How long to wait for a busy lock before failing with code ELOCKED. */
  waitMs: number;
}

export class LockBusyError extends Error {
  readonly code = 'ELOCKED';
}

const sleep = (ms: number) => {
  // A hook process arms its deadline now (core/first-wait.ts).
  aboutToWait();
  return new Promise((r) => setTimeout(r, ms));
};

function isStale(dir: string, staleMs: number): boolean {
  try {
    return Date.now() - statSync(dir).mtimeMs > staleMs;
  } catch {
    return false; // gone already: the next mkdir will tell
  }
}

/** The lock is an empty directory: rmdir, without rmSync's recursive machinery (~1 ms to load per hook). */
function removeLockDir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return; // taken over as stale and removed
    if (code === 'ENOTEMPTY' || code === 'EEXIST') rmSync(dir, { recursive: true, force: true });
    else throw err;
  }
}

/**
 * Take the lock on `file`; resolves to its release function. Only contention is
 * waited for: any other error (read-only or full disk, missing directory) is
 * thrown at once, so a broken store fails fast instead of at the deadline.
 */
export async function acquireLock(file: string, opts: LockOptions): Promise<() => void> {
  const dir = `${file}.lock`;
  const deadline = Date.now() + opts.waitMs;
  let delay = 2;
  for (;;) {
    try {
      mkdirSync(dir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (isStale(dir, opts.staleMs)) {
      // Move it aside first: of several processes that saw it stale, one wins
      // the rename and the others simply retry the mkdir.
      const aside = `${dir}.stale.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
      try {
        renameSync(dir, aside);
        rmSync(aside, { recursive: true, force: true });
      } catch {
        /* someone else took it over first */
      }
      continue;
    }
    if (Date.now() > deadline) throw new LockBusyError(`${file} is locked by another process (waited ${opts.waitMs} ms)`);
    await sleep(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 1.5, 40);
  }
  const refreshMs = opts.refreshMs;
  const timer =
    refreshMs === null
      ? null
      : setInterval(() => {
          const now = new Date();
          try {
            utimesSync(dir, now, now);
          } catch {
            /* released or taken over; nothing to refresh */
          }
        }, refreshMs);
  timer?.unref();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (timer) clearInterval(timer);
    removeLockDir(dir);
  };
}
