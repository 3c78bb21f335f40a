// The store's stats index: one JSON line (core/stats.ts StatsSummary) each
// time a session's stats-relevant part changes (created, a review block, a
// spawn, a decision, a breaker trip), appended by the engine inside the
// session's locked update. `roz stats` reads this one file instead of every
// state.json (100,000 sessions: one file of a few tens of MB instead of
// 100,000 opens). The newest line of a session (by the state's updated_at)
// wins, so line order does not matter and compaction can re-append.
// Sessions with no line (written before the index existed, or whose append
// failed) are read from their state file.
import { readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { appendRegularFile } from './regular-file.js';
import { join } from 'node:path';
import type { StatsSummary } from '../core/stats.js';

export const statsIndexPath = (root: string): string => join(root, 'stats-index.jsonl');

/** One O_APPEND write: concurrent hooks of different sessions never interleave lines. */
export function appendStatsSummary(root: string, summary: StatsSummary): void {
  appendRegularFile(root, statsIndexPath(root), `${JSON.stringify(summary)}\n`, { mode: 0o600 });
}

const HEAD = '{"s":"';
const U = '"u":"';

/** Where each session's newest line sits in the index text. */
export interface StatsIndex {
  text: string;
  newest: Map<string, { u: string; at: number; end: number }>;
  lines: number;
}

/**
 * Find the newest line of each session without parsing the others: the id
 * and updated_at are read in place (JSON.stringify writes the keys in order
 * s, c, u). Winners are parsed one at a time by `summaryAt`, so 100,000
 * summaries are never all alive at once (the GC was a third of the time).
 */
function scan(text: string): StatsIndex {
  const newest = new Map<string, { u: string; at: number; end: number }>();
  let lines = 0;
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    if (end > at) {
      lines += 1;
      let id: string | null = null;
      let u: string | null = null;
      if (text.startsWith(HEAD, at)) {
        const q = text.indexOf('"', at + HEAD.length);
        const uAt = q < 0 ? -1 : text.indexOf(U, q);
        const uEnd = uAt < 0 ? -1 : text.indexOf('"', uAt + U.length);
        if (uEnd > 0 && uEnd < end) {
          id = text.slice(at + HEAD.length, q);
          u = text.slice(uAt + U.length, uEnd);
          if (id.includes('\\')) id = null; // an escaped character: let JSON.parse read it
        }
      }
      if (id === null || u === null) {
        try {
          const s = JSON.parse(text.slice(at, end)) as StatsSummary;
          if (typeof s.s === 'string' && typeof s.u === 'string') (id = s.s), (u = s.u);
        } catch {
          /* a torn line (crash mid-append): that session falls back to an older line or its state file */
        }
      }
      if (id !== null && u !== null) {
        const prev = newest.get(id);
        if (prev === undefined || prev.u <= u) newest.set(id, { u, at, end });
      }
    }
    at = end + 1;
  }
  return { text, newest, lines };
}

/** The session's newest summary in the index, or null (absent or unreadable: read its state file). */
export function summaryAt(index: StatsIndex, id: string): StatsSummary | null {
  const pos = index.newest.get(id);
  if (!pos) return null;
  try {
    const s = JSON.parse(index.text.slice(pos.at, pos.end)) as StatsSummary;
    return s.s === id && typeof s.c === 'string' && Array.isArray(s.a) && Array.isArray(s.t) ? s : null;
  } catch {
    return null;
  }
}

export function readStatsIndex(root: string): StatsIndex {
  let text: string;
  try {
    text = readFileSync(statsIndexPath(root), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') text = '';
    else throw err;
  }
  return scan(text);
}

/**
 * Drop superseded lines and sessions no longer in the store (`roz clean`).
 * The file is renamed aside first, so hooks appending meanwhile start a new
 * one; the kept lines are appended to it (newest-wins makes the order
 * irrelevant). A hook that opened the old file just before the rename writes
 * into it: the old file is re-read until its size stops changing, then removed.
 */
export function compactStatsIndex(root: string, live: ReadonlySet<string>): { before: number; after: number } {
  const path = statsIndexPath(root);
  const aside = `${path}.${process.pid}.compacting`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { before: 0, after: 0 };
    throw err;
  }
  let index = scan('');
  let size = -1;
  for (let i = 0; i < 5 && statSync(aside).size !== size; i++) {
    size = statSync(aside).size;
    index = scan(readFileSync(aside, 'utf8'));
  }
  const kept: string[] = [];
  for (const [id, { at, end }] of index.newest) if (live.has(id)) kept.push(index.text.slice(at, end));
  if (kept.length) appendRegularFile(root, path, `${kept.join('\n')}\n`, { mode: 0o600 });
  rmSync(aside, { force: true });
  return { before: index.lines, after: kept.length };
}
