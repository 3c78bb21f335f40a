// Which agent's worktree a directory is, and which checkout's intents govern
// it (issue 25), from roz's own records: the fleet registry in roz's store
// (store/agent-worktrees.ts), which an enforced agent's sandbox makes
// read-only. Never from the worktree's `.git` file or its `commondir`: the
// agent writes its worktree. Not on the hook path: the launcher reads this
// once and hands the hooks the answer in their environment
// (project-root.ts AgentRoots); the CLI, the MCP server and the supervisor
// read it here when no launcher said.
import { readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isInside } from '../core/fleet/agent-name.js';
import { agentRootsFromEnv, type AgentRoots } from './project-root.js';
import { readOptionalText } from './regular-file.js';

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

interface RegistryShape {
  repo?: unknown;
  agents?: Record<string, { worktree?: unknown; shared?: unknown; base_checkout?: unknown }>;
}

/**
 * The agent whose worktree holds `dir` (the worktree or a folder in it), by
 * real path, across every repository's registry in the store; null when none.
 * Its base: the checkout recorded at `roz agent add`, or for an agent recorded
 * before that field, the main checkout of a `<top>/.git` common dir.
 */
export function agentRootsFromRegistry(storeRoot: string, dir: string): AgentRoots | null {
  const fleet = join(storeRoot, 'fleet');
  let files: string[];
  try {
    files = readdirSync(fleet).filter((f) => /^[0-9a-f]{24}\.json$/.test(f));
  } catch {
    return null;
  }
  const here = realOr(dir);
  for (const f of files) {
    let reg: RegistryShape;
    try {
      reg = JSON.parse(readOptionalText(join(fleet, f), 4 * 1024 * 1024) ?? 'null') as RegistryShape;
    } catch {
      continue;
    }
    if (!reg || typeof reg.agents !== 'object' || reg.agents === null) continue;
    for (const a of Object.values(reg.agents)) {
      if (!a || a.shared === true || typeof a.worktree !== 'string' || !isInside(here, a.worktree)) continue;
      const base =
        typeof a.base_checkout === 'string' ? a.base_checkout : typeof reg.repo === 'string' && basename(reg.repo) === '.git' ? dirname(reg.repo) : null;
      // An agent's worktree is never its own base (nor inside it).
      if (!base || isInside(base, a.worktree)) return null;
      return { worktree: a.worktree, base };
    }
  }
  return null;
}

/**
 * For the CLI, the MCP server and the supervisor: what roz's launcher said
 * (the environment it gave the client), else the registry.
 */
export function agentRootsFor(env: Record<string, string | undefined>, storeRoot: string, dir: string): AgentRoots | null {
  return agentRootsFromEnv(env) ?? agentRootsFromRegistry(storeRoot, dir);
}
