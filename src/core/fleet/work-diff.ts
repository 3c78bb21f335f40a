// An agent's work as the human reads it (`roz agent diff`, `d` in the agents
// tab, `+N −M` in `roz agent ls`): git's diff output between two of roz's own
// trees, parsed and made safe to print. Pure.
//
// The diff text is the agent's (file names, file contents): printed as is, an
// escape sequence in a file would act on the human's terminal (retitle it,
// move the cursor over lines to hide them, write the clipboard). So every
// control character is shown as a visible stand-in instead (`visibleText`).

/** Where a changed file's change is: committed on the agent's branch, in its work tree only, or a file git does not track. */
export interface WorkFile {
  path: string;
  /** From the base commit to the work tree as it is now. */
  status: 'added' | 'modified' | 'deleted' | 'type-changed';
  /** Lines added / removed; null for a binary file (git's own test: a NUL byte in its first 8000). */
  added: number | null;
  removed: number | null;
  committed: boolean;
  uncommitted: boolean;
  untracked: boolean;
}

export interface WorkCommit {
  id: string;
  subject: string;
}

export interface WorkSummary {
  added: number;
  removed: number;
  files: number;
  /** Commits on its branch since its base commit. */
  ahead: number;
  /** Commits on the base branch since the agent's base commit (it has moved on). */
  behind: number;
}

export interface WorkDiff extends WorkSummary {
  agent: string;
  branch: string;
  base_ref: string;
  base_commit: string;
  head: string;
  commits: WorkCommit[];
  changed: WorkFile[];
  /** The patch (base commit → work tree), raw; null when only the stat was asked for. */
  patch: string | null;
}

/** An agent's work, or why it cannot be read (`roz agent diff --all`). */
export type WorkOrError = WorkDiff | { agent: string; error: string };

/** `git diff --numstat -z`: path → lines added/removed (null, null for a binary file). */
export function parseNumstatZ(out: string): Map<string, { added: number | null; removed: number | null }> {
  const m = new Map<string, { added: number | null; removed: number | null }>();
  for (const rec of out.split('\0')) {
    const t1 = rec.indexOf('\t');
    const t2 = rec.indexOf('\t', t1 + 1);
    if (t1 < 0 || t2 < 0) continue;
    const a = rec.slice(0, t1);
    const r = rec.slice(t1 + 1, t2);
    m.set(rec.slice(t2 + 1).replace(/^\n/, ''), { added: a === '-' ? null : Number(a), removed: r === '-' ? null : Number(r) });
  }
  return m;
}

/** `git diff --name-status -z` (no renames): path → its status letter. */
export function parseNameStatusZ(out: string): Map<string, string> {
  const parts = out.split('\0');
  const m = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const letter = parts[i]!.replace(/^\n/, '');
    if (letter) m.set(parts[i + 1]!, letter[0]!);
  }
  return m;
}

export function statusOf(letter: string): WorkFile['status'] {
  return letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : letter === 'T' ? 'type-changed' : 'modified';
}

export function summarize(files: readonly WorkFile[], ahead: number, behind: number): WorkSummary {
  let added = 0;
  let removed = 0;
  for (const f of files) {
    added += f.added ?? 0;
    removed += f.removed ?? 0;
  }
  return { added, removed, files: files.length, ahead, behind };
}

/** `+12 −4` (the minus sign, as ccmanager and GitHub show it). */
export const plusMinus = (s: { added: number; removed: number }): string => `+${s.added} \u2212${s.removed}`;

/** `↑2 ↓1`: commits ahead of its base, commits the base branch has since. */
export const aheadBehind = (s: { ahead: number; behind: number }): string => `\u2191${s.ahead} \u2193${s.behind}`;

/** Where a file's change is, in a word or two. */
export function whereLabel(f: WorkFile): string {
  if (f.untracked) return 'untracked';
  if (f.committed && f.uncommitted) return 'committed + uncommitted';
  return f.committed ? 'committed' : 'uncommitted';
}

// C0 controls but tab and newline, DEL, C1 controls, and the invisible formatting characters that reorder or hide text.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** `s` with every control or invisible formatting character shown as a visible stand-in (C0: ␛ and its kin). */
export function visibleText(s: string): string {
  return s.replace(UNSAFE, (ch) => {
    const code = ch.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}

export type PatchLineKind = 'file' | 'hunk' | 'add' | 'del' | 'context' | 'meta';

export interface PatchLine {
  kind: PatchLineKind;
  text: string;
}

/** The patch's lines, each with its kind (for colour) and its text made visible; tabs as spaces. */
export function patchLines(patch: string): PatchLine[] {
  const out: PatchLine[] = [];
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let inHunk = false;
  for (const raw of lines) {
    const text = visibleText(raw.replace(/\t/g, '    '));
    if (raw.startsWith('diff --git ')) {
      inHunk = false;
      out.push({ kind: 'file', text });
    } else if (raw.startsWith('@@')) {
      inHunk = true;
      out.push({ kind: 'hunk', text });
    } else if (!inHunk) out.push({ kind: 'meta', text });
    else if (raw.startsWith('+')) out.push({ kind: 'add', text });
    else if (raw.startsWith('-')) out.push({ kind: 'del', text });
    else out.push({ kind: 'context', text });
  }
  return out;
}

/** The head of the human's view: the branch, its base, commits, and each changed file with where its change is. */
export function describeWork(d: WorkDiff): string[] {
  const out: string[] = [];
  const base = d.base_ref.replace(/^refs\/heads\//, '');
  out.push(`${d.agent}: ${d.branch} from ${base} at ${d.base_commit.slice(0, 12)}`);
  out.push(
    `${d.files} file${d.files === 1 ? '' : 's'} changed, ${plusMinus(d)}; ${d.ahead} commit${d.ahead === 1 ? '' : 's'} ahead` +
      `${d.behind > 0 ? `, ${base} has ${d.behind} more since` : ''}`,
  );
  for (const c of d.commits) out.push(`  ${c.id.slice(0, 12)} ${visibleText(c.subject)}`);
  if (d.commits.length < d.ahead) out.push(`  … ${d.ahead - d.commits.length} older`);
  const w = Math.min(48, Math.max(0, ...d.changed.map((f) => f.path.length)));
  for (const f of d.changed) {
    const letter = f.status === 'added' ? 'A' : f.status === 'deleted' ? 'D' : f.status === 'type-changed' ? 'T' : 'M';
    const n = f.added === null ? 'binary' : plusMinus({ added: f.added, removed: f.removed ?? 0 });
    out.push(`  ${letter} ${visibleText(f.path).padEnd(w)}  ${n.padEnd(11)} ${whereLabel(f)}`);
  }
  if (d.changed.length === 0) out.push('  no changes against its base commit');
  return out;
}

/** The whole of an agent's work as the agents tab's diff view shows it: the description (`head`), then the patch. */
export function workViewLines(d: WorkDiff): Array<{ kind: PatchLineKind | 'head'; text: string }> {
  const head = describeWork(d).map((text) => ({ kind: 'head' as const, text }));
  const patch = d.patch ? patchLines(d.patch) : [];
  return patch.length > 0 ? [...head, { kind: 'context', text: '' }, ...patch] : head;
}
