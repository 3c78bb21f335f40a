// roz's fleet registry: the one module that owns it (issue 32). Its schema,
// where it lives (`<store>/fleet/<hash of the repository's common git dir>.json`,
// in roz's store, which an enforced agent cannot write), the lock every
// read-change-write takes, and the answer to "which agent owns this directory"
// (by real path, across every repository's registry in the store).
//
// Never from the worktree's `.git` file or its `commondir`: the agent writes
// its worktree. Not on the hook path: the launcher finds the agent once and
// hands the hooks the answer in their environment (project-root.ts AgentRoots).
import { CLIENT_IDS, type ClientId } from '../core/clients.js';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { isInside } from '../core/fleet/agent-name.js';
import { writeFileAtomicSync } from './atomic-write.js';
import { FleetError } from './fleet-error.js';
import { acquireLock } from './lock.js';
import { agentRootsFromEnv, type AgentRoots } from './project-root.js';
import { readOptionalText } from './regular-file.js';

const MAX_REGISTRY = 4 * 1024 * 1024;

const nullableString = z._default(z.nullable(z.string()), null);

/**
 * An agent's record. Fields added after the first registries were written
 * default to what those registries meant (a hand-made or older record that
 * names only its worktree still reads: it is an agent with a worktree of its own).
 */
export const agentRecordSchema = z.object({
  /** Absent in the oldest records: the key it is filed under is its name. */
  name: z.optional(z.string()),
  /** `roz/NAME`, or null for an agent sharing the directory (no worktree). */
  branch: nullableString,
  /** Absolute real path of its worktree (or of the shared directory). */
  worktree: z.string().check(z.minLength(1)),
  /** The branch it merges into (`refs/heads/...`); null when shared. */
  base_ref: nullableString,
  /** The commit its branch started from. */
  base_commit: nullableString,
  /**
   * The checkout whose `.orchestration/active_intents.yaml` governs the agent
   * (the repository's main checkout, the human's): not the copy in its own
   * worktree (docs/fleet.md, "Intents"). Absent in records made before it.
   */
  base_checkout: z.optional(z.string()),
  created_at: z._default(z.string(), ''),
  /** No worktree of its own: it shares the directory with the others (their writes can collide). */
  shared: z._default(z.boolean(), false),
  prompt: z.optional(z.string()),
  claude_args: z.optional(z.array(z.string())),
  /**
   * Set while a supervisor runs it (issue 31, part 4): which supervisor, since
   * when, and the newest session of its client the supervisor saw. Cleared when
   * it exits or is stopped; left behind by a supervisor that was killed (or a
   * reboot), which is how the next `roz run` knows to offer resuming it.
   */
  running: z.optional(
    z.object({
      supervisor_pid: z.number(),
      since: z.string(),
      session: z._default(nullableString, null),
    }),
  ),
  /** The newest session of its client roz saw (kept after it stopped): what a resume continues. */
  last_session: z.optional(z.string()),
  /** The coding client it runs (core/clients.ts); absent: Claude Code. */
  client: z.optional(z.enum(CLIENT_IDS as [ClientId, ...ClientId[]])),
});

/** The registry's entry for one agent (its persisted shape; core/fleet/agent.ts names each layer's agent). */
export type AgentRecord = Omit<z.infer<typeof agentRecordSchema>, 'name'> & { name: string };

export const registrySchema = z.object({
  version: z.literal(1),
  /** The repository's common git directory (real path), or the shared directory outside git. */
  repo: z.string(),
  agents: z.record(z.string(), agentRecordSchema),
});

export interface FleetRegistry {
  version: 1;
  repo: string;
  agents: Record<string, AgentRecord>;
}

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

/** The folder of every registry in a store. */
export function registryDir(storeDir: string): string {
  return join(storeDir, 'fleet');
}

/** The registry of one repository (its common git dir, or the shared directory outside git). */
export function registryFile(storeDir: string, repoKey: string): string {
  return join(registryDir(storeDir), `${createHash('sha256').update(repoKey).digest('hex').slice(0, 24)}.json`);
}

/** One read-change-write of a store's registries at a time (`roz agent add/rm`, the fleet host's running marks). */
export async function lockRegistry(storeDir: string): Promise<() => void> {
  mkdirSync(registryDir(storeDir), { recursive: true, mode: 0o700 });
  return acquireLock(join(registryDir(storeDir), 'registry'), { staleMs: 300_000, refreshMs: null, waitMs: 30_000 });
}

