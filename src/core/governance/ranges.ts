// Which lines a change produced, and the content hash of a line range, so a
// ledger record can later tell whether those lines are still what the agent wrote.
import { sha256 } from '../sha256.js';

export interface LineRange {
  start_line: number;
  end_line: number;
}

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** `sha256:<hex>` of lines start..end (1-based, inclusive), joined by `\n`. */
export function rangeHash(lines: readonly string[], start: number, end: number): string {
  return `sha256:${sha256(lines.slice(start - 1, end).join('\n'))}`;
}

interface Hunk {
  newStart: number;
  lines: string[];
}

function isHunks(v: unknown): v is Hunk[] {
  return Array.isArray(v) && v.every((h) => h && typeof h === 'object' && typeof (h as Hunk).newStart === 'number' && Array.isArray((h as Hunk).lines));
}

/** Added lines of a unified-diff patch as the client reports it (`structuredPatch`). */
function rangesFromPatch(hunks: Hunk[]): LineRange[] {
  const out: LineRange[] = [];
  for (const h of hunks) {
    let line = h.newStart;
    let open: LineRange | null = null;
    for (const l of h.lines) {
      const tag = l[0];
      if (tag === '+') {
        if (open) open.end_line = line;
        else out.push((open = { start_line: line, end_line: line }));
        line++;
      } else if (tag === '-') {
        // a removed line does not advance the new file's numbering
      } else if (tag === '\\') {
        // "\ No newline at end of file"
      } else {
        open = null;
        line++;
      }
    }
  }
  return out.filter((r) => r.start_line >= 1);
}

/** One range between the common prefix and suffix of the two versions. */
function rangesByTrim(before: string[], after: string[]): LineRange[] {
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && s < after.length - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  const start = p + 1;
  const end = after.length - s;
  return end >= start ? [{ start_line: start, end_line: end }] : [];
}

/**
 * Lines of `after` that the change wrote. A patch from the client is exact;
 * otherwise the span between the unchanged head and tail; a new file is all of it.
 */
export function changedRanges(before: string | null, after: string, patch?: unknown): LineRange[] {
  const afterLines = splitLines(after);
  if (isHunks(patch) && patch.length > 0) {
    const fromPatch = rangesFromPatch(patch).filter((r) => r.end_line <= afterLines.length);
    if (fromPatch.length > 0) return fromPatch;
  }
  if (before === null) return afterLines.length ? [{ start_line: 1, end_line: afterLines.length }] : [];
  return rangesByTrim(splitLines(before), afterLines);
}

/** Where a block with this hash sits in `lines` now (same length), if it moved. */
export function findByHash(lines: readonly string[], length: number, hash: string): LineRange | null {
  for (let s = 1; s + length - 1 <= lines.length; s++) {
    if (rangeHash(lines, s, s + length - 1) === hash) return { start_line: s, end_line: s + length - 1 };
  }
  return null;
}
