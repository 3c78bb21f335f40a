// `roz agent diff`: an agent's work against the commit its branch started
// from — its commits, its uncommitted changes and its untracked files — read
// without taking the repository's word for anything that could lie:
//  - the work tree is roz's own snapshot (store/tree-snapshot.ts): every file
//    read and hashed by roz into roz's `snapshots.git`, so no index flag,
//    ignore file of `.git/` or planted object changes what it holds;
//  - the base commit's tree and the branch tip's tree are read object by
//    object through the hardened runner and hashed again
//    (store/git-objects.ts, as the merge gate does), then written into roz's
//    repository: a loose object planted under a name its content does not
//    have is refused ("forged"), never shown as the work;
//  - the diff is git's between roz's own trees in roz's bare repository, with
//    no external diff, no textconv: no attribute, driver or config of the
//    agent's repository is consulted (it has none there to consult);
//  - the commits are git's walk from the branch tip to the base commit, and
//    each commit listed is read and hashed again.
// The agent's newest objects may still wait in its staging store (issue 29):
// they are taken in first, hashed, as the merge gate takes them.
// roz's own ledger (`.orchestration/agent_trace.jsonl`) is left out, as the
// merge gate leaves it out: roz merges it itself.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseNameStatusZ, parseNumstatZ, statusOf, summarize, type WorkCommit, type WorkDiff, type WorkFile } from '../core/fleet/work-diff.js';
import { LEDGER_PATH } from './agent-merge.js';
import type { FleetRepo, ListedAgent } from './agent-worktrees.js';
import { FleetError } from './fleet-error.js';
import { runGit, type GitRepo } from './git.js';
import { commitTree, ObjectError, parseTree, readObjects, treeWith, type TreeEntry } from './git-objects.js';
import { repoOf } from './git-repo.js';
import { intakeAt } from './object-intake.js';
import { beginSnapshot } from './snapshot-guard.js';
import { EMPTY_TREE, ensureRepo, ObjectWriter, snapshotRepo, takeSnapshot } from './tree-snapshot.js';

/** Commits listed at most (the count is still exact). */
const MAX_COMMITS = 200;
const OID = /^[0-9a-f]{40}$/;

/** Options of every diff here: no external diff, no textconv, no renames; binary files as git tells them (a NUL byte). */
const DIFF_ARGS = ['--no-ext-diff', '--no-textconv', '--no-renames', '--ignore-submodules=none', '--no-color'];

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

const has = (gitDir: string, id: string): boolean => id === EMPTY_TREE || existsSync(join(gitDir, 'objects', id.slice(0, 2), id.slice(2)));

/**
 * Copy `tree` and everything under it from the project's repository into
 * roz's, each object read there and hashed again. A blob roz's repository
 * already holds is not read again: roz wrote it from content it hashed itself.
 */
function importTree(from: GitRepo, snapDir: string, out: ObjectWriter, tree: string): void {
  let level = has(snapDir, tree) ? [] : [tree];
  const seen = new Set<string>(level);
  while (level.length > 0) {
    const objs = readObjects(from, level);
    const blobs: string[] = [];
    const next: string[] = [];
    for (const [id, obj] of objs) {
      if (obj.type !== 'tree') throw new ObjectError(`${id} is a ${obj.type} where a tree belongs`);
      for (const e of parseTree(obj.body)) {
        if (e.mode === '160000' || seen.has(e.id) || has(snapDir, e.id)) continue; // a gitlink names another repository's commit
        seen.add(e.id);
        (e.mode === '40000' ? next : blobs).push(e.id);
      }
    }
    if (blobs.length > 0)
      for (const [id, obj] of readObjects(from, blobs)) {
        if (obj.type !== 'blob') throw new ObjectError(`${id} is a ${obj.type} where a file belongs`);
        out.put('blob', obj.body);
      }
    // Each tree after its blobs (its subtrees come with the next level; the snapshot guard keeps the prune away meanwhile).
    for (const [, obj] of objs) out.put('tree', obj.body);
    level = next;
  }
}

/** The same tree without roz's ledger, written into roz's repository. */
function withoutLedger(snap: GitRepo, out: ObjectWriter, tree: string): string {
  const cache = new Map<string, TreeEntry[]>();
  const read = (id: string): TreeEntry[] => {
    const hit = cache.get(id);
    if (hit) return hit;
    if (id === EMPTY_TREE) return [];
    const obj = readObjects(snap, [id]).get(id)!;
    if (obj.type !== 'tree') throw new ObjectError(`${id} is a ${obj.type}, not a tree`);
    const entries = parseTree(obj.body);
    cache.set(id, entries);
    return entries;
  };
  return treeWith(read, tree, LEDGER_PATH, null, (_id, body) => out.put('tree', body)) ?? EMPTY_TREE;
}

function gitIn(repo: GitRepo, args: string[]): string {
  const r = runGit(repo, args);
  if (!r.ok) throw new FleetError(`git ${args[0]} failed in roz's snapshot repository: ${r.error}`);
  return r.stdout;
}

/** Commits on `head` since `base` (newest first, at most MAX_COMMITS), each read and hashed again; and how many there are. */
function commitsSince(common: GitRepo, base: string, head: string): { commits: WorkCommit[]; count: number } {
  const r = runGit(common, ['rev-list', `${base}..${head}`, '--']);
  if (!r.ok) throw new FleetError(`git cannot list ${head.slice(0, 12)}'s commits since ${base.slice(0, 12)}: ${r.error}`);
  const ids = r.stdout.split('\n').filter((l) => OID.test(l));
  const shown = ids.slice(0, MAX_COMMITS);
  const objs = readObjects(common, shown);
  const commits = shown.map((id) => {
    const body = objs.get(id)!.body.toString('utf8');
    const msg = body.slice(body.indexOf('\n\n') + 2);
    return { id, subject: msg.split('\n')[0] ?? '' };
  });
  return { commits, count: ids.length };
}

