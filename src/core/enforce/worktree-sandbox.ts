// The sandbox of an agent whose project is a linked git worktree (issue 25,
// part 3). Worktrees share one repository: the client leaves the common git
// dir's refs, info/ and packed-refs writable (observed on both pinned
// clients, shared/reference/claude-code-sandbox.md), so an agent could move
// the human's branch past the merge gate (`git update-ref refs/heads/main`)
// or plant `info/attributes` filters for everyone. This plans what it may
// write: its worktree, its own admin dir, objects, its own branch ref and
// reflog; and denies the rest of the common dir.
//
// Why siblings and not a parent: the sandbox mounts denyWrite paths over the
// allowWrite ones, so a deny of `refs/` would also hide an allow of
// `refs/heads/roz/a`. Every entry beside the agent's own path is denied one
// by one instead, at each level down to its branch; the ref's directory stays
// writable because git writes `<ref>.lock` there and renames it.
// Pure: the caller (engine/worktree-facts.ts) lists the directories.
import type { ClaudeSettings } from './settings.js';

export interface LinkedWorktree {
  /** The worktree's top directory (the client's project). */
  worktree: string;
  /** Its own admin dir, `<common>/worktrees/<id>`. */
  gitDir: string;
  /** The shared git dir. */
  commonDir: string;
  /** `refs/heads/roz/NAME`, or null on a detached HEAD (then no ref is writable). */
  branch: string | null;
  /** Top-level names in the common dir (`config`, `HEAD`, `refs`, …). */
  commonEntries: string[];
  /** Files and directories under `<common>/refs`, as ref names (`refs/heads/main`, `refs/tags`). */
  looseRefs: string[];
  /** Files and directories under `<common>/logs`, relative to it (`HEAD`, `refs/heads/main`). */
  reflogs: string[];
  /** Names under `<common>/worktrees` (each linked worktree's admin dir). */
  worktreeIds: string[];
  /** Other checkouts of the same repository: the main one and other worktrees. */
  otherWorktrees: string[];
}

export interface WorktreeSandbox {
  allowWrite: string[];
  denyWrite: string[];
}

/** What the agent needs to commit; everything else in the common dir is denied. */
const COMMON_KEPT = new Set(['objects', 'refs', 'logs', 'worktrees']);
/**
 * Names in the common dir that the human's git (run in the main checkout,
 * outside every sandbox) reads when they exist, and that an agent in a
 * linked worktree never needs to write (its own pseudo-refs and operation
 * state live in its admin dir): denied even when missing (issue 29; the
 * table in docs/security.md, "The shared git directory"). Created by the
 * agent, each would act in the human's checkout: a submodule's git dir with
 * its config and hooks (`modules/`), a rebase or cherry-pick todo whose
 * `exec` lines run on `--continue`, a merge in progress whose next commit
 * takes the agent's commit as a parent, recorded conflict resolutions
 * (`rr-cache/`, whose mere presence turns rerere on), LFS content,
 * shallow grafts that hide history, refs the human names (FETCH_HEAD,
 * ORIG_HEAD), legacy remotes. The sandbox mounts a placeholder for a missing
 * one (inside: /dev/null, which git reads as empty; on the host, while a
 * command runs: an empty read-only file, as the client does for
 * `config.lock`), so the agent cannot create it.
 */
export const HUMAN_READS_WHEN_PRESENT = [
  'modules',
  'lfs',
  'rr-cache',
  'shallow',
  'remotes',
  'branches',
  'rebase-merge',
  'rebase-apply',
  'sequencer',
  'MERGE_HEAD',
  'MERGE_MSG',
  'MERGE_MODE',
  'MERGE_RR',
  'AUTO_MERGE',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'REBASE_HEAD',
  'FETCH_HEAD',
  'ORIG_HEAD',
  'SQUASH_MSG',
  'BISECT_START',
  'BISECT_LOG',
  'BISECT_TERMS',
  'BISECT_NAMES',
  'BISECT_EXPECTED_REV',
  'BISECT_ANCESTORS_OK',
  'config.worktree',
] as const;

