// What the review gate says when a commit holds roz's own files otherwise
// than the disk (issue 29; store/tree-snapshot.ts rozFilesOffDisk finds them,
// core/review/policy.ts acts). Kept out of policy.ts, and loaded only with the
// snapshot code: every hook parses policy.ts, few ever need these words.
import { namedFiles } from './seen-tree.js';

export interface RozFilesOffDisk {
  files: string[];
  /** The re-arm's `why` (the block names the files before it). */
  why: string;
  /** To the human, at every stop while they are there. */
  warning: string;
  /** To the reviewer whose COMPLETE is refused. */
  refusal: string;
}

export function rozFilesOffDiskText(files: string[], base: string): RozFilesOffDisk {
  const s = files.length === 1 ? '' : 's';
  const short = base.slice(0, 12);
  return {
    files,
    why: "committed with content that is not on disk (roz's own files: only roz and the human write them; a commit of other bytes under their names is made by git plumbing)",
    warning:
      `roz: WARNING: a commit since ${short} holds roz's own file${s} ${namedFiles(files)} otherwise than the disk (written by git plumbing, not by roz or you). ` +
      `A git checkout, stash or reset --hard would put that content on disk. See it: git diff ${short} HEAD -- .orchestration; drop it before anything else reads it.`,
    refusal:
      `a commit since the review started holds roz's own file${s} ${namedFiles(files)} committed with content that is not on disk (git plumbing: only roz and the human write them). ` +
      'That cannot be approved: record ISSUES asking for those commits to be dropped (roz context lists them under "ROZ\'S OWN FILES CHANGED BY COMMITS")',
  };
}
