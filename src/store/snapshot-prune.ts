// Bounding roz's snapshot repository (`<store>/snapshots.git`): every review
// snapshot writes the blobs and trees of the files it hashed there, and
// nothing else ever removes them. This sweeps the loose objects no live
// session can still need.
//
// Kept (the roots, and everything reachable from them):
//  - every object id named anywhere in a session's state document still in
//    the store (review bases, decisions' trees, reviewers' seen trees, the
//    scope audit's base and pending tree, whatever a later field adds): read
//    as text, so a new field needs no change here;
//  - every object younger than the grace period, and all it reaches, so a
//    snapshot taken but not yet recorded in its session (the hook is still
//    running) is never swept: a snapshot freshens its root tree's mtime even
//    when the tree already existed (tree-snapshot.ts), as git freshens an
//    object it would have written, and the root reaches every blob and tree
//    the snapshot reused. A snapshot and a prune never run at once
//    (snapshot-guard.ts), so what a root reaches is all there when it is
//    freshened.
// The stat caches (`roz-stat-*.json`) are no roots: a snapshot reuses a cached
// id only when its object is still there, else it hashes the file again.
// Fails safe: when any session's document cannot be read, or git cannot walk
// the roots (a missing object below a root), nothing is removed.
import { existsSync, lstatSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { runGit, type GitRepo } from './git.js';
import { beginPrune } from './snapshot-guard.js';
import { sessionsDir, snapshotsGitDir, statePath } from './paths.js';
import { readRegularText } from './regular-file.js';

export interface PruneOptions {
  now: Date;
  /** Unreachable objects younger than this stay (a snapshot not yet recorded). */
  graceMs: number;
  /** Stat caches not written for this long are removed first (a work tree roz no longer snapshots). */
  statCacheMaxAgeMs: number;
  dryRun?: boolean;
}

export interface PruneResult {
  /** Loose objects before the sweep. */
  objects: number;
  removed: number;
  bytesFreed: number;
  /** Why nothing was removed, when the sweep did not run. */
  skipped?: string;
}

const OID = /\b[0-9a-f]{40}\b/g;
const STATE_MAX = 64 * 1024 * 1024;
/** Default grace: far longer than any hook holds a snapshot before recording it. */
export const PRUNE_GRACE_MS = 60 * 60 * 1000;

/** Every loose object of the repository, with its file's mtime and size. */
function looseObjects(objectsDir: string): Map<string, { file: string; mtimeMs: number; size: number }> {
  const out = new Map<string, { file: string; mtimeMs: number; size: number }>();
  let dirs: string[];
  try {
    dirs = readdirSync(objectsDir);
  } catch {
    return out;
  }
  for (const d of dirs) {
    if (!/^[0-9a-f]{2}$/.test(d)) continue;
    for (const f of readdirSync(join(objectsDir, d))) {
      const file = join(objectsDir, d, f);
      const st = lstatSync(file);
      if (!st.isFile()) continue;
      // Leftover temporaries of a write that died (`<id>.<pid>.tmp`) are swept like unreachable objects.
      const id = /^[0-9a-f]{38}$/.test(f) ? d + f : `tmp:${file}`;
      out.set(id, { file, mtimeMs: st.mtimeMs, size: st.size });
    }
  }
  return out;
}

/** Object ids named in every session's state document, or why they cannot all be read. */
function sessionRoots(storeDir: string): { ids: Set<string> } | { error: string } {
  const ids = new Set<string>();
  let sessions: string[];
  try {
    sessions = readdirSync(sessionsDir(storeDir));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ids };
    return { error: `cannot list sessions: ${(err as Error).message}` };
  }
  for (const id of sessions) {
    let text: string;
    try {
      text = readRegularText(statePath(storeDir, id), STATE_MAX);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // a session directory without state yet: binds nothing
      return { error: `cannot read session ${id} (${(err as Error).message}): its trees are unknown` };
    }
    for (const m of text.matchAll(OID)) ids.add(m[0]);
  }
  return { ids };
}

