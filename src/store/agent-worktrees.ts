// Agents' worktrees: created on a branch of their own (`roz/NAME`), listed
// from git (`git worktree list --porcelain` is the source of truth, joined with
// roz's registry of what it created), removed only when roz created them and
// their work is merged or the human says to discard it.
//
// The registry lives in roz's store and is read and written only through
// store/agent-registry.ts (its schema, path and lock). Every git call
// goes through the hardened runner (store/git.ts), and a call that writes a
// work tree (worktree add, status) also gets every filter the repository's
// config names switched off: nothing the agent wrote picks a program roz runs.
import { existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentBranch, checkAgentName, isInside, worktreePath } from '../core/fleet/agent-name.js';
import { parseWorktreeList, type WorktreeEntry } from '../core/fleet/worktree-list.js';
import { readRegistry, writeRegistry, type AgentRecord } from './agent-registry.js';
import { FleetError } from './fleet-error.js';
import type { ClientId } from '../core/clients.js';
import { runGit, type GitRepo } from './git.js';
import { intakeAt } from './object-intake.js';
import { repoOf } from './git-repo.js';
import { ORCHESTRATION } from './project-root.js';
import { sleepSync } from './sleep-sync.js';

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

/** The repository a command runs in: its common git dir, the main worktree, and the current worktree. */
export interface FleetRepo {
  common: GitRepo;
  commonDir: string;
  /** The main worktree (the human's checkout), or null for a bare repository. */
  mainTop: string | null;
  /** The worktree the command ran in. */
  here: { top: string; gitDir: string };
}

export function fleetRepo(cwd: string): FleetRepo | null {
  const found = repoOf(cwd);
  if (!found.ok) {
    if ('none' in found) return null;
    throw new FleetError(found.error);
  }
  const commonDir = realOr(found.id.common_dir);
  const common: GitRepo = { gitDir: commonDir, workTree: null };
  const list = worktrees(common);
  const main = list[0] && !list[0].bare ? realOr(list[0].path) : null;
  return { common, commonDir, mainTop: main, here: { top: realOr(found.id.top), gitDir: found.id.git_dir } };
}

/**
 * A worktree that another `roz agent add` (or the human's git) is creating right now has its admin folder
 * (.git/worktrees/NAME) and its files before what is in them: `git worktree list` then fails on an empty one ("failed to read
 * .../worktrees/b/commondir"). Such a list is asked again for a moment; any other failure is final.
 */
const HALF_MADE_WORKTREE = /worktrees\/[^/\s]+\/(commondir|gitdir|HEAD)\b/;
const LIST_TRIES = 20;

export function worktrees(common: GitRepo): WorktreeEntry[] {
  for (let attempt = 1; ; attempt++) {
    const r = runGit(common, ['worktree', 'list', '--porcelain']);
    if (r.ok) return parseWorktreeList(r.stdout);
    if (attempt >= LIST_TRIES || !HALF_MADE_WORKTREE.test(r.error)) throw new FleetError(`git cannot list the worktrees: ${r.error}`);
    sleepSync(50);
  }
}

/**
 * `-c` overrides that switch off every clean/smudge/process filter the
 * repository's config names (git would run them when it writes or compares a
 * work tree's files). Command-line config beats every config file.
 */
export function noFilters(repo: GitRepo): string[] {
  // Read as git will (the repository's config, its includes, a worktree's own config): every name counts.
  const r = runGit(repo, ['config', '--name-only', '--get-regexp', '^filter\\.']);
  const names = new Set<string>();
  if (r.ok)
    for (const line of r.stdout.split('\n')) {
      const m = /^filter\.(.+)\.[^.]+$/.exec(line.trim());
      if (!m) continue;
      // `-c filter.a=b.clean=` would set another key: a name roz cannot switch off is refused.
      if (m[1]!.includes('=')) throw new FleetError(`the repository's config names a filter roz cannot switch off (${JSON.stringify(m[1])}); nothing was done`);
      names.add(m[1]!);
    }
  return [...names].flatMap((n) => ['-c', `filter.${n}.clean=`, '-c', `filter.${n}.smudge=`, '-c', `filter.${n}.process=`, '-c', `filter.${n}.required=false`]);
}