/**
 * Denied even when missing (the sandbox then mounts a placeholder, so the
 * agent cannot create them). Not packed-refs: its placeholder is unreadable
 * on 2.1.197 and every git command then fails (observed); the launcher
 * creates an empty one first (store/linked-worktree.ts ensurePackedRefs),
 * denied with the other entries (the agent's commits write loose refs only).
 */
const ALWAYS_DENIED = ['config', 'hooks', 'info', ...HUMAN_READS_WHEN_PRESENT];

const join = (...parts: string[]): string => parts.join('/').replace(/\/+/g, '/');

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/**
 * Entries (files and directories, paths relative to one root) that are not
 * on the way to `own`: for each, the shortest prefix where it leaves `own`'s
 * path. With `own` null every entry's first component is returned.
 */
export function siblingsOff(files: string[], own: string | null): string[] {
  const ownParts = own ? own.split('/') : [];
  const out = new Set<string>();
  for (const f of files) {
    const parts = f.split('/');
    let i = 0;
    while (i < parts.length && i < ownParts.length && parts[i] === ownParts[i]) i++;
    // Own itself, or a directory on the way to it: writable (git writes `<ref>.lock` beside the ref).
    if (i === parts.length) continue;
    out.add(parts.slice(0, Math.min(i + 1, parts.length)).join('/'));
  }
  return [...out].sort();
}

/**
 * `stagedObjects`: the agent's git writes new objects into a staging store in
 * its own admin dir (store/object-staging.ts) and the shared `objects/` is
 * read-only, so no object anyone else reads can be replaced (issue 29).
 * Without it (a plan printed for a launch roz does not make), `objects/`
 * stays writable, as git needs it to commit.
 */
export function planWorktreeSandbox(w: LinkedWorktree, stagedObjects = false): WorktreeSandbox {
  const c = w.commonDir;
  const own = w.branch;
  const ownDir = own ? own.split('/').slice(0, -1).join('/') : null;
  const allowWrite = stagedObjects ? [w.worktree, w.gitDir] : [w.worktree, w.gitDir, join(c, 'objects')];
  if (own && ownDir) allowWrite.push(join(c, ownDir), join(c, 'logs', ownDir));

  const deny = new Set<string>();
  for (const e of ALWAYS_DENIED) deny.add(join(c, e));
  for (const e of w.commonEntries) if (!COMMON_KEPT.has(e) || (stagedObjects && e === 'objects')) deny.add(join(c, e));
  // Other worktrees' admin dirs (their HEAD, index): every id but this one.
  for (const id of w.worktreeIds) {
    const dir = join(c, 'worktrees', id);
    if (dir !== w.gitDir) deny.add(dir);
  }
  for (const r of siblingsOff(w.looseRefs, own)) deny.add(join(c, r));
  for (const l of siblingsOff(w.reflogs, own)) deny.add(join(c, 'logs', l));
  for (const o of w.otherWorktrees) deny.add(o);
  // A deny over a parent hides a nested allow (2.1.330 observed: denying the
  // main checkout made the shared .git read-only): never deny a directory
  // holding what the agent must write. The main checkout, which holds the
  // shared .git, stays read-only by the client's own rule (outside the project).
  const needed = [w.worktree, w.gitDir, w.commonDir];
  return { allowWrite: [...new Set(allowWrite)], denyWrite: [...deny].filter((d) => !needed.some((n) => inside(n, d))) };
}

/** The settings fragment: merged after roz's own (arrays add, nothing is dropped). */
export function worktreeSandboxFragment(w: LinkedWorktree, stagedObjects = false): ClaudeSettings {
  const plan = planWorktreeSandbox(w, stagedObjects);
  return { sandbox: { filesystem: { allowWrite: plan.allowWrite, denyWrite: plan.denyWrite } } };
}
