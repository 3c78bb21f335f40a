// What a reviewer must see besides the worktree diff (issue 29): roz's own
// files as the commits hold them, and, for an agent in its worktree, every
// path a merge of its branch would bring. The review's diff is between roz's
// snapshots of the worktree's files; a commit made by git plumbing can hold
// other bytes under a name than the file on disk (a forged ledger, intents,
// a lesson), and those bytes are what a merge or a human's checkout reads.
// Read-only git, hardened (store/git.ts), in the session's repository.
import { realpathSync } from 'node:fs';
import { isRozFile, ROZ_DIR } from '../core/fleet/roz-files.js';
import { listAgents } from './agent-worktrees.js';
import { runGit, type GitRepo } from './git.js';
import { identityChange, repoOf, type GitIdentity } from './git-repo.js';

const DIFF_ARGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--text', '--no-renames', '--ignore-submodules=none', '-U3'];

export interface CommittedRozFiles {
  /** `M\t.orchestration/…` lines: roz's files whose committed content HEAD changed since `base`. */
  files: string[];
  diff: string;
}

function repoAt(projectRoot: string, expect?: GitIdentity | null): { ok: true; git: GitRepo } | { ok: false; error: string } {
  const found = repoOf(projectRoot);
  if (!found.ok) return { ok: false, error: 'error' in found ? found.error : `${projectRoot} is not in a git repository` };
  const why = expect ? identityChange(expect, found.id) : null;
  if (why) return { ok: false, error: `refused: ${why} since the session started` };
  return { ok: true, git: { gitDir: found.id.git_dir, workTree: null } };
}

const nameStatus = (out: string): string[] => out.split('\n').filter(Boolean);

/** roz's files (`.orchestration/`) that commits since `base` changed: HEAD's tree against `base`'s. */
export function committedRozFiles(
  projectRoot: string,
  base: string,
  expect?: GitIdentity | null,
): { ok: true; view: CommittedRozFiles } | { ok: false; error: string } {
  if (!/^[0-9a-f]{40,64}$/.test(base)) return { ok: false, error: `not a commit id: ${base}` };
  const at = repoAt(projectRoot, expect);
  if (!at.ok) return at;
  const names = runGit(at.git, ['diff', '--name-status', ...DIFF_ARGS, base, 'HEAD', '--', ROZ_DIR]);
  if (!names.ok) return { ok: false, error: names.error };
  const files = nameStatus(names.stdout);
  if (files.length === 0) return { ok: true, view: { files, diff: '' } };
  const diff = runGit(at.git, ['diff', ...DIFF_ARGS, base, 'HEAD', '--', ROZ_DIR]);
  return { ok: true, view: { files, diff: diff.ok ? diff.stdout : `(git could not diff them: ${diff.error})` } };
}

export interface MergeView {
  agent: string;
  branch: string;
  base: string;
  /** Name-status lines of the branch tip against its merge base with the base branch. */
  files: string[];
  /** The diff of roz's files among them. */
  rozDiff: string;
}

/**
 * For a session in an agent's worktree (roz's registry says so): every path
 * `roz agent merge` would bring, the branch tip against its merge base with
 * the base branch, and the diff of roz's files among them. Null elsewhere.
 */
export function mergeView(storeDir: string, projectRoot: string): { ok: true; view: MergeView | null } | { ok: false; error: string } {
  let listed: ReturnType<typeof listAgents>;
  let real = projectRoot;
  try {
    real = realpathSync.native(projectRoot);
    listed = listAgents(storeDir, real);
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  const found = listed.agents.find((a) => a.git && a.agent.worktree === real && a.agent.branch && a.agent.base_ref && !a.agent.shared);
  if (!found || !listed.repo) return { ok: true, view: null };
  const { agent } = found;
  const common = listed.repo.common;
  const range = `${agent.base_ref}...refs/heads/${agent.branch}`;
  const names = runGit(common, ['diff', '--name-status', ...DIFF_ARGS, range, '--']);
  if (!names.ok) return { ok: false, error: names.error };
  const files = nameStatus(names.stdout);
  const roz = files.some((l) => isRozFile(l.slice(l.indexOf('\t') + 1)));
  const diff = roz ? runGit(common, ['diff', ...DIFF_ARGS, range, '--', ROZ_DIR]) : null;
  return {
    ok: true,
    view: {
      agent: agent.name,
      branch: agent.branch!,
      base: agent.base_ref!.replace('refs/heads/', ''),
      files,
      rozDiff: diff ? (diff.ok ? diff.stdout : `(git could not diff them: ${diff.error})`) : '',
    },
  };
}
