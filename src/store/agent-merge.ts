// `roz agent merge`: the git side of the merge gate. The verdict itself is
// pure (core/fleet/merge-gate.ts); this module gathers its git facts and, when
// the verdict allows, does the merge — with roz-chosen code only:
//  - every object the merge rests on (the branch tip's tree, the base tip's,
//    their merge base's, and the result's) is read and hashed again
//    (store/git-objects.ts): a loose object the agent planted under a name its
//    content does not have is refused;
//  - the merge is computed by `git merge-tree --write-tree` in a scratch bare
//    repository in roz's store whose objects reach the real ones through
//    `alternates`: its config and `info/attributes` are roz's (empty), it has
//    no work tree, so no merge driver, filter or attribute the agent wrote is
//    consulted; the hardened runner switches off hooks and the rest;
//  - the base branch moves with `update-ref NEW OLD` (a compare-and-swap);
//  - the ledger path `.orchestration/agent_trace.jsonl` is resolved by roz
//    (core/fleet/ledger-union.ts), never by git, and takes from the branch only
//    the records roz recorded writing (issue 29);
//  - a branch that changes any other of roz's files (`.orchestration/`:
//    intents, .intentignore, lessons, the map) is refused before anything
//    moves (rozFilesOnBranch, core/fleet/roz-files.ts).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerUnion } from '../core/fleet/ledger-union.js';
import { changedRozFiles, LEDGER_PATH, ROZ_DIR, type RozEntries, type RozFilesOnBranch } from '../core/fleet/roz-files.js';
import { registryDir } from './agent-registry.js';
import { EMPTY_TREE } from './tree-snapshot.js';
import { runGit, runGitBytes, type GitRepo } from './git.js';
import { commitTree, entryAt, objectHash, ObjectError, parseTree, readObjects, treeWith, verifyTree, type TreeEntry } from './git-objects.js';

export { LEDGER_PATH };

export interface BranchFacts {
  branchHead: string;
  baseHead: string;
  /** The branch tip's tree, every object under it verified. */
  branchTree: string;
  /** The same tree without the ledger (roz resolves the ledger itself; see treeForGate). */
  branchTreeForGate: string;
  /** The branch's trees (verified), for lookups. */
  branchRead: (id: string) => TreeEntry[];
  alreadyMerged: boolean;
  fastForward: boolean;
  checked: number;
}

/** The tree the gate compares: `tree` with the ledger path left out (it is appended to after a review and merged by roz). */
export function treeForGate(read: (id: string) => TreeEntry[], tree: string): string {
  return treeWith(read, tree, LEDGER_PATH, null) ?? EMPTY_TREE;
}

/** Directories roz and the client write into a project themselves (core/review/policy.ts OWN_FILES). */
const OWN_DIRS = ['.orchestration', '.claude'] as const;

function filesUnder(read: (id: string) => TreeEntry[], tree: string, dir: string): string[] {
  const top = entryAt(read, tree, dir);
  if (!top || top.mode !== '40000') return [];
  const out: string[] = [];
  const walk = (id: string, prefix: string): void => {
    for (const e of read(id)) {
      if (e.mode === '40000') walk(e.id, `${prefix}/${e.name}`);
      else out.push(`${prefix}/${e.name}`);
    }
  };
  walk(top.id, dir);
  return out;
}

/**
 * The reviewed tree as the gate compares it with the branch: without the
 * ledger, and without the files roz and the client write into a project by
 * themselves (`.orchestration/`, `.claude/`) that the branch does not hold —
 * the reviewer saw them in the worktree, but they are not merged. A file there
 * that the branch does hold must be exactly what the reviewer saw.
 */
export function reviewedForGate(read: (id: string) => TreeEntry[], reviewed: string, branchRead: (id: string) => TreeEntry[], branchTree: string): string {
  const made = new Map<string, TreeEntry[]>();
  const readBoth = (id: string): TreeEntry[] => made.get(id) ?? read(id);
  const keep = (id: string, body: Buffer): void => {
    made.set(id, parseTree(body));
  };
  let tree = treeWith(readBoth, reviewed, LEDGER_PATH, null, keep) ?? EMPTY_TREE;
  for (const dir of OWN_DIRS)
    for (const path of filesUnder(readBoth, tree, dir)) {
      if (!entryAt(branchRead, branchTree, path)) tree = treeWith(readBoth, tree, path, null, keep) ?? EMPTY_TREE;
    }
  return tree;
}

