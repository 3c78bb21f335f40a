// A hook's snapshots of the session's project (store/tree-snapshot.ts), bound
// to what SessionStart recorded: the project is CLAUDE_PROJECT_DIR then (not
// the cwd of this event: the agent's `cd` moves that), and its `.git` must be
// the one the session started with. A replaced `.git` is refused, told to the
// human and recorded in the trace; a snapshot that cannot be taken is null
// with a problem, which the review rules treat as "changed", never "unchanged".
import type { GitIdentity, SessionGit } from '../core/git-identity.js';
import type { SessionState } from '../core/session-state.js';
import type { TreeSnapshot } from '../core/review/state.js';
import type { RozFilesOffDisk } from '../core/review/roz-files-text.js';
import type { TraceNote } from '../core/verdict.js';
import { NotLoaded, registerOnDemandLoader } from '../core/on-demand.js';
import { repoOf } from '../store/git-repo.js';

type SnapshotModule = typeof import('../store/tree-snapshot.js');
let snapshotMod: SnapshotModule | null = null;

/**
 * The snapshot code (and its .gitignore matcher) is evaluated only by a hook
 * that takes one: a policy asking for a snapshot first throws NotLoaded, and
 * the engine loads this and runs the update again (an update that throws writes nothing).
 */
export async function loadSnapshotModule(): Promise<void> {
  snapshotMod ??= await import('../store/tree-snapshot.js');
}

registerOnDemandLoader(loadSnapshotModule);

/** The snapshot module, or NotLoaded (the engine loads it and runs the update again). */
export function snapshotModule(): SnapshotModule {
  if (!snapshotMod) throw new NotLoaded('tree-snapshot');
  return snapshotMod;
}

/** Record the session's project and `.git` once (SessionStart, or the first snapshot of an older session). */
export function recordSessionGit(state: SessionState, projectDir: string, now: Date): SessionGit {
  if (state.git) return state.git;
  const found = repoOf(projectDir);
  state.git = { project_dir: projectDir, identity: found.ok ? found.id : null, at: now.toISOString() };
  return state.git;
}

export interface HookSnapshots {
  /** Point at the session state being judged (set inside the store update). */
  bind(state: SessionState | null): void;
  snapshot(): TreeSnapshot | null;
  /** Why the last snapshot is null (null: no repository, nothing to bind). */
  problem(): string | null;
  changedFiles(from: string, to: string): string[] | null;
  /** roz's files a commit since `base` holds otherwise than the disk (store/tree-snapshot.ts); null: none, or git could not say. */
  rozFilesOffDisk(base: string): RozFilesOffDisk | null;
  identity(): GitIdentity | null;
  projectDir(): string;
  /** Trace notes for what was refused (a replaced `.git`). */
  notes(): TraceNote[];
}

export function hookSnapshots(opts: {
  env: Record<string, string | undefined>;
  cwd: string;
  storeRoot: string;
  now: Date;
  warn: (m: string) => void;
}): HookSnapshots {
  let state: SessionState | null = null;
  let memo: { value: TreeSnapshot | null; problem: string | null } | null = null;
  const notes: TraceNote[] = [];
  const projectDir = (): string => state?.git?.project_dir ?? (opts.env.CLAUDE_PROJECT_DIR || opts.cwd);
  const identity = (): GitIdentity | null => {
    if (state && !state.git) recordSessionGit(state, projectDir(), opts.now);
    return state?.git?.identity ?? null;
  };
  return {
    bind(s) {
      state = s;
    },
    snapshot() {
      if (memo) return memo.value;
      const r = snapshotModule().takeSnapshot(projectDir(), opts.storeRoot, { now: opts.now, expect: identity() });
      if (r.ok) memo = { value: r.snapshot, problem: null };
      else if (r.none) memo = { value: null, problem: null };
      else {
        memo = { value: null, problem: r.error };
        if (r.identity) {
          opts.warn(`roz: the project's git repository is not the one this session started with: ${r.error}. roz takes no snapshot of it; reviews stay open.`);
          notes.push({ type: 'GitIdentityRefused', error: r.error });
        }
      }
      return memo.value;
    },
    problem: () => memo?.problem ?? null,
    changedFiles: (from, to) => snapshotModule().changedBetween(opts.storeRoot, from, to),
    rozFilesOffDisk: (base) => snapshotModule().rozFilesOffDiskFound(projectDir(), base, identity()),
    identity,
    projectDir,
    notes: () => notes,
  };
}
