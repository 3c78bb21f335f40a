// Bringing a branch's Agent Trace records into the base's ledger at a merge.
// The ledger is append-only and every record carries an id, so no three-way
// text merge is needed: the base's lines as they are, then the branch's
// records the base does not have, in the branch's order — none lost, none
// twice, never a conflict.
//
// A branch's ledger is the agent's file: it can commit any bytes there by git
// plumbing, and its sandbox never sees a write (issue 29). So a merge brings
// only the records roz verified: lines whose SHA-256 roz's own hook kept in
// roz's store when it appended them (a `LedgerAppended` note of one of that
// agent's sessions, store/agent-sessions.ts recordedLedgerLines). A line the
// base already holds is the base's; any other line is a forgery, or a record
// roz cannot vouch for, and is left out (docs/security.md, "roz's files on a
// branch").
import { sha256 } from '../sha256.js';

/** The hash roz keeps of a ledger line it wrote: SHA-256 of the line, without its newline. */
export const ledgerLineHash = (line: string): string => sha256(line);

export interface LedgerUnion {
  text: string;
  /** Branch records appended. */
  added: number;
  /** Branch lines that are not a record with an id (kept and appended once without `recorded`; left out with it). */
  unreadable: number;
  /** With `recorded`: branch lines the base lacks that roz did not record writing (left out). */
  unverified: string[];
}

function idOf(line: string): string | null {
  try {
    const v = JSON.parse(line) as unknown;
    if (v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string') return (v as { id: string }).id;
  } catch {
    /* not JSON */
  }
  return null;
}

const linesOf = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

/**
 * The base's lines, then the branch's it lacks. With `recorded` (hashes of the
 * lines roz wrote), only those of the branch's lines roz recorded: the rest are
 * returned in `unverified`, never in `text`.
 */
export function ledgerUnion(baseText: string, branchText: string, recorded?: ReadonlySet<string>): LedgerUnion {
  const baseLines = linesOf(baseText);
  const haveIds = new Set<string>();
  const haveLines = new Set<string>(baseLines);
  for (const l of baseLines) {
    const id = idOf(l);
    if (id) haveIds.add(id);
  }
  const out = [...baseLines];
  let added = 0;
  let unreadable = 0;
  const unverified: string[] = [];
  for (const l of branchText.split('\n')) {
    if (l.trim() === '' || haveLines.has(l)) continue;
    const id = idOf(l);
    if (recorded && (id === null || !recorded.has(ledgerLineHash(l)))) {
      if (id === null) unreadable++;
      unverified.push(l);
      haveLines.add(l);
      continue;
    }
    if (id === null) unreadable++;
    else if (haveIds.has(id)) continue;
    else haveIds.add(id);
    haveLines.add(l);
    out.push(l);
    added++;
  }
  return { text: out.length > 0 ? `${out.join('\n')}\n` : '', added, unreadable, unverified };
}

/** A line of a ledger, short enough for a message: its id when it has one. */
export function ledgerLineName(line: string): string {
  const id = idOf(line);
  return id ? `record ${JSON.stringify(id.slice(0, 60))}` : `line ${JSON.stringify(line.slice(0, 40))}`;
}
