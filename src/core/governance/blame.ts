// `roz blame FILE[:LINE]` over the ledger: the last record that wrote each
// line, and whether those lines still hash to what was written.
import { findByHash, rangeHash, type LineRange } from './ranges.js';
import { rozMeta, type TraceRecord } from './trace-record.js';

export interface BlameHit {
  record_id: string;
  timestamp: string;
  intent_id: string;
  session_id: string;
  model_id: string | null;
  mutation_class: string;
  /** The range as recorded. */
  range: LineRange;
  /** `intact`: the recorded lines are unchanged at their position; `moved`: found elsewhere; `changed`: not found. */
  status: 'intact' | 'moved' | 'changed' | 'unhashed';
  moved_to?: LineRange;
}

/**
 * Ledger records are in append order, so for each range the last record
 * covering a line wins. `line` narrows to one line; otherwise every range.
 */
export function blame(records: readonly TraceRecord[], path: string, current: readonly string[] | null, line?: number): BlameHit[] {
  const hits: BlameHit[] = [];
  for (const r of records) {
    const meta = rozMeta(r);
    for (const f of r.files) {
      if (f.path !== path) continue;
      for (const c of f.conversations) {
        for (const range of c.ranges) {
          if (line !== undefined && (line < range.start_line || line > range.end_line)) continue;
          const hit: BlameHit = {
            record_id: r.id,
            timestamp: r.timestamp,
            intent_id: meta.intent_id,
            session_id: meta.session_id,
            model_id: range.contributor?.model_id ?? c.contributor?.model_id ?? null,
            mutation_class: meta.mutation_class,
            range: { start_line: range.start_line, end_line: range.end_line },
            status: 'unhashed',
          };
          if (range.content_hash && current) {
            const len = range.end_line - range.start_line + 1;
            if (range.end_line <= current.length && rangeHash(current, range.start_line, range.end_line) === range.content_hash) hit.status = 'intact';
            else {
              const moved = findByHash(current, len, range.content_hash);
              hit.status = moved ? 'moved' : 'changed';
              if (moved) hit.moved_to = moved;
            }
          } else if (range.content_hash) hit.status = 'changed';
          hits.push(hit);
        }
      }
    }
  }
  if (line !== undefined) return hits.slice(-1);
  // Keep, per line, only the latest writer: drop ranges fully covered by later ones.
  const kept: BlameHit[] = [];
  for (let i = hits.length - 1; i >= 0; i--) {
    const h = hits[i]!;
    const covered = kept.some((k) => k.range.start_line <= h.range.start_line && k.range.end_line >= h.range.end_line);
    if (!covered) kept.unshift(h);
  }
  return kept;
}
