// Where a launch runs, computed once where the launch is prepared
// (supervisor/launch/agent-run.ts prepareLaunch) and handed down as data (issue 32):
// which agent of roz's registry owns the directory (its name, worktree and
// base checkout) and, for a linked worktree, what the per-worktree sandbox is
// planned from. Before, one launch scanned every registry file twice and read
// the linked worktree three times on its way to the settings file.
import type { LinkedWorktree } from '../core/enforce/worktree-sandbox.js';
import { findAgent, type OwningAgent } from './agent-registry.js';
import { ensurePackedRefs, linkedWorktreeOf, loosenPackedRefs } from './linked-worktree.js';
import type { AgentRoots } from './project-root.js';

export interface AgentPlace {
  /** The registry's agent whose worktree the launch directory is (its name and roots), or null. */
  agent: { name: string; roots: AgentRoots } | null;
  /** The launch directory as a linked worktree, its refs made ready for the sandbox; null when it is not one. */
  linked: LinkedWorktree | null;
}

/**
 * The place of a launch in `cwd`. `known`: the agent the caller already found
 * in the registry (the fleet host starting a recorded agent), so the store is
 * not scanned again; undefined means look it up.
 *
 * A linked worktree's refs are readied first (a missing packed-refs cannot be
 * denied without breaking git, and a ref only in packed-refs has no file to
 * deny: core/enforce/worktree-sandbox.ts), then read: the sandbox is planned
 * from what is there after.
 */
export function agentPlace(storeDir: string, cwd: string, known?: OwningAgent | null): AgentPlace {
  const owner = known === undefined ? findAgent(storeDir, cwd) : known;
  return { agent: owner ? { name: owner.agent.name, roots: owner.roots } : null, linked: readyLinkedWorktree(cwd) };
}

/** The linked worktree at `cwd` with its refs readied for the sandbox, or null. */
export function readyLinkedWorktree(cwd: string): LinkedWorktree | null {
  const first = linkedWorktreeOf(cwd);
  if (!first) return null;
  const made = ensurePackedRefs(first);
  const loosened = loosenPackedRefs(first);
  // Readying changed what the sandbox must name (a new packed-refs, new loose refs): read it as it is now.
  return made || loosened ? linkedWorktreeOf(cwd) : first;
}
