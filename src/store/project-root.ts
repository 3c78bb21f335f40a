// Which project, if any, is governed: a few existsSync calls, no parsing. Kept
// apart from orchestration.ts so the hook can decide whether to load intent
// governance (yaml, globs, the ledger schema) before paying for it.
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

export const ORCHESTRATION = '.orchestration';

/**
 * `name` inside `dir`, which is already normalized (from join, resolve or
 * dirname): what join(dir, name) gives for a plain name, without normalizing
 * the whole path again. A hook builds these paths dozens of times, and
 * path.join's normalizeString over every character was enough work to get
 * V8's optimizing compiler started in a governed post-tool-use (11M
 * instructions on a background thread, callgrind).
 */
const child = (dir: string, name: string): string => (dir.endsWith(sep) ? dir + name : dir + sep + name);

export const orchestrationPaths = (root: string) => {
  const dir = join(root, ORCHESTRATION);
  return {
    dir,
    intents: child(dir, 'active_intents.yaml'),
    ledger: child(dir, 'agent_trace.jsonl'),
    map: child(dir, 'intent_map.md'),
    lessons: child(dir, 'CLAUDE.md'),
    ignore: child(dir, '.intentignore'),
  };
};

/** The directory holding `.git` above `start`, or null. */
export function gitTopLevel(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(child(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

const governed = (dir: string): boolean => existsSync(orchestrationPaths(dir).intents);

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

/** Same directory, or one inside the other. */
function related(a: string, b: string): boolean {
  const [x, y] = [realOr(a), realOr(b)];
  const within = (p: string, dir: string): boolean => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
  return within(x, y) || within(y, x);
}

/**
 * An agent in a worktree roz created for it (issue 25): its worktree is its
 * project (scope globs and the ledger), and the base checkout's
 * `.orchestration/active_intents.yaml` (and `.intentignore`) govern it, not
 * the copy in its worktree, which it could rewrite where the sandbox cannot
 * protect it. Known only from roz's own records: the launcher puts them in
 * the client's environment (supervisor/launch/agent-run.ts, from the registry in
 * roz's store), never from the worktree's `.git` file, which the agent writes.
 */
export interface AgentRoots {
  worktree: string;
  base: string;
}

/** Set by roz's launcher for an agent in its worktree: its worktree, and the checkout whose intents govern it. */
export const AGENT_WORKTREE_ENV = 'ROZ_AGENT_WORKTREE';
export const BASE_CHECKOUT_ENV = 'ROZ_BASE_CHECKOUT';

/** The launcher's word on this agent's roots, or null (not launched by roz in an agent's worktree): the hook's only cost. */
export function agentRootsFromEnv(env: Record<string, string | undefined>): AgentRoots | null {
  // One read when there is none (every hook of a governed event asks): process.env reads are not free.
  const worktree = env[AGENT_WORKTREE_ENV];
  if (!worktree) return null;
  const base = env[BASE_CHECKOUT_ENV];
  return base && worktree.startsWith('/') && base.startsWith('/') ? { worktree, base } : null;
}

/**
 * Where the intents of `root` are read from: the base checkout for the
 * agent's worktree (findProjectRoot returns `agent.worktree` itself for it),
 * else the project itself.
 */
export function intentsHome(root: string, agent: AgentRoots | null | undefined): string {
  return agent && root === agent.worktree ? agent.base : root;
}

/**
 * The governed project for a hook: the session's remembered project, the
 * hook's cwd, its git toplevel, or CLAUDE_PROJECT_DIR — the first that has
 * `.orchestration/active_intents.yaml`. Null means governance is off.
 *
 * With `agent` (an agent in its worktree), the worktree is the project when
 * the BASE checkout is governed, whatever the worktree's own `.orchestration/`
 * holds (missing, rewritten, or planted in a subdirectory); when the base is
 * not governed, neither is the worktree. Only a governed directory unrelated
 * to the worktree (the agent cd'd into another project) governs there, as
 * without an agent.
 *
 * CLAUDE_PROJECT_DIR is the client's (the agent cannot change a hook's
 * environment): when it is governed, a candidate nested inside it or above it
 * (`src/.orchestration/` written by the agent and chosen with `--project src`,
 * or one made in a parent directory) is refused and the project's own
 * `.orchestration/` governs. A governed directory unrelated to it (the agent
 * cd'd into another project) governs there.
 */
export function findProjectRoot(
  cwd: string,
  opts: { remembered?: string | null; projectDir?: string | undefined; agent?: AgentRoots | null } = {},
): string | null {
  if (opts.agent) return agentProjectRoot(cwd, opts.agent, opts.remembered);
  const anchor = opts.projectDir && governed(opts.projectDir) ? opts.projectDir : null;
  const candidates = [opts.remembered, cwd, gitTopLevel(cwd), opts.projectDir].filter((c): c is string => !!c);
  for (const c of candidates) {
    if (!governed(c)) continue;
    if (anchor && c !== anchor && related(c, anchor)) return anchor;
    return c;
  }
  return null;
}

function agentProjectRoot(cwd: string, agent: AgentRoots, remembered: string | null | undefined): string | null {
  const baseGoverned = governed(agent.base);
  for (const c of [remembered, cwd, gitTopLevel(cwd), agent.worktree]) {
    if (!c) continue;
    if (c === agent.worktree || related(c, agent.worktree)) {
      if (baseGoverned) return agent.worktree;
      continue;
    }
    if (governed(c)) return c;
  }
  return null;
}

/**
 * What `.orchestration/` is right now: `dev:ino` of a real directory, `link`
 * for a symbolic link (or anything else), null when absent. Recorded when a
 * session starts, compared before roz writes there (engine/governance/orchestration-trust.ts).
 */
export function orchestrationIdentity(root: string): string | null {
  try {
    const st = lstatSync(orchestrationPaths(root).dir, { bigint: true });
    return st.isDirectory() ? `${st.dev}:${st.ino}` : 'link';
  } catch {
    return null;
  }
}

/** When `.orchestration/` was made (ms since the epoch), or null where the file system does not say. */
export function orchestrationBirth(root: string): number | null {
  try {
    const ms = lstatSync(orchestrationPaths(root).dir).birthtimeMs;
    return ms > 0 ? ms : null;
  } catch {
    return null;
  }
}

/**
 * `.orchestration/` as a session found it, for each directory that could
 * become its project (CLAUDE_PROJECT_DIR, the cwd, its git toplevel), by real
 * path: recorded once, at the session's first hook (SessionStart).
 */
export function orchestrationAtStart(cwd: string, projectDir: string | undefined): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const c of [projectDir, cwd, gitTopLevel(cwd)]) if (c) out[realOr(c)] = orchestrationIdentity(c);
  return out;
}
