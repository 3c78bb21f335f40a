// Bringing a branch's Agent Trace records into the base's ledger at a merge.
// The ledger is append-only and every record carries an id, so no three-way
// text merge is needed: the base's lines as they are, then the branch's
// records the base does not have, in the branch's order — none lost, none
// twice, never a conflict.
export interface LedgerUnion {
  text: string;
  /** Branch records appended. */
  added: number;
  /** Branch lines that are not a record with an id (kept, appended once, and reported). */
  unreadable: number;
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

export function ledgerUnion(baseText: string, branchText: string): LedgerUnion {
  const baseLines = baseText.split('\n').filter((l) => l.trim() !== '');
  const haveIds = new Set<string>();
  const haveLines = new Set<string>(baseLines);
  for (const l of baseLines) {
    const id = idOf(l);
    if (id) haveIds.add(id);
  }
  const out = [...baseLines];
  let added = 0;
  let unreadable = 0;
  for (const l of branchText.split('\n')) {
    if (l.trim() === '' || haveLines.has(l)) continue;
    const id = idOf(l);
    if (id === null) unreadable++;
    else if (haveIds.has(id)) continue;
    else haveIds.add(id);
    haveLines.add(l);
    out.push(l);
    added++;
  }
  return { text: out.length > 0 ? `${out.join('\n')}\n` : '', added, unreadable };
}
