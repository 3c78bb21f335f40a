// `roz agent add` as a function that returns a value (core/fleet/merge-result.ts
// AddResult): the CLI prints it, the fleet host's `n` reads it as JSON from
// that same command. One `add` or `rm` at a time per store: each reads the
// registry, changes git and writes the registry back.
import type { AddResult } from '../../core/fleet/merge-result.js';
import { lockRegistry } from '../../store/agent-registry.js';
import { addAgent } from '../../store/agent-worktrees.js';
import { FleetError } from '../../store/fleet-error.js';
import { ObjectError } from '../../store/git-objects.js';

export interface AddRequest {
  storeDir: string;
  cwd: string;
  name: string;
  from?: string;
  /** Share `cwd` instead of a worktree of its own. */
  noWorktree: boolean;
  /** The worktree directory from the user's own config ('' = beside the repository). */
  configuredDir: string;
  prompt?: string;
  claudeArgs: string[];
  now: Date;
}

export async function addAgentWork(req: AddRequest): Promise<AddResult> {
  const release = await lockRegistry(req.storeDir);
  try {
    const { agent, note } = addAgent(req.storeDir, req.cwd, {
      name: req.name,
      ...(req.from !== undefined ? { from: req.from } : {}),
      noWorktree: req.noWorktree,
      configuredDir: req.configuredDir,
      ...(req.prompt !== undefined ? { prompt: req.prompt } : {}),
      claudeArgs: req.claudeArgs,
      now: req.now,
    });
    return {
      kind: 'added',
      name: agent.name,
      worktree: agent.worktree,
      branch: agent.branch,
      base: agent.base_ref?.replace('refs/heads/', '') ?? null,
      base_commit: agent.base_commit,
      shared: agent.shared,
      prompt: agent.prompt ?? null,
      note,
    };
  } catch (err) {
    if (err instanceof FleetError) return { kind: 'refused', name: req.name, reason: err.message, exit: err.exitCode };
    if (err instanceof ObjectError) return { kind: 'refused', name: req.name, reason: err.message, exit: 1 };
    throw err;
  } finally {
    release();
  }
}