/** Remove the stat caches of work trees not snapshotted for `statCacheMaxAgeMs`. */
function removeStaleStatCaches(gitDir: string, opts: PruneOptions): void {
  for (const f of readdirSync(gitDir)) {
    if (!/^roz-stat-[0-9a-f]+\.json$/.test(f)) continue;
    const file = join(gitDir, f);
    try {
      if (!opts.dryRun && opts.now.getTime() - lstatSync(file).mtimeMs > opts.statCacheMaxAgeMs) rmSync(file, { force: true });
    } catch {
      /* gone meanwhile */
    }
  }
}

/**
 * Sweep `<storeDir>/snapshots.git`'s loose objects that no session in the
 * store and no recent write can need. Never throws.
 */
export function pruneSnapshots(storeDir: string, opts: PruneOptions): PruneResult {
  // Not tree-snapshot.ts's snapshotRepo: that module (and its .gitignore matcher) loads on demand in hooks.
  const repo: GitRepo = { gitDir: snapshotsGitDir(storeDir), workTree: null };
  if (!existsSync(join(repo.gitDir, 'objects'))) return { objects: 0, removed: 0, bytesFreed: 0 };
  const guard = beginPrune(repo.gitDir);
  if (!guard.ok) return { objects: 0, removed: 0, bytesFreed: 0, skipped: guard.error };
  try {
    return sweep(storeDir, repo, opts);
  } catch (err) {
    return { objects: 0, removed: 0, bytesFreed: 0, skipped: (err as Error).message };
  } finally {
    guard.end();
  }
}

function sweep(storeDir: string, repo: GitRepo, opts: PruneOptions): PruneResult {
  // Listed only now, with no snapshot running: every mtime is final.
  const loose = looseObjects(join(repo.gitDir, 'objects'));
  const result: PruneResult = { objects: [...loose.keys()].filter((k) => !k.startsWith('tmp:')).length, removed: 0, bytesFreed: 0 };
  if (loose.size === 0) return result;
  const fromSessions = sessionRoots(storeDir);
  if ('error' in fromSessions) return { ...result, skipped: fromSessions.error };
  const cutoff = opts.now.getTime() - opts.graceMs;
  const young = [...loose].filter(([id, o]) => !id.startsWith('tmp:') && o.mtimeMs > cutoff).map(([id]) => id);
  removeStaleStatCaches(repo.gitDir, opts);
  const roots = [...fromSessions.ids, ...young].filter((id) => loose.has(id));

  // Everything reachable from the roots (trees and their blobs), walked by git in roz's own repository.
  const keep = new Set<string>();
  if (roots.length > 0) {
    const r = runGit(repo, ['rev-list', '--objects', '--no-walk', '--stdin'], {
      input: `${[...new Set(roots)].join('\n')}\n`,
      timeoutMs: 300_000,
      maxBuffer: 1024 * 1024 * 1024,
    });
    if (!r.ok) return { ...result, skipped: `git cannot walk the live snapshots (${r.error})` };
    for (const line of r.stdout.split('\n')) {
      const id = line.slice(0, 40);
      if (/^[0-9a-f]{40}$/.test(id)) keep.add(id);
    }
  }

  const emptied = new Set<string>();
  for (const [id, o] of loose) {
    if (keep.has(id) || o.mtimeMs > cutoff) continue;
    if (!opts.dryRun) {
      try {
        rmSync(o.file, { force: true });
      } catch {
        continue;
      }
      emptied.add(join(o.file, '..'));
    }
    if (!id.startsWith('tmp:')) result.removed++;
    result.bytesFreed += o.size;
  }
  for (const dir of emptied) {
    try {
      rmdirSync(dir); // only when empty
    } catch {
      /* still holds objects */
    }
  }
  return result;
}
