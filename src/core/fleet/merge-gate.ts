// The merge gate: an agent's branch goes into its base only when its latest
// review is an approval of exactly the tree the branch holds now.
export interface ReviewedDecision {
  kind: 'complete' | 'issues';
  /** The tree the reviewer saw; null when it could not be taken. */
  tree: string | null;
  decided_at: string;
}

export interface MergeFacts {
  /** The agent's valid decisions, oldest first (invalid ones never count). */
  decisions: ReadonlyArray<ReviewedDecision>;
  /** The tree of the branch's tip commit. */
  branchTree: string;
  /** The branch's tip and the base branch's tip. */
  branchHead: string;
  baseHead: string;
  /** True when the base already contains the branch tip. */
  alreadyMerged: boolean;
}

export type MergeRefusal = 'never-reviewed' | 'issues-open' | 'changed-since-approval' | 'no-tree' | 'nothing-to-merge';

export type MergeVerdict = { ok: true; approvedAt: string; tree: string } | { ok: false; code: MergeRefusal; why: string };

export function mergeVerdict(agent: string, f: MergeFacts): MergeVerdict {
  if (f.alreadyMerged || f.branchHead === f.baseHead) {
    return { ok: false, code: 'nothing-to-merge', why: `roz/${agent} has nothing the base branch does not already have` };
  }
  const last = f.decisions.at(-1);
  if (!last) {
    return { ok: false, code: 'never-reviewed', why: `${agent}'s work was never reviewed: ask it for a review (#roz) and merge once it is approved` };
  }
  if (last.kind === 'issues') {
    return { ok: false, code: 'issues-open', why: `${agent}'s latest review (${last.decided_at}) found ISSUES: they must be fixed and re-reviewed first` };
  }
  if (last.tree === null) {
    return {
      ok: false,
      code: 'no-tree',
      why: `${agent}'s approval (${last.decided_at}) recorded no tree, so roz cannot tell what it covers: ask for a new review`,
    };
  }
  if (last.tree !== f.branchTree) {
    return {
      ok: false,
      code: 'changed-since-approval',
      why: `roz/${agent} changed since its approval (${last.decided_at}): the reviewer saw tree ${last.tree.slice(0, 12)}, the branch holds ${f.branchTree.slice(0, 12)} (uncommitted or later work): ask for a new review`,
    };
  }
  return { ok: true, approvedAt: last.decided_at, tree: last.tree };
}
