// The telemetry spool: hooks append the records worth exporting here (one
// O_APPEND write, no network), and whoever sends them — the supervisor, or a
// `roz otel flush` a later hook starts in the background — takes the file by
// renaming it aside, so hooks appending meanwhile start a new one. A flush
// that fails leaves its file to the next flush.
import { appendRegularFile } from './regular-file.js';
import { readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spoolable, spoolLine } from '../core/telemetry.js';
import type { TraceRecord } from './session-store.js';

export const telemetryDir = (root: string): string => join(root, 'otel');
export const spoolPath = (root: string): string => join(telemetryDir(root), 'spool.jsonl');

export function spoolRecords(root: string, records: readonly TraceRecord[]): void {
  let text = '';
  for (const r of records) if (spoolable(r)) text += `${spoolLine(r)}\n`;
  if (!text) return;
  // Creates otel/ when missing; never through a link (no-follow.ts).
  appendRegularFile(root, spoolPath(root), text, { mode: 0o600, dirMode: 0o700 });
}

/** Something is waiting to be sent. */
export function spoolPending(root: string): boolean {
  try {
    return readdirSync(telemetryDir(root)).some((f) => (f === 'spool.jsonl' || f.endsWith('.sending')) && statSync(join(telemetryDir(root), f)).size > 0);
  } catch {
    return false;
  }
}

export interface SpoolBatch {
  file: string;
  records: TraceRecord[];
  /** Bytes read; a hook that opened the file just before the rename may still add a line. */
  size: number;
}

/** Rename the live spool aside and return every file waiting to be sent (leftovers of failed flushes first). */
export function takeSpool(root: string): SpoolBatch[] {
  const dir = telemetryDir(root);
  try {
    renameSync(spoolPath(root), join(dir, `${Date.now()}.${process.pid}.sending`));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((f) => f.endsWith('.sending'))
      .sort();
  } catch {
    return [];
  }
  return names.map((name) => readBatch(join(dir, name), 0));
}

export function readBatch(file: string, from: number): SpoolBatch {
  const text = readFileSync(file, 'utf8');
  const records: TraceRecord[] = [];
  for (const line of text.slice(from).split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as TraceRecord);
    } catch {
      /* torn line: skipped */
    }
  }
  return { file, records, size: text.length };
}

/** After a batch was sent: send what arrived late, then remove the file. Returns the late lines, if any. */
export function lateLines(batch: SpoolBatch): SpoolBatch | null {
  try {
    return statSync(batch.file).size > batch.size ? readBatch(batch.file, batch.size) : null;
  } catch {
    return null;
  }
}

export function doneWith(batch: SpoolBatch): void {
  rmSync(batch.file, { force: true });
}