// ---- create

export interface AddOptions {
  name: string;
  from?: string;
  noWorktree?: boolean;
  /** The worktree directory from the user's own config ('' = beside the repository). */
  configuredDir: string;
  prompt?: string;
  claudeArgs?: string[];
  /** `--agent codex|gemini|claude`: kept in the record only for another client than Claude Code. */
  client?: ClientId;
  now: Date;
}

export type AddResult = { agent: AgentRecord; note: string | null };

export function addAgent(storeDir: string, cwd: string, opts: AddOptions): AddResult {
  const bad = checkAgentName(opts.name);
  if (bad) throw new FleetError(bad, 2);
  const repo = fleetRepo(cwd);
  const extras = {
    ...(opts.prompt ? { prompt: opts.prompt } : {}),
    ...(opts.claudeArgs?.length ? { claude_args: opts.claudeArgs } : {}),
    ...(opts.client && opts.client !== 'claude' ? { client: opts.client } : {}),
  };
  if (!repo || opts.noWorktree) {
    // Shared directory: outside git, or asked for.
    if (opts.from) throw new FleetError('--from needs a worktree of its own (not with --no-worktree, nor outside git)', 2);
    const dir = repo ? repo.here.top : realOr(cwd);
    const key = repo ? repo.commonDir : dir;
    const reg = readRegistry(storeDir, key);
    if (reg.agents[opts.name]) throw new FleetError(`there is already an agent ${opts.name} (roz agent ls)`);
    const agent: AgentRecord = {
      name: opts.name,
      branch: null,
      worktree: dir,
      base_ref: null,
      base_commit: null,
      created_at: opts.now.toISOString(),
      shared: true,
      ...extras,
    };
    reg.agents[opts.name] = agent;
    writeRegistry(storeDir, reg);
    const why = repo ? 'asked with --no-worktree' : 'not a git repository';
    return { agent, note: `${opts.name} shares ${dir} with every other agent there (${why}): their writes can collide` };
  }
  if (!repo.mainTop) throw new FleetError('a bare repository has no checkout to start agents from');
  const reg = readRegistry(storeDir, repo.commonDir);
  if (reg.agents[opts.name]) throw new FleetError(`there is already an agent ${opts.name} (roz agent ls)`);
  const here: GitRepo = { gitDir: repo.here.gitDir, workTree: null };

  // The base: the current branch, or --from (a branch is merged back into; a commit starts the current branch's agent there).
  const current = runGit(here, ['symbolic-ref', '-q', 'HEAD']);
  const currentRef = current.ok ? current.stdout.trim() : null;
  let baseRef = currentRef && currentRef.startsWith('refs/heads/') ? currentRef : null;
  let baseSpec = baseRef;
  if (opts.from) {
    if (opts.from.startsWith('-')) throw new FleetError(`--from ${opts.from}: not a ref`, 2);
    const asBranch = runGit(repo.common, ['rev-parse', '--verify', '-q', `refs/heads/${opts.from}`]);
    if (asBranch.ok) baseRef = `refs/heads/${opts.from}`;
    baseSpec = opts.from;
  }
  if (!baseRef) throw new FleetError('HEAD is not on a branch: give --from BRANCH (the branch the agent will merge into)', 2);
  const base = runGit(repo.common, ['rev-parse', '--verify', '-q', '--end-of-options', `${baseSpec}^{commit}`]);
  if (!base.ok || !/^[0-9a-f]{40}\s*$/.test(base.stdout)) throw new FleetError(`${baseSpec} is not a commit`, 2);
  const baseCommit = base.stdout.trim();

  const branch = agentBranch(opts.name);
  if (runGit(repo.common, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`]).ok)
    throw new FleetError(`the branch ${branch} already exists; roz creates its agents' branches itself (pick another name, or delete it)`);
  const path = worktreePath(repo.mainTop, opts.name, opts.configuredDir || undefined);
  if (isInside(path, repo.mainTop)) throw new FleetError(`${path} is inside the repository ${repo.mainTop}: worktrees live outside it`, 2);
  if (existsSync(path)) throw new FleetError(`${path} already exists; roz puts a new agent's worktree only where nothing is`);
  mkdirSync(dirname(path), { recursive: true });
  const r = runGit(repo.common, [...noFilters(repo.common), 'worktree', 'add', '-b', branch, path, baseCommit], { timeoutMs: 120_000 });
  if (!r.ok) throw new FleetError(`git could not add the worktree: ${r.error}`);
  // A governed base: the worktree gets its `.orchestration/` now, before any agent runs there, so the
  // sandbox protects it and roz's hooks may write the agent's ledger into it (a folder that appears
  // during a session is not roz's to write: engine/governance/orchestration-trust.ts).
  if (existsSync(join(repo.mainTop, ORCHESTRATION, 'active_intents.yaml'))) mkdirSync(join(path, ORCHESTRATION), { recursive: true });
  const agent: AgentRecord = {
    name: opts.name,
    branch,
    worktree: realOr(path),
    base_ref: baseRef,
    base_commit: baseCommit,
    base_checkout: repo.mainTop,
    created_at: opts.now.toISOString(),
    shared: false,
    ...extras,
  };
  reg.agents[opts.name] = agent;
  writeRegistry(storeDir, reg);
  return { agent, note: null };
}

// ---- list

export interface ListedAgent {
  agent: AgentRecord;
  /** git's entry for its worktree; null when git no longer lists it (or it shares the directory). */
  git: WorktreeEntry | null;
  /** The branch tip now, when the branch exists. */
  head: string | null;
  /** Why git and roz's record disagree, when they do. */
  problem: string | null;
}

export function listAgents(storeDir: string, cwd: string): { repo: FleetRepo | null; key: string; agents: ListedAgent[] } {
  const repo = fleetRepo(cwd);
  const key = repo ? repo.commonDir : realOr(cwd);
  const reg = readRegistry(storeDir, key);
  const list = repo ? worktrees(repo.common) : [];
  const agents = Object.values(reg.agents)
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
    .map((agent): ListedAgent => {
      if (agent.shared || !repo) return { agent, git: null, head: null, problem: null };
      const git = list.find((w) => realOr(w.path) === agent.worktree) ?? null;
      const tip = runGit(repo.common, ['rev-parse', '--verify', '-q', `refs/heads/${agent.branch}`]);
      const head = tip.ok ? tip.stdout.trim() : null;
      let problem: string | null = null;
      if (!git) problem = `git no longer lists the worktree ${agent.worktree}`;
      else if (git.branch !== `refs/heads/${agent.branch}`) problem = `its worktree is on ${git.branch ?? 'a detached HEAD'}, not ${agent.branch}`;
      else if (!head) problem = `the branch ${agent.branch} is gone`;
      return { agent, git, head, problem };
    });
  return { repo, key, agents };
}

// ---- remove

export interface RemoveResult {
  removed: AgentRecord;
  discarded: boolean;
  said: string[];
}

/** Whether `commit` is already in `ref` (its tip or an ancestor). */
export function mergedInto(common: GitRepo, commit: string, ref: string): boolean {
  return runGit(common, ['merge-base', '--is-ancestor', commit, ref]).ok;
}

/**
 * What `git status` would show in a worktree (untracked files too), every
 * filter its config names (the shared config and its own worktree config) off;
 * null when clean. Submodules are not entered: a nested repository's config is
 * the agent's to write, and git would run a status there with it.
 */
export function dirtyFiles(wt: GitRepo, untracked = true): string[] | null {
  const r = runGit(wt, [...noFilters(wt), 'status', '--porcelain=v1', '-z', `--untracked-files=${untracked ? 'all' : 'no'}`, '--ignore-submodules=all']);
  if (!r.ok) throw new FleetError(`git cannot tell whether ${wt.workTree} has changes: ${r.error}`);
  const files = r.stdout
    .split('\0')
    .filter(Boolean)
    .map((l) => l.slice(3));
  return files.length > 0 ? files : null;
}

export function removeAgent(storeDir: string, cwd: string, name: string, discard: boolean): RemoveResult {
  const { repo, key, agents } = listAgents(storeDir, cwd);
  const found = agents.find((a) => a.agent.name === name);
  if (!found) throw new FleetError(`no agent ${name} that roz created here (roz agent ls); roz removes only its own worktrees and branches`, 3);
  const reg = readRegistry(storeDir, key);
  const { agent } = found;
  const said: string[] = [];
  if (agent.shared || !repo) {
    delete reg.agents[name];
    writeRegistry(storeDir, reg);
    return { removed: agent, discarded: false, said: [`forgot ${name} (it shared ${agent.worktree}; nothing removed there)`] };
  }
  const branch = agent.branch!;
  if (found.git) {
    const st = lstatSync(agent.worktree, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink() || !st.isDirectory()) throw new FleetError(`${agent.worktree} is not the directory roz created; not removing it`);
    const wtGit = repoOf(agent.worktree);
    // Its `.git` is the agent's to rewrite: it must still name this repository's own administrative directory for it.
    if (
      !wtGit.ok ||
      realOr(wtGit.id.top) !== agent.worktree ||
      realOr(wtGit.id.common_dir) !== repo.commonDir ||
      dirname(realOr(wtGit.id.git_dir)) !== join(repo.commonDir, 'worktrees')
    )
      throw new FleetError(`${agent.worktree} is no longer a worktree of this repository; not removing it`);
    // Its last objects, hashed (store/object-intake.ts): what is merged is judged on the branch as it is.
    intakeAt(agent.worktree, storeDir);
    const dirty = dirtyFiles({ gitDir: wtGit.id.git_dir, workTree: agent.worktree });
    if (dirty && !discard)
      throw new FleetError(
        `${name}'s worktree has uncommitted changes (${dirty.slice(0, 5).join(', ')}${dirty.length > 5 ? ', …' : ''}): commit and merge them, or run roz agent rm ${name} --discard to throw them away`,
        4,
      );
  }
  const unmerged = found.head !== null && agent.base_ref !== null && !mergedInto(repo.common, found.head, agent.base_ref);
  if (unmerged && !discard)
    throw new FleetError(
      `${branch} has work not merged into ${agent.base_ref!.replace('refs/heads/', '')}: merge it (roz agent merge ${name}) or run roz agent rm ${name} --discard to throw it away`,
      4,
    );
  if (found.git) {
    const r = runGit(repo.common, ['worktree', 'remove', '--force', agent.worktree], { timeoutMs: 120_000 });
    if (!r.ok) throw new FleetError(`git could not remove the worktree ${agent.worktree}: ${r.error}`);
    said.push(`removed the worktree ${agent.worktree}`);
  }
  if (found.head) {
    const r = runGit(repo.common, ['update-ref', '-d', `refs/heads/${branch}`, found.head]);
    if (!r.ok) throw new FleetError(`git could not delete ${branch}: ${r.error}`);
    said.push(`deleted the branch ${branch}${unmerged ? ' (its unmerged work discarded, as asked)' : ''}`);
  }
  runGit(repo.common, ['worktree', 'prune']);
  delete reg.agents[name];
  writeRegistry(storeDir, reg);
  return { removed: agent, discarded: unmerged || false, said };
}
