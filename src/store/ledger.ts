// The append-only trace ledger `.orchestration/agent_trace.jsonl`. Each record
// is validated before it is written (the hand-written check the hooks use,
// core/governance/trace-check.ts: no zod on the hook path), and written with one O_APPEND write: the
// kernel keeps concurrent appends to a regular file from interleaving, so
// hooks of parallel sessions never tear each other's lines.
import { closeSync, constants, writeSync } from 'node:fs';
import { openNoFollow } from './no-follow.js';
import { onDemand } from '../core/on-demand.js';
import { traceRecordIssues } from '../core/governance/trace-check.js';
import type { TraceRecord } from '../core/governance/trace-record.js';
import { MiB, readRegularText } from './regular-file.js';

export class LedgerError extends Error {
  override name = 'LedgerError';
}

/**
 * `file` inside `within` (the project root). Checked by hand (trace-check.ts), no zod on the hook path.
 * Returns the line written (without its newline): the hook keeps its hash in roz's store (a
 * `LedgerAppended` note), so that a merge can tell the records roz wrote from ones a branch forged.
 */
export function appendLedger(within: string, file: string, record: TraceRecord): string {
  const issues = traceRecordIssues(record);
  if (issues.length > 0) {
    const why = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    throw new LedgerError(`refusing to append an invalid trace record: ${why}`);
  }
  const line = JSON.stringify(record);
  const buf = Buffer.from(`${line}\n`, 'utf8');
  // Non-blocking, only a regular file, never through a link (no-follow.ts): a
  // FIFO planted there must not hang the hook, a link must not carry the line elsewhere.
  const { fd } = openNoFollow(within, file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o644);
  try {
    const n = writeSync(fd, buf, 0, buf.length);
    // A short write would leave half a line that a retry cannot complete atomically.
    if (n !== buf.length) throw new LedgerError(`short write to ${file} (${n} of ${buf.length} bytes)`);
  } finally {
    closeSync(fd);
  }
  return line;
}

export interface LedgerRead {
  records: TraceRecord[];
  /** 1-based line numbers that are not valid records (a torn line, a hand edit). */
  bad: number[];
}

/** Needs the trace schema loaded (throws NotLoaded otherwise). */
export function readLedger(file: string): LedgerRead {
  const { traceRecordSchema } = onDemand('trace-schema');
  let raw: string;
  try {
    raw = readRegularText(file, 1024 * MiB);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], bad: [] };
    throw err;
  }
  const records: TraceRecord[] = [];
  const bad: number[] = [];
  raw.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const parsed = traceRecordSchema.safeParse(JSON.parse(line));
      if (parsed.success) records.push(parsed.data);
      else bad.push(i + 1);
    } catch {
      bad.push(i + 1);
    }
  });
  return { records, bad };
}
