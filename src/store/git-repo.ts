// Which git repository a project is, read from the file system without
// running git, and its identity: the `.git` a session started with. The agent
// can replace `.git` (a fresh directory with its own config, a gitfile that
// points elsewhere, a `commondir`), and roz must not then take that
// repository's word for anything. SessionStart records the identity; every
// snapshot and git-move judgement compares it (sameGitIdentity) first.
import { lstatSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { GitIdentity } from '../core/git-identity.js';
import { readRegularText } from './regular-file.js';

export type { GitIdentity };

export type RepoLookup = { ok: true; id: GitIdentity } | { ok: false; error: string } | { ok: false; none: true };

const MAX_TEXT = 64 * 1024;

/** The directory holding `.git` at or above `start` (lstat: a `.git` symlink counts, and is refused later), or null. */
export function findTop(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    try {
      lstatSync(join(dir, '.git'));
      return dir;
    } catch {
      /* keep walking up */
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The repository at `top` (which holds `.git`), read without git. */
export function identityAt(top: string): RepoLookup {
  const dotGit = join(top, '.git');
  let st: import('node:fs').Stats;
  try {
    st = lstatSync(dotGit);
  } catch {
    return { ok: false, none: true };
  }
  if (st.isSymbolicLink()) return { ok: false, error: `${dotGit} is a symbolic link` };
  let gitDir = dotGit;
  let kind: 'dir' | 'file' = 'dir';
  if (st.isFile()) {
    kind = 'file';
    let text: string;
    try {
      text = readRegularText(dotGit, MAX_TEXT);
    } catch (err) {
      return { ok: false, error: `cannot read the gitfile ${dotGit}: ${(err as Error).message}` };
    }
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    if (!m) return { ok: false, error: `${dotGit} is a file but not a gitfile` };
    gitDir = isAbsolute(m[1]!) ? m[1]! : resolve(top, m[1]!);
  } else if (!st.isDirectory()) {
    return { ok: false, error: `${dotGit} is neither a directory nor a gitfile` };
  }
  let gst: import('node:fs').Stats;
  try {
    gst = statSync(gitDir);
    if (!gst.isDirectory()) return { ok: false, error: `the git directory ${gitDir} is not a directory` };
    statSync(join(gitDir, 'HEAD'));
  } catch {
    return { ok: false, error: `${dotGit} names ${gitDir}, which is not a git directory` };
  }
  let commonDir = gitDir;
  try {
    const c = readRegularText(join(gitDir, 'commondir'), MAX_TEXT).trim();
    commonDir = isAbsolute(c) ? c : resolve(gitDir, c);
  } catch {
    /* not a linked worktree */
  }
  return {
    ok: true,
    id: { top, dot_git: { kind, dev: st.dev, ino: st.ino }, git_dir: gitDir, git_dir_id: { dev: gst.dev, ino: gst.ino }, common_dir: commonDir },
  };
}

/** The repository holding `dir`, found by walking up to the nearest `.git`. */
export function repoOf(dir: string): RepoLookup {
  const top = findTop(dir);
  return top ? identityAt(top) : { ok: false, none: true };
}

/** Why `now` is not the repository `then` recorded, or null when it is. */
export function identityChange(then: GitIdentity, now: GitIdentity): string | null {
  if (then.top !== now.top) return `the repository's top moved from ${then.top} to ${now.top}`;
  if (then.dot_git.kind !== now.dot_git.kind)
    return `${now.top}/.git was a ${then.dot_git.kind === 'dir' ? 'directory' : 'gitfile'} and is now a ${now.dot_git.kind === 'dir' ? 'directory' : 'gitfile'}`;
  if (then.dot_git.dev !== now.dot_git.dev || then.dot_git.ino !== now.dot_git.ino)
    return `${now.top}/.git was replaced (another ${now.dot_git.kind === 'dir' ? 'directory' : 'file'})`;
  if (then.git_dir !== now.git_dir) return `${now.top}/.git now points to ${now.git_dir}, not ${then.git_dir}`;
  if (then.git_dir_id.dev !== now.git_dir_id.dev || then.git_dir_id.ino !== now.git_dir_id.ino) return `the git directory ${now.git_dir} was replaced`;
  if (then.common_dir !== now.common_dir) return `the git directory now shares objects and refs with ${now.common_dir} (commondir), not ${then.common_dir}`;
  return null;
}
