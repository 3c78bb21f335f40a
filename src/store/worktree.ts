// The worktree as git sees it, for binding a review to what was reviewed:
// HEAD plus a git tree of every tracked and untracked-not-ignored file, built
// in a throwaway index (`git add -A` into GIT_INDEX_FILE, then `git write-tree`),
// so the user's own index is never touched. The tree's blobs land in the
// repository's object store like `git stash` would write them; `git gc`
// removes them once nothing refers to them. Called only where a review needs
// it (trigger, a reviewer's `roz context` and `roz decide`, a Stop after an
// approval, an approved gate), never on ordinary tool calls.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TreeSnapshot } from '../core/review/state.js';

type ChildProcess = typeof import('node:child_process');
// Loaded only when a snapshot is taken: the common hook path never pays for it.
const cp = (): ChildProcess => process.getBuiltinModule('node:child_process') as ChildProcess;

const GIT_TIMEOUT_MS = 10_000;

function git(cwd: string, args: string[], env?: NodeJS.ProcessEnv): string | null {
  const r = cp().spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...(env ?? process.env), GIT_OPTIONAL_LOCKS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0) lastError = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0] ?? '';
  return r.status === 0 ? r.stdout : null;
}

let lastError = '';
/** The first line of the last failing git call's stderr, for a note to the reader. */
export function lastGitError(): string {
  return lastError;
}

/** The worktree of `cwd` now, or null when it is not in a git repository (or git fails). */
export function snapshotWorktree(cwd: string, now: Date): TreeSnapshot | null {
  const info = git(cwd, ['rev-parse', '--show-toplevel', '--absolute-git-dir']);
  if (!info) return null;
  const [top, gitDir] = info.trim().split('\n');
  if (!top || !gitDir) return null;
  const head = git(top, ['rev-parse', '--verify', '-q', 'HEAD'])?.trim() || null;
  const scratch = mkdtempSync(join(tmpdir(), 'roz-index-'));
  try {
    const index = join(scratch, 'index');
    // Starting from the real index keeps git's stat cache: unchanged files are not re-hashed.
    try {
      copyFileSync(join(gitDir, 'index'), index);
    } catch {
      /* no index yet (fresh repository): git builds one */
    }
    const env = { ...process.env, GIT_INDEX_FILE: index };
    if (git(top, ['add', '-A', '--', '.'], env) === null) return null;
    const tree = git(top, ['write-tree'], env)?.trim();
    return tree ? { head, tree, at: now.toISOString() } : null;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Paths that differ between two trees (or a tree and a commit), or null when
 * git cannot say. `to` null: against the files on disk (tracked files, plus
 * untracked ones listed by name), for when no snapshot can be written.
 */
export function changedFiles(cwd: string, from: string, to: string | null): string[] | null {
  const out = git(cwd, ['diff', '--name-only', '--no-renames', from, ...(to ? [to] : [])]);
  if (out === null) return null;
  const files = out.split('\n').filter(Boolean);
  if (to === null) files.push(...(git(cwd, ['ls-files', '--others', '--exclude-standard']) ?? '').split('\n').filter(Boolean));
  return [...new Set(files)].sort();
}

/** `git diff` between two trees (`to` null: the tracked files on disk), for the reviewer. */
export function treeDiff(cwd: string, from: string, to: string | null, args: string[] = []): string | null {
  return git(cwd, ['diff', '--no-color', ...args, from, ...(to ? [to] : [])]);
}

/** One line per commit made since `base` (oldest first), or null. */
export function commitsSince(cwd: string, base: string): string | null {
  return git(cwd, ['log', '--oneline', '--reverse', `${base}..HEAD`]);
}
