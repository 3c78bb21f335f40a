// The files a Codex `apply_patch` call writes, read from its patch text
// (`*** Begin Patch` … `*** End Patch`): each `*** Add File:`, `*** Update
// File:`, `*** Delete File:` and `*** Move to:` header names one. roz judges
// the patch as writes to those paths, as it judges a Write or Edit. A text
// that is not a patch names no file and is reported as such (governance then
// refuses it: a write it cannot place). Pure.

const HEADER = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/;

export interface PatchFiles {
  /** Every path the patch writes, in order, each once. */
  paths: string[];
  /** Why no path was found, when none was. */
  problem?: string;
}

export function patchFiles(text: string): PatchFiles {
  // `apply_patch "<patch>"` or `apply_patch <<'EOF'` as a shell command: the patch starts at its marker.
  const start = text.indexOf('*** Begin Patch');
  if (start < 0) return { paths: [], problem: 'no "*** Begin Patch" in the patch text' };
  const paths: string[] = [];
  for (const raw of text.slice(start).split(/\r?\n/)) {
    const m = HEADER.exec(raw.trimEnd());
    if (m && m[2]!.trim() && !paths.includes(m[2]!.trim())) paths.push(m[2]!.trim());
    if (raw.startsWith('*** End Patch')) break;
  }
  return paths.length ? { paths } : { paths, problem: 'the patch names no file' };
}

/** The patch text of a patch tool's input: the first of `fields` that holds a string. */
export function patchText(input: Record<string, unknown>, fields: readonly string[]): string {
  for (const f of fields) if (typeof input[f] === 'string') return input[f] as string;
  return '';
}
