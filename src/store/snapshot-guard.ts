// Snapshots and the prune of roz's snapshot repository never overlap: a
// snapshot reuses objects already there (unchanged files, unchanged
// directories), and a prune running meanwhile could sweep one it had judged
// unreachable a moment before. Each side leaves a marker, then looks for the
// other's (in that order, so at least one of two racing sides sees the other):
// a prune that finds a live snapshot gives up until next time; a snapshot that
// finds a prune waits for it, and past WAIT_MS fails — which the review treats
// as "cannot be snapshotted" (the gate re-arms), never as "unchanged".
// Markers of a process that died go stale: a snapshot's when its pid is gone
// or after BUSY_STALE_MS, a prune's after PRUNE_STALE_MS.
import { lstatSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sleepSync } from './sleep-sync.js';

const BUSY = 'roz-busy';
const PRUNING = 'roz-pruning';
const BUSY_STALE_MS = 10 * 60_000;
const PRUNE_STALE_MS = 30 * 60_000;
const WAIT_MS = 10_000;

export type Guard = { ok: true; end(): void } | { ok: false; error: string };

function ageMs(path: string): number | null {
  try {
    return Date.now() - lstatSync(path).mtimeMs;
  } catch {
    return null;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Mark a snapshot writing into `gitDir`; waits out a running prune. */
export function beginSnapshot(gitDir: string, opts: { waitMs?: number } = {}): Guard {
  const dir = join(gitDir, BUSY);
  const marker = join(dir, `${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(marker, '', { flag: 'wx', mode: 0o600 });
  } catch (err) {
    return { ok: false, error: `roz cannot mark its snapshot store busy (${(err as Error).message})` };
  }
  const end = () => rmSync(marker, { force: true });
  const deadline = Date.now() + (opts.waitMs ?? WAIT_MS);
  for (;;) {
    const age = ageMs(join(gitDir, PRUNING));
    if (age === null || age > PRUNE_STALE_MS) return { ok: true, end };
    if (Date.now() > deadline) {
      end();
      return { ok: false, error: `roz's snapshot store is being pruned (${join(gitDir, PRUNING)}); try again` };
    }
    sleepSync(50);
  }
}

/** Mark a prune of `gitDir`; refused while a live snapshot is writing (or another prune runs). */
export function beginPrune(gitDir: string): Guard {
  const mark = join(gitDir, PRUNING);
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(mark);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return { ok: false, error: `cannot mark the prune (${(err as Error).message})` };
      const age = ageMs(mark);
      if (attempt > 0 || (age !== null && age <= PRUNE_STALE_MS)) return { ok: false, error: 'another prune is running' };
      try {
        const aside = `${mark}.stale.${process.pid}`;
        renameSync(mark, aside);
        rmSync(aside, { recursive: true, force: true });
      } catch {
        /* another process took it over first: the next mkdir tells */
      }
    }
  }
  const end = () => {
    try {
      rmdirSync(mark);
    } catch {
      /* taken over as stale */
    }
  };
  let markers: string[] = [];
  try {
    markers = readdirSync(join(gitDir, BUSY));
  } catch {
    /* no snapshot ever marked */
  }
  for (const m of markers) {
    const file = join(gitDir, BUSY, m);
    const pid = Number(m.split('-')[0]);
    const age = ageMs(file);
    if (age === null) continue;
    if (age <= BUSY_STALE_MS && Number.isInteger(pid) && pid > 0 && pidAlive(pid)) {
      end();
      return { ok: false, error: `a snapshot is being taken (pid ${pid})` };
    }
    rmSync(file, { force: true }); // its process died
  }
  return { ok: true, end };
}