/** A reader of tree entries from `repo`, each object hashed again, cached. */
export function treeReader(repo: GitRepo, known?: Map<string, TreeEntry[]>): (id: string) => TreeEntry[] {
  const cache = new Map(known ?? []);
  return (id) => {
    const hit = cache.get(id);
    if (hit) return hit;
    if (id === EMPTY_TREE) return [];
    const obj = readObjects(repo, [id]).get(id)!;
    if (obj.type !== 'tree') throw new ObjectError(`${id} is a ${obj.type}, not a tree`);
    const entries = parseTree(obj.body);
    cache.set(id, entries);
    return entries;
  };
}

const tip = (common: GitRepo, ref: string): string | null => {
  const r = runGit(common, ['rev-parse', '--verify', '-q', `${ref}^{commit}`]);
  return r.ok && /^[0-9a-f]{40}$/.test(r.stdout.trim()) ? r.stdout.trim() : null;
};

export function branchFacts(common: GitRepo, branchRef: string, baseRef: string): BranchFacts {
  const branchHead = tip(common, branchRef);
  if (!branchHead) throw new ObjectError(`the branch ${branchRef} is gone`);
  const baseHead = tip(common, baseRef);
  if (!baseHead) throw new ObjectError(`the base branch ${baseRef} is gone`);
  const branchTree = commitTree(common, branchHead);
  const v = verifyTree(common, branchTree);
  const branchRead = treeReader(common, v.trees);
  return {
    branchRead,
    branchHead,
    baseHead,
    branchTree,
    branchTreeForGate: treeForGate(branchRead, branchTree),
    alreadyMerged: runGit(common, ['merge-base', '--is-ancestor', branchHead, baseHead]).ok,
    fastForward: runGit(common, ['merge-base', '--is-ancestor', baseHead, branchHead]).ok,
    checked: v.checked,
  };
}

export type MergeOutcome =
  | { ok: true; strategy: 'fast-forward' | 'merge'; commit: string; tree: string; ledgerInTree: boolean }
  | { ok: false; conflict: string[] }
  | { ok: false; error: string };

export interface MergeInput {
  storeDir: string;
  common: GitRepo;
  commonDir: string;
  baseRef: string;
  facts: BranchFacts;
  /** Who merges (the commit's author and committer), and the commit message. */
  human: string;
  message: string;
  /** Hashes of the ledger lines roz wrote in the agent's sessions: the only branch records merged (store/agent-sessions.ts). */
  recorded: ReadonlySet<string>;
}

