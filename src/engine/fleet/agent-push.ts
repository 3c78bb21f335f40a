// `roz agent push NAME [--pr]`: the agent's branch leaves the machine under the
// merge gate's rule (engine/fleet/agent-merge.ts openGate): only a tree the
// reviewer (or a human) approved, unchanged since, and without roz's own files
// forged on the branch. What is pushed is the commit the gate checked, by its
// id (the ref may move meanwhile), through the hardened git (store/git-push.ts).
// `--pr` asks gh (found on the human's PATH without the project's folders,
// run outside the repository, told the repository) to open a pull request.
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { type PushResult } from '../../core/fleet/merge-result.js';
import { githubRepoOf, isRemoteName, isRepoSlug, pushableUrl } from '../../core/fleet/remote-repo.js';
import { worktrees } from '../../store/agent-worktrees.js';
import { FleetError } from '../../store/fleet-error.js';
import { ObjectError } from '../../store/git-objects.js';
import { pushCommit, remoteUrl } from '../../store/git-push.js';
import { runGit } from '../../store/git.js';
import { programOnPath } from '../../store/trusted-program.js';
import { type GateContext, isGateOpen, openGate } from './agent-merge.js';

export interface PushRequest {
  name: string;
  remote: string;
  pr: boolean;
  /** `--repo OWNER/REPO` for gh, when the remote's URL does not say it. */
  repo?: string;
  /** The human's environment: PATH (for gh), SSH_AUTH_SOCK, gh's own settings. */
  env: NodeJS.ProcessEnv;
}

export function pushAgent(ctx: GateContext, req: PushRequest): PushResult {
  try {
    return pushGated(ctx, req);
  } catch (err) {
    if (err instanceof FleetError)
      return err.exitCode === 3 ? { kind: 'no-agent', agent: req.name } : { kind: 'failed', agent: req.name, message: err.message, exit: err.exitCode };
    if (err instanceof ObjectError) return { kind: 'failed', agent: req.name, message: err.message, exit: 1 };
    throw err;
  }
}

function pushGated(ctx: GateContext, req: PushRequest): PushResult {
  const fail = (message: string, exit = 2): PushResult => ({ kind: 'failed', agent: req.name, message, exit });
  if (!isRemoteName(req.remote)) return fail(`--remote ${JSON.stringify(req.remote)}: not a remote name`);
  if (req.repo !== undefined && !isRepoSlug(req.repo)) return fail(`--repo ${JSON.stringify(req.repo)}: give OWNER/REPO (or HOST/OWNER/REPO)`);
  const open = openGate(ctx, req.name, { push: true });
  if (!isGateOpen(open)) {
    if (open.kind === 'merged' || open.kind === 'conflict' || open.kind === 'dirty-base') return fail('unexpected gate result', 1);
    return open;
  }
  const { g, facts, decision } = open;
  const url = remoteUrl(g.repo.common, req.remote);
  if (!url) return fail(`the repository has no remote ${req.remote} (git remote add ${req.remote} URL)`);
  if (!pushableUrl(url)) return fail(`roz pushes over file, ssh or https only; ${req.remote} is ${url}`);
  // gh: before the push, so a --pr that cannot be opened pushes nothing.
  const projectDirs = [g.repo.commonDir, ...worktrees(g.repo.common).map((w) => w.path)];
  const gh = programOnPath('gh', req.env.PATH, projectDirs);
  const slug = req.repo ?? githubRepoOf(url);
  if (req.pr && !gh) return fail('--pr needs gh (GitHub CLI) on your PATH, outside the project; nothing was pushed', 1);
  if (req.pr && !slug) return fail(`--pr: which GitHub repository is ${url}? give --repo OWNER/REPO; nothing was pushed`);

  const pushed = pushCommit(g.repo.common, url, facts.branchHead, g.agent.branch, { gh, sshAuthSock: req.env.SSH_AUTH_SOCK });
  if (!pushed.ok) return fail(`git could not push ${g.agent.branch} to ${req.remote}: ${pushed.error}`, 1);
  const review = {
    by: decision.human ? ('human' as const) : ('reviewer' as const),
    decided_at: decision.decided_at,
    session_id: decision.session_id,
    summary: decision.summary,
    ...(decision.human ? { human: decision.human } : {}),
  };
  const done = { kind: 'pushed' as const, agent: req.name, branch: g.agent.branch, remote: req.remote, url, commit: facts.branchHead, tree: open.tree, review };
  if (!req.pr || !gh || !slug) return { ...done, pr: null };

  const subject = runGit(g.repo.common, ['log', '-1', '--format=%s', facts.branchHead]);
  const title = `${g.agent.branch}: ${subject.ok && subject.stdout.trim() ? subject.stdout.trim() : `${req.name}'s work`}`.slice(0, 250);
  const by = review.by === 'human' ? `approved by ${review.human} (reviewed by hand)` : `approved by roz's reviewer: "${review.summary}"`;
  const body = `${req.name}'s work, ${by} at ${review.decided_at}, tree ${open.tree}.\n\nPushed by \`roz agent push ${req.name} --pr\` (commit ${facts.branchHead}).`;
  const env: NodeJS.ProcessEnv = { ...req.env, GH_PROMPT_DISABLED: '1', NO_COLOR: '1' };
  for (const k of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_CONFIG', 'GIT_CONFIG_PARAMETERS']) delete env[k];
  // Outside the repository (gh runs git from PATH, which would read its config), the repository named.
  const r = spawnSync(gh, ['pr', 'create', '--repo', slug, '--head', g.agent.branch, '--base', g.base, '--title', title, '--body', body], {
    cwd: tmpdir(),
    env,
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0) {
    const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').slice(0, 3).join(' ');
    return { ...done, pr: { error: `gh pr create failed: ${why}` } };
  }
  const prUrl = r.stdout.trim().split('\n').filter(Boolean).at(-1) ?? '';
  return { ...done, pr: { url: prUrl } };
}
