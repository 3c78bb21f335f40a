// Keeps .orchestration/intent_map.md in step with the ledger after every
// recorded change. Re-reading (and re-validating) the whole ledger each time
// made a hook's cost grow with the project's history: 0.55 s a Write at
// 10,000 records. The ledger only grows, so the tally is cached in the store
// with the ledger's identity, its size and the bytes just before that size;
// when the file is still that file with those bytes, only what was appended
// since is read. Anything else (a rewritten, truncated or replaced ledger, a
// corrupt cache) rebuilds from the whole file.
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from './atomic-write.js';
import { addRecords, renderIntentMap, tallyFromJson, tallyToJson, type MapTally, type TallyJson } from '../core/governance/intent-map.js';
import type { Intent } from '../core/governance/intents.js';
import type { TraceRecord } from '../core/governance/trace-record.js';
import { nameHash } from '../core/name-hash.js';
import { isTraceRecord } from '../core/governance/trace-check.js';
import { orchestrationPaths, writeIntentMap } from './orchestration.js';
import { MiB, readRegularText } from './regular-file.js';

export const intentMapCacheDir = (storeRoot: string): string => join(storeRoot, 'cache', 'intent-map');

/** Bytes before the cached size that must still be there: enough to tell another file's history apart. */
const TAIL = 256;

interface Cache {
  root: string;
  dev: number;
  ino: number;
  /** Ledger bytes folded in: always the end of a whole line. */
  size: number;
  /** base64 of the TAIL bytes before `size`. */
  tail: string;
  tally: TallyJson;
}

/**
 * Fold what the ledger gained since the last call into the cached tally and
 * rewrite the map.
 * Returns how many ledger bytes it read (tests and the bench look).
 */
export function refreshIntentMap(root: string, intents: readonly Intent[], cacheDir: string | null): { readBytes: number } {
  const cacheFile = cacheDir ? join(cacheDir, `${nameHash(root)}.json`) : null;
  const { tally, mark, readBytes } = foldLedger(orchestrationPaths(root).ledger, cacheFile ? readCache(cacheFile, root) : null);
  if (cacheDir && cacheFile) {
    try {
      mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
      const cache: Cache = { root, ...mark, tally: tallyToJson(tally) };
      writeFileAtomicSync(cacheDir, cacheFile, JSON.stringify(cache), { mode: 0o600, durable: false });
    } catch {
      /* a cache that cannot be written only costs a full read next time */
    }
  }
  writeIntentMap(root, renderIntentMap(intents, tally));
  return { readBytes };
}

type Mark = Pick<Cache, 'dev' | 'ino' | 'size' | 'tail'>;

/** The ledger's tally, from `cached` plus what was appended when the file is still the one cached, else from the start. */
function foldLedger(ledger: string, cached: Cache | null): { tally: MapTally; mark: Mark; readBytes: number } {
  let fd: number;
  try {
    fd = openSync(ledger, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return { tally: new Map(), mark: { dev: 0, ino: 0, size: 0, tail: '' }, readBytes: 0 };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${ledger} is not a regular file`);
    const { dev, ino, size: now } = st;
    const same = cached && cached.dev === dev && cached.ino === ino && cached.size <= now && tailAt(fd, cached.size) === cached.tail;
    const kept = same ? tallyFromJson(cached.tally) : null;
    const from = kept ? cached!.size : 0;
    const tally = kept ?? new Map();
    const fresh = bytesAt(fd, from, now - from);
    // Whole lines only: a record still being appended is read next time.
    const end = fresh.lastIndexOf(0x0a) + 1;
    addRecords(tally, parseRecords(fresh.subarray(0, end).toString('utf8')));
    const size = from + end;
    return { tally, mark: { dev, ino, size, tail: tailAt(fd, size) }, readBytes: fresh.length };
  } finally {
    closeSync(fd);
  }
}

/** base64 of the TAIL bytes before `size`. */
const tailAt = (fd: number, size: number): string => bytesAt(fd, Math.max(0, size - TAIL), Math.min(TAIL, size)).toString('base64');

function bytesAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(Math.max(0, length));
  let off = 0;
  while (off < buf.length) {
    const n = readSync(fd, buf, off, buf.length - off, position + off);
    if (n === 0) break;
    off += n;
  }
  return buf.subarray(0, off);
}

/**
 * Valid records, in order; a line that is not one (torn, hand-edited) is
 * skipped, as readLedger does. Checked by hand (core/governance/trace-check.ts),
 * not with zod: a hook folds these in.
 */
function parseRecords(text: string): TraceRecord[] {
  const out: TraceRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const rec = JSON.parse(line) as unknown;
      if (isTraceRecord(rec)) out.push(rec as TraceRecord);
    } catch {
      /* not JSON */
    }
  }
  return out;
}

function readCache(file: string, root: string): Cache | null {
  try {
    const c = JSON.parse(readRegularText(file, 16 * MiB)) as Partial<Cache> | null;
    if (!c || c.root !== root || typeof c.size !== 'number' || typeof c.tail !== 'string' || typeof c.dev !== 'number' || typeof c.ino !== 'number')
      return null;
    return c as Cache;
  } catch {
    return null;
  }
}