/** A scratch bare repository in roz's store that sees the real objects (alternates) and nothing else of the repository. */
function scratchRepo(storeDir: string, commonDir: string): GitRepo {
  const parent = registryDir(storeDir);
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(join(parent, 'merge-'));
  mkdirSync(join(dir, 'objects', 'info'), { recursive: true });
  mkdirSync(join(dir, 'refs', 'heads'), { recursive: true });
  writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(dir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
  writeFileSync(join(dir, 'objects', 'info', 'alternates'), `${join(commonDir, 'objects')}\n`);
  return { gitDir: dir, workTree: null };
}

/** Loose objects the scratch repository wrote, copied into the real one (where it lacks them). */
function copyObjects(scratch: string, commonDir: string): void {
  const from = join(scratch, 'objects');
  for (const d of readdirSync(from)) {
    if (!/^[0-9a-f]{2}$/.test(d)) continue;
    const to = join(commonDir, 'objects', d);
    mkdirSync(to, { recursive: true });
    for (const f of readdirSync(join(from, d))) if (!existsSync(join(to, f))) copyFileSync(join(from, d, f), join(to, f));
  }
}

const GLOBAL_ATTRS = ['-c', `attr.tree=${EMPTY_TREE}`, '-c', 'merge.renormalize=false', '-c', 'core.autocrlf=false'];

/** The blob id of `text`, written into `repo`. */
function putBlob(repo: GitRepo, text: string): string | null {
  const r = runGit(repo, ['hash-object', '-w', '--no-filters', '--stdin'], { input: text });
  return r.ok ? r.stdout.trim() : null;
}

/**
 * Merge the branch into the base branch's ref. Nothing moves unless it all
 * works: on a conflict, or any object that does not hash to its name, the
 * base ref is left as it was. The caller updates a checkout of the base.
 */
export function mergeBranch(inp: MergeInput): MergeOutcome {
  const { common, facts } = inp;
  const scratch = scratchRepo(inp.storeDir, inp.commonDir);
  try {
    const baseTree = commitTree(common, facts.baseHead);
    const baseV = verifyTree(common, baseTree);
    const branchV = verifyTree(common, facts.branchTree);
    const read = treeReader(scratch, new Map([...baseV.trees, ...branchV.trees]));

    // The ledger, when a side tracks it: the base's records, then the branch's it lacks.
    const baseLedger = entryAt(read, baseTree, LEDGER_PATH);
    const branchLedger = entryAt(read, facts.branchTree, LEDGER_PATH);
    let ledgerBlob: string | null = null;
    if (baseLedger || branchLedger) {
      const text = (e: TreeEntry | null) => (e ? readObjects(scratch, [e.id]).get(e.id)!.body.toString('utf8') : '');
      const union = ledgerUnion(text(baseLedger), text(branchLedger), inp.recorded);
      ledgerBlob = putBlob(scratch, union.text);
      if (!ledgerBlob) return { ok: false, error: 'git could not store the merged ledger' };
    }
    const withLedger = (tree: string): string => {
      if (!ledgerBlob) return tree;
      const put = (_id: string, body: Buffer) => {
        runGit(scratch, ['hash-object', '-w', '--no-filters', '--stdin', '-t', 'tree'], { input: body });
      };
      return treeWith(read, tree, LEDGER_PATH, { mode: '100644', id: ledgerBlob }, put) ?? EMPTY_TREE;
    };

    let tree: string;
    let strategy: 'fast-forward' | 'merge';
    if (facts.fastForward) {
      tree = withLedger(facts.branchTree);
      strategy = tree === facts.branchTree ? 'fast-forward' : 'merge';
    } else {
      const mb = runGit(common, ['merge-base', facts.baseHead, facts.branchHead]);
      if (mb.ok && /^[0-9a-f]{40}$/.test(mb.stdout.trim())) verifyTree(common, commitTree(common, mb.stdout.trim()));
      const r = runGitBytes(scratch, [...GLOBAL_ATTRS, 'merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', facts.baseHead, facts.branchHead]);
      const out = (r.ok ? r.stdout : r.stdout).toString('utf8').split('\0');
      if (!r.ok && r.status !== 1) return { ok: false, error: `git merge-tree failed: ${r.error}` };
      const merged = out[0] ?? '';
      if (!/^[0-9a-f]{40}$/.test(merged)) return { ok: false, error: `git merge-tree gave no tree (${r.ok ? '' : r.error})` };
      const conflicted = [...new Set(out.slice(1).filter((p) => p !== ''))];
      const real = conflicted.filter((p) => p !== LEDGER_PATH);
      if (!r.ok && real.length > 0) return { ok: false, conflict: real };
      tree = withLedger(merged);
      strategy = 'merge';
    }

    let commit = facts.branchHead;
    if (strategy === 'merge') {
      const who = inp.human.replace(/[<>\n]/g, '') || 'roz';
      const c = runGit(scratch, [
        '-c',
        `user.name=${who}`,
        '-c',
        `user.email=${who}@localhost`,
        '-c',
        'commit.gpgSign=false',
        'commit-tree',
        tree,
        '-p',
        facts.baseHead,
        '-p',
        facts.branchHead,
        '-m',
        inp.message,
      ]);
      if (!c.ok || !/^[0-9a-f]{40}$/.test(c.stdout.trim())) return { ok: false, error: `git could not write the merge commit: ${c.ok ? c.stdout : c.error}` };
      commit = c.stdout.trim();
      copyObjects(scratch.gitDir, inp.commonDir);
      // What the base will hold, read back from the real repository and hashed again: an object
      // planted there under the name of one roz just made would stand in for it otherwise.
      const back = readObjects(common, [commit]).get(commit)!;
      if (back.type !== 'commit' || objectHash('commit', back.body) !== commit) return { ok: false, error: 'the merge commit did not read back' };
      verifyTree(common, tree);
    }

    const moved = runGit(common, ['update-ref', '-m', inp.message, inp.baseRef, commit, facts.baseHead]);
    if (!moved.ok) return { ok: false, error: `the base branch moved while roz merged (${moved.error}); nothing changed, try again` };
    return { ok: true, strategy, commit, tree, ledgerInTree: ledgerBlob !== null };
  } catch (err) {
    if (err instanceof ObjectError) return { ok: false, error: err.message };
    throw err;
  } finally {
    rmSync(scratch.gitDir, { recursive: true, force: true });
  }
}

/** A tree's files under `.orchestration/`, as "mode id" by path. */
function rozEntries(read: (id: string) => TreeEntry[], tree: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of filesUnder(read, tree, ROZ_DIR)) {
    const e = entryAt(read, tree, path);
    if (e) out.set(path, `${e.mode} ${e.id}`);
  }
  return out;
}

