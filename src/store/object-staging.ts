// Where an agent's new git objects wait for roz (store/object-intake.ts): the
// staging store of the repository a directory is in. This part is on every
// hook's path, so it only looks (a walk up to `.git`, two directory reads);
// store/staging-place.ts makes the store and checks the repository, and the
// intake itself is loaded only when something waits.
import { lstatSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readOptionalText } from './regular-file.js';

/** The staging store's name inside a git directory (a worktree's admin dir, or `.git`); plugin/git-shim/git knows it too. */
export const STAGING_NAME = 'roz-objects';

/** What the main checkout's git dir holds while an operation its next command continues is in progress. */
export const OPERATIONS_IN_PROGRESS = ['rebase-merge', 'rebase-apply', 'sequencer', 'MERGE_HEAD'] as const;

/** Whether anything waits in a staging store: a loose object's fan-out folder or a pack (cheap: two directory reads). */
export function stagingHasWork(staging: string): boolean {
  let top: string[];
  try {
    top = readdirSync(staging);
  } catch {
    return false;
  }
  if (top.some((n) => /^[0-9a-f]{2}$/.test(n))) return true;
  try {
    return readdirSync(join(staging, 'pack')).some((n) => n.endsWith('.pack'));
  } catch {
    return false;
  }
}

/**
 * The staging store of the repository holding `dir`, found without git and
 * without checking the repository (the intake does that): `.git`'s
 * directory, or the one its gitfile names, + `roz-objects`. Null outside git.
 */
export function stagingDirOf(dir: string): string | null {
  let cur = resolve(dir);
  for (;;) {
    const dotGit = join(cur, '.git');
    const st = lstatSync(dotGit, { throwIfNoEntry: false });
    if (st?.isDirectory()) return join(dotGit, STAGING_NAME);
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readOptionalText(dotGit, 64 * 1024) ?? '');
      return m ? join(isAbsolute(m[1]!) ? m[1]! : resolve(cur, m[1]!), STAGING_NAME) : null;
    }
    if (st) return null;
    const up = dirname(cur);
    if (up === cur) return null;
    cur = up;
  }
}
