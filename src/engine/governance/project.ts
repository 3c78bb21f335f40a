// The governed project as every governance verb sees it (the bottom of
// engine/governance/: the others import it, it imports none of them): which
// project a cwd belongs to, its intents, how paths resolve in it, and the
// file reads every check shares.
import { homedir, tmpdir } from 'node:os';
import type { GitIdentity } from '../../core/git-identity.js';
import type { GuardMode } from '../../core/guard.js';
import type { WriteAnalyzer } from '../../core/governance/mutations.js';
import type { GovernanceContext, ProjectView } from '../../core/governance/policy.js';
import type { PathContext } from '../../core/governance/scope.js';
import type { GovernanceState } from '../../core/governance/state.js';
import { sha256 } from '../../core/sha256.js';
import { filesIn, protectedLinkTarget, storeFilesFor } from '../../store/hard-links.js';
import { intentsCacheDir } from '../../store/intents-cache.js';
import { findProjectRoot, loadProject as loadProjectAt } from '../../store/orchestration.js';
import { agentRootsFromEnv, intentsHome } from '../../store/project-root.js';
import { resolveReal } from '../../store/realpath.js';
import { MiB, readRegularFile, readRegularText } from '../../store/regular-file.js';

export interface GovernanceDeps {
  env: Record<string, string | undefined>;
  now: Date;
  /** roz's store root (config.storage.path). */
  storeRoot: string;
  home?: string;
  /** [guard] destructive and [governance] allow_temp_writes from the config. */
  guard?: GuardMode;
  allowTempWrites?: boolean;
  /** Overrides for tests; default to core/shell. */
  writeTargets?: WriteAnalyzer;
  classifyDestructive?: GovernanceContext['destructive'];
  /** The `.git` the session started with (engine/snapshots.ts): snapshots and git moves refuse another. */
  gitIdentity?: () => GitIdentity | null;
}

export const LESSONS_FED_BACK = 5;

export function projectFor(gov: GovernanceState, cwd: string, deps: GovernanceDeps): string | null {
  const agent = agentRootsFromEnv(deps.env);
  const root = findProjectRoot(cwd, { remembered: gov.project_root, projectDir: deps.env.CLAUDE_PROJECT_DIR, agent });
  if (root) {
    gov.project_root = root;
    // Where its intents were read: the supervisor's intents view and `g` show and edit that file.
    const home = intentsHome(root, agent);
    gov.intents_root = home === root ? null : home;
  }
  return root;
}

/**
 * The project as hooks see it: intents parsed once per change of the file,
 * across processes; for an agent in its worktree, the base checkout's intents
 * (store/project-root.ts AgentRoots).
 */
export function loadProject(root: string, deps: GovernanceDeps): ProjectView {
  const from = intentsHome(root, agentRootsFromEnv(deps.env));
  return loadProjectAt(root, {
    cacheDir: intentsCacheDir(deps.storeRoot),
    home: deps.home ?? deps.env.HOME ?? homedir(),
    ...(from !== root ? { intentsFrom: from } : {}),
  });
}

/**
 * Paths as the kernel resolves them (store/realpath.ts), and a hard link of a
 * protected file (.orchestration, the session's store files) as that file, so
 * every path check applies to it.
 */
export function pathContext(project: ProjectView, cwd: string, deps: GovernanceDeps, sessionId: string): PathContext {
  const store = resolveReal(deps.storeRoot);
  const protectedFiles = () => [
    ...filesIn(project.orchestration),
    ...(project.intentsOrchestration ? filesIn(project.intentsOrchestration) : []),
    ...storeFilesFor(store, sessionId),
  ];
  return {
    cwd,
    home: deps.home ?? deps.env.HOME ?? homedir(),
    root: project.root,
    realish: (abs) => {
      const real = resolveReal(abs);
      return protectedLinkTarget(real, protectedFiles) ?? real;
    },
  };
}

// Files the agent names: a FIFO or device there must not hang the hook (null: nothing to hash).
const PROJECT_FILE_MAX = 256 * MiB;

/** /tmp, /var/tmp, $TMPDIR, the client's session temp (CLAUDE_CODE_TMPDIR) and the OS temp, as real paths. */
export function tempDirs(env: Record<string, string | undefined>): string[] {
  const dirs = new Set<string>();
  for (const d of ['/tmp', '/var/tmp', env.TMPDIR, env.CLAUDE_CODE_TMPDIR, env.TMP, env.TEMP, tmpdir()]) {
    if (d && d.startsWith('/') && d !== '/') dirs.add(resolveReal(d));
  }
  return [...dirs];
}

export function hashFile(realPath: string): string | null {
  try {
    return sha256(readRegularFile(realPath, PROJECT_FILE_MAX));
  } catch {
    return null;
  }
}

export function readText(realPath: string): string | null {
  try {
    return readRegularText(realPath, PROJECT_FILE_MAX);
  } catch {
    return null;
  }
}
