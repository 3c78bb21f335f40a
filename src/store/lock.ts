// A lock between processes on one file: `mkdir <file>.lock` is atomic on local
// filesystems, so exactly one process holds it. The holder touches the lock's
// mtime while it holds it; a lock whose mtime is older than `staleMs` belongs
// to a process that died and is taken over. This is proper-lockfile's protocol;
// roz uses its own lines because proper-lockfile loads graceful-fs (which
// clones fs, pulling in streams, fs/promises, readline and assert) and
// signal-exit on every hook process.
//
// A holder that is alive but slow (a hook past `staleMs` inside its update,
// which refreshes nothing) is taken over all the same, so ownership is fenced:
// the holder leaves a marker file of its own, named by a random token, inside
// the lock directory. `commitWrite` writes the new content INTO that marker
// (opened without O_CREAT) and renames it over the target: both steps resolve
// the path through the lock directory, so once a taker has moved the holder's
// directory aside (the first step of a takeover, before it reads anything),
// the marker is not there and the write fails with LockLostError — nothing
// lands. A rename that succeeded happened before the takeover, so the taker
// reads it. Release removes only the holder's own marker and then the directory
// if it is empty: a late holder never removes its successor's lock.
import {
  closeSync,
  constants,
  fchmodSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
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

/** The holder's lock was taken over (it held it past `staleMs`): its write was dropped. */
export class LockLostError extends Error {
  readonly code = 'ELOCKLOST';
}

/** A held lock: call it to release. */
export interface HeldLock {
  (): void;
  /**
   * Replace `target` (in the lock's own directory's parent, i.e. beside the
   * locked file) with `data`, atomically, only if this lock is still held:
   * otherwise LockLostError and nothing is written. Once per hold.
   */
  commitWrite(target: string, data: string, opts?: { mode?: number }): void;
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

/** Remove the holder's marker, then the directory only if that left it empty (else it is a successor's). */
function removeLockDir(dir: string, marker: string): void {
  try {
    unlinkSync(marker);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // committed, or taken over
  }
  try {
    rmdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTEMPTY' || code === 'EEXIST') return; // taken over: the directory is no longer ours
    throw err;
  }
}

/**
 * Take the lock on `file`; resolves to its release function. Only contention is
 * waited for: any other error (read-only or full disk, missing directory) is
 * thrown at once, so a broken store fails fast instead of at the deadline.
 */
export async function acquireLock(file: string, opts: LockOptions): Promise<HeldLock> {
  const dir = `${file}.lock`;
  const marker = join(dir, `${process.pid}.${Math.random().toString(36).slice(2, 12)}.holder`);
  const deadline = Date.now() + opts.waitMs;
  let delay = 2;
  for (;;) {
    let made = true;
    try {
      mkdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      made = false;
    }
    if (made) {
      try {
        writeFileSync(marker, '', { flag: 'wx', mode: 0o600 });
        break;
      } catch (err) {
        removeLockDir(dir, marker);
        throw err;
      }
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
  let committed = false;
  const release = (() => {
    if (released) return;
    released = true;
    if (timer) clearInterval(timer);
    removeLockDir(dir, marker);
  }) as HeldLock;
  release.commitWrite = (target, data, o = {}) => {
    if (released || committed) throw new LockLostError(`${file}: commitWrite after release or twice`);
    const lost = () => new LockLostError(`lost the lock on ${file}: held past ${opts.staleMs} ms and taken over; this write was dropped`);
    let fd: number;
    try {
      // No O_CREAT: the marker exists only in our own lock directory.
      fd = openSync(marker, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw lost();
      throw err;
    }
    try {
      const buf = Buffer.from(data, 'utf8');
      for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
      if (o.mode !== undefined && o.mode !== 0o600) fchmodSync(fd, o.mode); // the marker is made 0600
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(marker, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw lost();
      throw err;
    }
    committed = true;
  };
  return release;
}
