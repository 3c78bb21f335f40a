// Bringing a checkout of the base branch up to a merge (`roz agent merge`):
// `read-tree -m -u OLD NEW`, hardened, filters off. The ledger is roz's file:
// the records hooks appended to it since the last commit (a session of the
// human's in that checkout, an earlier merge's records) are not the human's
// edits, so they must neither block a merge nor be lost by one. read-tree
// refuses a path the merge changes whose working copy is not OLD's, so when
// the merge changes the tracked ledger and the checkout's is not OLD's, roz
// keeps the working text, puts OLD's back, lets read-tree move it, and writes
// the union (the working records, then the merge's tracked ones it lacks).
import { join } from 'node:path';
import { ledgerUnion } from '../core/fleet/ledger-union.js';
import { LEDGER_PATH } from './agent-merge.js';
import { dirtyFiles, noFilters } from './agent-worktrees.js';
import { writeFileAtomicSync } from './atomic-write.js';
import { runGit, type GitRepo } from './git.js';
import { MiB, readOptionalText } from './regular-file.js';

const LEDGER_MAX = 1024 * MiB;

export interface BaseCheckout {
  path: string;
  git: GitRepo;
}

/** Uncommitted changes in a checkout of the base, the ledger left out (it is roz's, and merged by roz). */
export function humanChanges(co: BaseCheckout): string[] | null {
  const dirty = (dirtyFiles(co.git, false) ?? []).filter((p) => p !== LEDGER_PATH);
  return dirty.length > 0 ? dirty : null;
}

const blobAt = (git: GitRepo, commit: string): string | null => {
  const r = runGit(git, ['rev-parse', '--verify', '-q', `${commit}:${LEDGER_PATH}`]);
  return r.ok && /^[0-9a-f]{40}$/.test(r.stdout.trim()) ? r.stdout.trim() : null;
};

export function updateBaseCheckout(co: BaseCheckout, oldCommit: string, newCommit: string): { ok: true } | { ok: false; error: string } {
  const nf = noFilters(co.git);
  const readTree = () => runGit(co.git, [...nf, 'read-tree', '-m', '-u', oldCommit, newCommit], { timeoutMs: 120_000 });
  const oldLedger = blobAt(co.git, oldCommit);
  const newLedger = blobAt(co.git, newCommit);
  const file = join(co.path, LEDGER_PATH);
  const working = oldLedger === newLedger ? null : readOptionalText(file, LEDGER_MAX);
  const own = working !== null && (oldLedger === null || (dirtyFiles(co.git, false) ?? []).includes(LEDGER_PATH));
  if (!own) {
    const r = readTree();
    return r.ok ? { ok: true } : { ok: false, error: r.error };
  }
  // OLD's ledger back in the index and the file (or neither, when OLD has none), so read-tree may move it.
  const reset = oldLedger
    ? runGit(co.git, [...nf, 'checkout', oldCommit, '--', LEDGER_PATH])
    : runGit(co.git, ['rm', '-q', '-f', '--ignore-unmatch', '--', LEDGER_PATH]);
  const r = reset.ok ? readTree() : reset;
  const merged = readOptionalText(file, LEDGER_MAX) ?? '';
  // Failed or not, the working records go back: on success with the merge's tracked records after them.
  writeFileAtomicSync(co.path, file, r.ok ? ledgerUnion(working, merged).text : working);
  return r.ok ? { ok: true } : { ok: false, error: r.error };
}
