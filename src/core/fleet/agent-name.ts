// Agent names become a branch (`roz/NAME`), a directory and a word in the UI:
// keep them to what is safe in all three, and plan where a worktree lives.
export const AGENT_NAME = /^[a-z0-9][a-z0-9._-]{0,39}$/;

/**
 * The agent `roz run` starts in the base checkout. Reserved: an agent added
 * under this name would share its name (the token map, the queue, the agents
 * tab) with the base checkout's agent and shadow it.
 */
export const FIRST_AGENT = 'main';

export function checkAgentName(name: string): string | null {
  if (!AGENT_NAME.test(name)) return `agent name "${name}": use 1-40 of a-z 0-9 . _ - (starting with a letter or digit)`;
  if (name === FIRST_AGENT) return `agent name "${name}" is reserved: it is the agent roz run starts in the base checkout; pick another name`;
  if (name.includes('..') || name.endsWith('.') || name.endsWith('.lock')) return `agent name "${name}": not a valid git branch name part`;
  return null;
}

export function agentBranch(name: string): string {
  return `roz/${name}`;
}

/**
 * Where an agent's worktree goes: beside the repository by default
 * (`<parent>/<repo>.roz/<name>`), or under the human's configured directory.
 * Never inside the repository (its `git status` would show it) — the caller
 * passes only a directory from the user's own config, never the project's.
 */
export function worktreePath(repoRoot: string, name: string, configuredDir?: string): string {
  const root = repoRoot.replace(/\/+$/, '');
  const slash = root.lastIndexOf('/');
  const parent = slash <= 0 ? '/' : root.slice(0, slash);
  const repo = root.slice(slash + 1) || 'repo';
  const base = configuredDir ? configuredDir.replace(/\/+$/, '') : `${parent === '/' ? '' : parent}/${repo}.roz`;
  return `${base}/${name}`;
}

/** True when `path` is `dir` or inside it (both absolute, normalised). */
export function isInside(path: string, dir: string): boolean {
  const d = dir.replace(/\/+$/, '');
  return path === d || path.startsWith(`${d}/`);
}