const ZERO = /^0{40}$/;

/**
 * What the branch does to roz's files (core/fleet/roz-files.ts): its tip
 * (every object verified) and each commit it would bring into the base (`git
 * log --raw` over baseHead..branchHead, merges against each parent; each
 * ledger blob read and hashed again). A file is the branch's change when it
 * holds what neither the base tip nor the merge base holds; a ledger line is
 * unverified when neither of them holds it and roz did not record writing it.
 */
export function rozFilesOnBranch(common: GitRepo, facts: BranchFacts, recorded: ReadonlySet<string>): RozFilesOnBranch {
  const baseTree = commitTree(common, facts.baseHead);
  const read = treeReader(common, new Map([...verifyTree(common, baseTree).trees]));
  const mb = runGit(common, ['merge-base', facts.baseHead, facts.branchHead]);
  const mbTree = mb.ok && /^[0-9a-f]{40}$/.test(mb.stdout.trim()) ? commitTree(common, mb.stdout.trim()) : null;
  if (mbTree) verifyTree(common, mbTree);
  const base: RozEntries = rozEntries(read, baseTree);
  const mergeBase: RozEntries | null = mbTree ? rozEntries(read, mbTree) : null;
  const blobText = (entry: string | undefined): string => {
    const id = entry?.split(' ')[1];
    if (!id) return '';
    const obj = readObjects(common, [id]).get(id)!;
    if (obj.type !== 'blob') throw new ObjectError(`${id} is a ${obj.type}, not a blob`);
    return obj.body.toString('utf8');
  };
  const allowed = `${blobText(base.get(LEDGER_PATH))}\n${blobText(mergeBase?.get(LEDGER_PATH))}`;
  const out: RozFilesOnBranch = { changed: [], unverified: [] };
  const seenLines = new Set<string>();
  const checkLedger = (entry: string | undefined, commit: string): void => {
    for (const line of ledgerUnion(allowed, blobText(entry), recorded).unverified) {
      if (seenLines.has(line)) continue;
      seenLines.add(line);
      out.unverified.push({ line, commit });
    }
  };
  const seenPaths = new Set<string>();
  const note = (path: string, commit: string): void => {
    if (seenPaths.has(path)) return;
    seenPaths.add(path);
    out.changed.push({ path, commit });
  };
  // The tip, from roz's own reading of its objects.
  const tip = rozEntries(facts.branchRead, facts.branchTree);
  for (const p of changedRozFiles(tip, base, mergeBase)) note(p, facts.branchHead);
  checkLedger(tip.get(LEDGER_PATH), facts.branchHead);
  // Every commit the merge brings: history the base would hold (and a human's checkout could put on disk).
  const log = runGit(
    common,
    ['log', '--raw', '-m', '--no-renames', '--no-abbrev', '--format=commit %H', `${facts.baseHead}..${facts.branchHead}`, '--', ROZ_DIR],
    {
      timeoutMs: 60_000,
    },
  );
  if (!log.ok) throw new ObjectError(`git could not list the branch's changes to ${ROZ_DIR}/ (${log.error})`);
  let commit = facts.branchHead;
  for (const line of log.stdout.split('\n')) {
    const c = /^commit ([0-9a-f]{40})/.exec(line);
    if (c) {
      commit = c[1]!;
      continue;
    }
    const m = /^:\d+ (\d+) [0-9a-f]{40} ([0-9a-f]{40}) \w+\t(.+)$/.exec(line);
    if (!m) continue;
    const [, mode, id, path] = m as unknown as [string, string, string, string];
    const entry = ZERO.test(id) ? undefined : `${mode} ${id}`;
    if (path === LEDGER_PATH) {
      checkLedger(entry, commit);
      continue;
    }
    const at = new Map<string, string>(entry ? [[path, entry]] : []);
    const only = (m: RozEntries | null): RozEntries | null => (m ? new Map(m.has(path) ? [[path, m.get(path)!]] : []) : null);
    if (changedRozFiles(at, only(base)!, only(mergeBase)).length > 0) note(path, commit);
  }
  return out;
}