/** The parsed registry, or why it is not one: each record named by its key. */
function parseRegistry(text: string): { ok: true; reg: FleetRegistry } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `is not JSON (${(err as Error).message})` };
  }
  const r = registrySchema.safeParse(raw);
  if (!r.success)
    return { ok: false, error: `is not one roz wrote (${r.error.issues[0]?.path.join('.') || 'top'}: ${r.error.issues[0]?.message ?? 'invalid'})` };
  const agents: Record<string, AgentRecord> = {};
  for (const [key, a] of Object.entries(r.data.agents)) agents[key] = { ...a, name: a.name ?? key };
  return { ok: true, reg: { version: 1, repo: r.data.repo, agents } };
}

/** The registry of `repoKey` (empty when there is none yet). A file that is not one roz wrote for it is an error, never read as empty. */
export function readRegistry(storeDir: string, repoKey: string): FleetRegistry {
  const file = registryFile(storeDir, repoKey);
  const text = readOptionalText(file, MAX_REGISTRY);
  if (text === null) return { version: 1, repo: repoKey, agents: {} };
  const parsed = parseRegistry(text);
  if (!parsed.ok)
    throw new FleetError(
      parsed.error.startsWith('is not JSON')
        ? `roz's fleet registry ${file} ${parsed.error}; move it aside to start over`
        : `roz's fleet registry ${file} is not one roz wrote for ${repoKey}`,
    );
  if (parsed.reg.repo !== repoKey) throw new FleetError(`roz's fleet registry ${file} is not one roz wrote for ${repoKey}`);
  return parsed.reg;
}

export function writeRegistry(storeDir: string, reg: FleetRegistry): void {
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(storeDir, registryFile(storeDir, reg.repo), `${JSON.stringify(reg, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
}

/** Read, change and write one repository's registry under the store's lock. */
export async function updateRegistry<T>(storeDir: string, repoKey: string, change: (reg: FleetRegistry) => T): Promise<T> {
  const release = await lockRegistry(storeDir);
  try {
    const reg = readRegistry(storeDir, repoKey);
    const out = change(reg);
    writeRegistry(storeDir, reg);
    return out;
  } finally {
    release();
  }
}

/** The agent that owns a directory: its record, its repository's key, and the roots its hooks are told. */
export interface OwningAgent {
  repo: string;
  agent: AgentRecord;
  /** Its worktree and the checkout whose intents govern it; null when no base can be told (the agent is then treated as none). */
  roots: AgentRoots;
}

/**
 * Which agent owns `dir` (its worktree or a folder in it), by real path,
 * across every repository's registry in the store; null when none. Shared
 * agents own no directory (theirs is everyone's). A registry that does not
 * parse is skipped. Its base: the checkout recorded at `roz agent add`, or for
 * an agent recorded before that field, the main checkout of a `<top>/.git`
 * common dir; an agent whose base cannot be told, or lies inside its own
 * worktree, owns nothing.
 */
export function findAgent(storeDir: string, dir: string): OwningAgent | null {
  const fleet = registryDir(storeDir);
  let files: string[];
  try {
    files = readdirSync(fleet).filter((f) => /^[0-9a-f]{24}\.json$/.test(f));
  } catch {
    return null;
  }
  const here = realOr(dir);
  for (const f of files) {
    let text: string | null;
    try {
      text = readOptionalText(join(fleet, f), MAX_REGISTRY);
    } catch {
      continue;
    }
    const parsed = text === null ? null : parseRegistry(text);
    if (!parsed?.ok) continue;
    const reg = parsed.reg;
    for (const a of Object.values(reg.agents)) {
      if (a.shared || !isInside(here, a.worktree)) continue;
      const roots = rootsOf(reg.repo, a);
      return roots ? { repo: reg.repo, agent: a, roots } : null;
    }
  }
  return null;
}

/** The roots an agent's hooks are told (its worktree, its base), from its record; null when its base cannot be told. */
export function rootsOf(repoKey: string, a: Pick<AgentRecord, 'worktree' | 'base_checkout'>): AgentRoots | null {
  const base = a.base_checkout ?? (basename(repoKey) === '.git' ? dirname(repoKey) : null);
  // An agent's worktree is never its own base (nor inside it).
  if (!base || isInside(base, a.worktree)) return null;
  return { worktree: a.worktree, base };
}

/**
 * For the CLI, the MCP server and the supervisor: what roz's launcher said
 * (the environment it gave the client), else the registry.
 */
export function agentRootsFor(env: Record<string, string | undefined>, storeDir: string, dir: string): AgentRoots | null {
  return agentRootsFromEnv(env) ?? findAgent(storeDir, dir)?.roots ?? null;
}

/**
 * The agents a registry says were running under a supervisor that is gone (it
 * was killed, or the machine rebooted): marked `running` by a supervisor whose
 * pid is not among the live supervisors of the project. Oldest first.
 */
export function interruptedAgents(reg: FleetRegistry, liveSupervisorPids: ReadonlySet<number>): AgentRecord[] {
  return Object.values(reg.agents)
    .filter((a) => a.running && !liveSupervisorPids.has(a.running.supervisor_pid))
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
}
