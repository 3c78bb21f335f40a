// roz's own files in a project, and what a branch may do to them (issue 29).
// `.orchestration/` is roz's folder: the Agent Trace ledger (appended by roz's
// hooks), the intents and `.intentignore` (the human's: roz's approval panel
// and `roz intent` write them for the human), lessons (`CLAUDE.md`, appended
// by roz) and the intent map (derived by roz from the ledger). An agent's
// sandbox cannot write them, but it can commit any bytes under their names by
// git plumbing (`hash-object -w`, `update-index --cacheinfo`, `commit`: no
// file write), and a merge would carry those bytes into the base. So a branch
// never brings them: a merge whose branch changes any of them but the ledger
// is refused, and the ledger merges only the records roz verified
// (ledger-union.ts). Pure.
export const ROZ_DIR = '.orchestration';
export const LEDGER_PATH = `${ROZ_DIR}/agent_trace.jsonl`;

/** Is `path` (repository-relative) one of roz's files? */
export const isRozFile = (path: string): boolean => path === ROZ_DIR || path.startsWith(`${ROZ_DIR}/`);

/** What the file is, for a message. */
export function rozFileKind(path: string): string {
  switch (path) {
    case LEDGER_PATH:
      return 'the Agent Trace ledger';
    case `${ROZ_DIR}/active_intents.yaml`:
      return 'the intents';
    case `${ROZ_DIR}/.intentignore`:
      return '.intentignore';
    case `${ROZ_DIR}/CLAUDE.md`:
      return 'the lessons';
    case `${ROZ_DIR}/intent_map.md`:
      return 'the intent map';
    default:
      return "a file in roz's folder";
  }
}

/** A tree's files under `.orchestration/`: path -> "mode id". */
export type RozEntries = ReadonlyMap<string, string>;

/**
 * roz's files (the ledger left out: merged by records) that the branch holds
 * differently from both the base tip and the merge base: what a merge would
 * take from the branch. A path the branch left as the base has it (at its tip
 * or where the branch forked) is not the branch's change.
 */
export function changedRozFiles(branch: RozEntries, base: RozEntries, mergeBase: RozEntries | null): string[] {
  const paths = new Set([...branch.keys(), ...base.keys(), ...(mergeBase?.keys() ?? [])]);
  const out: string[] = [];
  for (const p of paths) {
    if (p === LEDGER_PATH) continue;
    const b = branch.get(p) ?? null;
    if (b === (base.get(p) ?? null)) continue;
    if (mergeBase && b === (mergeBase.get(p) ?? null)) continue;
    out.push(p);
  }
  return out.sort();
}

export interface RozFilesOnBranch {
  /** roz's files the branch changes (commits at `where`, the branch tip first). */
  changed: Array<{ path: string; commit: string }>;
  /** Ledger lines on the branch that neither the base holds nor roz recorded writing. */
  unverified: Array<{ line: string; commit: string }>;
}

/** Why the merge is refused, or null. */
export function rozFilesRefusal(agent: string, branch: string, f: RozFilesOnBranch): string | null {
  if (f.changed.length === 0 && f.unverified.length === 0) return null;
  const parts: string[] = [];
  const paths = [...new Set(f.changed.map((c) => c.path))];
  if (paths.length > 0) {
    parts.push(
      `${branch} changes roz's own files, which come only from the human (intents, .intentignore, lessons) or from roz (the intent map): ` +
        paths.map((p) => `${p} (${rozFileKind(p)}, commit ${f.changed.find((c) => c.path === p)!.commit.slice(0, 12)})`).join(', '),
    );
  }
  if (f.unverified.length > 0) {
    const commits = [...new Set(f.unverified.map((u) => u.commit.slice(0, 12)))];
    parts.push(
      `${branch}'s committed ${LEDGER_PATH} holds ${f.unverified.length} line(s) that roz did not write in ${agent}'s sessions and the base does not hold ` +
        `(commit${commits.length > 1 ? 's' : ''} ${commits.slice(0, 5).join(', ')}${commits.length > 5 ? ', …' : ''})`,
    );
  }
  return (
    `${parts.join('; and ')}. roz never takes these from a branch, and a merge would carry the branch's commits into the base. ` +
    `The branch must not change them: drop those changes from its history (e.g. rebase without them), get that reviewed, and merge again. ` +
    `Intents and lessons are the human's to change in the base checkout (roz intent, the approval panel's g).`
  );
}
