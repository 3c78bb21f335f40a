// The exact files a git work-tree move changes (`git stash`, `git stash pop`,
// `git switch REF`, `git merge REF`), so such a command is judged by what it
// changes rather than as "anything in the work tree". Judged only in the
// project's own repository (the `.git` the session started with): a move in
// any other repository (a nested one the agent made, `git -C sub …`) is
// "anything under that repository's top". Git is asked only through
// store/git.ts (hardened), and only about objects (trees, stash commits);
// the work tree's side of `git stash` is roz's own hashing
// (store/tree-snapshot.ts), so nothing in the repository runs.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { GitMove } from '../core/shell/write-rules.js';
import { runGit, type GitRepo } from './git.js';
import { findTop, identityAt, identityChange, type GitIdentity } from './git-repo.js';
import type { takeSnapshot } from './tree-snapshot.js';

const splitZ = (out: string): string[] => out.split('\0').filter(Boolean);

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

export type GitMoveFiles =
  /** Absolute paths of the files the move changes. */
  | { files: string[] }
  /** Not judged exactly: anything under this directory (the top of the repository the move runs in). */
  | { under: string }
  /** Unknown: the caller keeps its whole-tree judgement. */
  | null;

/** HEAD's tree as path -> blob id, read from objects only. */
function headBlobs(repo: GitRepo): Map<string, string> | null {
  const r = runGit(repo, ['ls-tree', '-r', '-z', '--full-tree', 'HEAD']);
  if (!r.ok) return null;
  const out = new Map<string, string>();
  for (const line of splitZ(r.stdout)) {
    const m = /^\d+ \w+ ([0-9a-f]+)\t(.+)$/s.exec(line);
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

/** What `move`, run in `dir`, would change. `projectTop`/`expect`: the session's repository. */
export function filesOfGitMove(
  dir: string,
  move: GitMove,
  opts: { projectDir: string; storeDir: string; expect: GitIdentity | null; snapshot: typeof takeSnapshot },
): GitMoveFiles {
  // A ref from the agent's command is passed to git as an argument: never as an option.
  const ref = move.op === 'to-ref' ? move.ref : move.op === 'stash-apply' ? move.entry : 'HEAD';
  if (ref.startsWith('-') || ref.includes('\0')) return null;
  const top = findTop(dir);
  if (!top) return null;
  const projectTop = opts.expect?.top ?? findTop(opts.projectDir);
  // Compared as the kernel resolves them: the event's cwd may name the project through a link (macOS /tmp).
  if (!projectTop || realOr(top) !== realOr(projectTop)) return { under: top };
  const found = identityAt(projectTop);
  if (!found.ok) return { under: top };
  if (opts.expect && identityChange(opts.expect, found.id)) return { under: top };
  const repo: GitRepo = { gitDir: found.id.git_dir, workTree: projectTop };
  let rel: string[] = [];
  if (move.op === 'stash-push') {
    const head = headBlobs(repo);
    const snap = opts.snapshot(projectTop, opts.storeDir, { expect: opts.expect, write: false });
    const idx = runGit(repo, ['ls-files', '-z', '--cached', '--full-name']);
    if (!head || !snap.ok || !idx.ok) return null;
    // Tracked files whose content differs from HEAD (or that are gone), and staged new files.
    for (const [p, id] of head) if (snap.files.get(p)?.id !== id) rel.push(p);
    const indexed = new Set(splitZ(idx.stdout));
    for (const p of indexed) if (!head.has(p)) rel.push(p);
    if (move.untracked) for (const p of snap.files.keys()) if (!head.has(p) && !indexed.has(p)) rel.push(p);
  } else if (move.op === 'stash-apply') {
    const r = runGit(repo, ['stash', 'show', '--name-only', '-z', '--no-ext-diff', '--include-untracked', move.entry]);
    const out = r.ok ? r : runGit(repo, ['stash', 'show', '--name-only', '-z', '--no-ext-diff', move.entry]);
    if (!out.ok) return null;
    rel = splitZ(out.stdout);
  } else {
    const args = move.ref.includes('...') ? [move.ref] : ['HEAD', move.ref];
    const out = runGit(repo, ['diff', '--name-only', '-z', '--no-ext-diff', '--no-renames', ...args, '--']);
    if (!out.ok) return null;
    rel = splitZ(out.stdout);
  }
  return { files: [...new Set(rel)].map((p) => join(top, p)) }; // the move's spelling of the path: judged like its other targets
}
