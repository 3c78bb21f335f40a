// Where an agent works, in one word for lists: its branch when it has a
// worktree of its own, else which shared directory. The TUI's agents tab and
// `roz agent ls` both use it, so they say the same thing. Pure.
/** The base checkout (where `roz run` started the first agent). */
export const BASE_CHECKOUT = '(base checkout)';
/** An agent added with `--no-worktree` (or outside git): it shares a directory with others. */
export const SHARED_DIR = '(shared)';

/** `first`: the agent `roz run` started where it was run (`main`). */
export function agentWhere(branch: string | null, first: boolean): string {
  if (branch) return branch;
  return first ? BASE_CHECKOUT : SHARED_DIR;
}