function countSince(common: GitRepo, from: string, ref: string): number {
  const r = runGit(common, ['rev-list', '--count', `${from}..${ref}`, '--']);
  return r.ok ? Number(r.stdout.trim()) || 0 : 0;
}

export interface WorkOptions {
  /** The patch too (else only names and counts). */
  patch: boolean;
  /**
   * Only what the branch holds (its tip's tree against the base commit), not the work tree:
   * what a merge or push takes, which a human approves (`roz agent merge --human`).
   */
  branchOnly?: boolean;
}

/**
 * The agent's work now. Throws FleetError (or ObjectError for a forged
 * object): an agent sharing a checkout has no base to diff against.
 */
export function agentWork(storeDir: string, repo: FleetRepo | null, listed: ListedAgent, opts: WorkOptions): WorkDiff {
  const { agent } = listed;
  if (agent.shared || !repo || !agent.branch || !agent.base_ref || !agent.base_commit)
    throw new FleetError(`${agent.name} shares ${agent.worktree} (no branch or base commit of its own): there is no work of its own to show`, 2);
  if (!OID.test(agent.base_commit)) throw new FleetError(`${agent.name}'s recorded base ${agent.base_commit} is not a commit id`);
  if (!listed.head) throw new FleetError(`${agent.name}: ${listed.problem ?? `the branch ${agent.branch} is gone`}`);
  const head = listed.head;

  // Its worktree must still be this repository's worktree for it (its `.git` is the agent's to rewrite).
  const wt = repoOf(agent.worktree);
  if (
    !wt.ok ||
    realOr(wt.id.top) !== agent.worktree ||
    realOr(wt.id.common_dir) !== repo.commonDir ||
    dirname(realOr(wt.id.git_dir)) !== join(repo.commonDir, 'worktrees')
  )
    throw new FleetError(`${agent.worktree} is no longer a worktree of this repository; roz will not read it as ${agent.name}'s work`);

  // Its last objects, hashed and taken into the repository (store/object-intake.ts): its newest commits may wait there.
  intakeAt(agent.worktree, storeDir);
  // The work tree, hashed by roz (not needed for the branch alone).
  const snap = opts.branchOnly ? null : takeSnapshot(agent.worktree, storeDir);
  if (snap && !snap.ok) throw new FleetError(`roz cannot snapshot ${agent.name}'s worktree: ${snap.error}`);
  const snapRepo = snapshotRepo(storeDir);
  ensureRepo(snapRepo.gitDir);
  const guard = beginSnapshot(snapRepo.gitDir);
  if (!guard.ok) throw new FleetError(guard.error);
  try {
    const out = new ObjectWriter(snapRepo.gitDir);
    const baseTree = commitTree(repo.common, agent.base_commit);
    const headTree = commitTree(repo.common, head);
    importTree(repo.common, snapRepo.gitDir, out, baseTree);
    importTree(repo.common, snapRepo.gitDir, out, headTree);
    const B = withoutLedger(snapRepo, out, baseTree);
    const H = withoutLedger(snapRepo, out, headTree);
    const W = snap?.ok ? withoutLedger(snapRepo, out, snap.snapshot.tree) : H;

    const numstat = parseNumstatZ(gitIn(snapRepo, ['diff', '--numstat', '-z', ...DIFF_ARGS, B, W, '--']));
    const status = parseNameStatusZ(gitIn(snapRepo, ['diff', '--name-status', '-z', ...DIFF_ARGS, B, W, '--']));
    const committed = new Set(parseNameStatusZ(gitIn(snapRepo, ['diff', '--name-status', '-z', ...DIFF_ARGS, B, H, '--'])).keys());
    const inWork = new Set(parseNameStatusZ(gitIn(snapRepo, ['diff', '--name-status', '-z', ...DIFF_ARGS, H, W, '--'])).keys());
    // Names in its index (names only, no flag read): a new file there is uncommitted, not untracked.
    const idx = runGit({ gitDir: wt.id.git_dir, workTree: agent.worktree }, ['ls-files', '-z', '--cached', '--full-name']);
    const indexed = new Set(idx.ok ? idx.stdout.split('\0').filter(Boolean) : []);
    const headFiles = new Set(gitIn(snapRepo, ['ls-tree', '-r', '-z', '--name-only', H]).split('\0').filter(Boolean));

    const changed: WorkFile[] = [...status.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([path, letter]) => {
        const n = numstat.get(path) ?? { added: null, removed: null };
        const work = inWork.has(path);
        const untracked = work && !headFiles.has(path) && !indexed.has(path);
        return {
          path,
          status: statusOf(letter),
          added: n.added,
          removed: n.removed,
          committed: committed.has(path),
          uncommitted: work && !untracked,
          untracked,
        };
      });
    const { commits, count } = commitsSince(repo.common, agent.base_commit, head);
    const behind = countSince(repo.common, agent.base_commit, agent.base_ref);
    const patch = opts.patch ? gitIn(snapRepo, ['diff', '-U3', ...DIFF_ARGS, B, W, '--']) : null;
    return {
      agent: agent.name,
      branch: agent.branch,
      base_ref: agent.base_ref,
      base_commit: agent.base_commit,
      head,
      ...summarize(changed, count, behind),
      commits,
      changed,
      patch,
    };
  } finally {
    guard.end();
  }
}
