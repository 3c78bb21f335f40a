// Parsed active_intents.yaml, cached by content. The file changes rarely and
// hooks run on every tool call: with a cached parse a hook reads the file and
// one small JSON file, and never loads yaml and zod. An entry holds the exact
// text it parsed and the parser build that parsed it, and is used only when
// both match: not mtime, so an edit within the same second (or a checkout
// that restores an old mtime) is never served a stale parse, and a new roz
// never trusts an old parse.
import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from './atomic-write.js';
import { isIntentsParse, type IntentsParse } from '../core/governance/intents.js';
import { onDemand } from '../core/on-demand.js';
import { nameHash } from '../core/name-hash.js';
import { MiB, readRegularText } from './regular-file.js';

/** Set by the hook build to a hash of the parser's bundled code. */
declare const ROZ_INTENTS_PARSER_ID: string;
const parserId = typeof ROZ_INTENTS_PARSER_ID === 'string' ? ROZ_INTENTS_PARSER_ID : 'source';

/** Old entries beyond this many are removed when a new one is written. */
const KEEP = 64;

export const intentsCacheDir = (storeRoot: string): string => join(storeRoot, 'cache', 'intents');

interface Entry {
  parser: string;
  text: string;
  parse: IntentsParse;
}

// A process parses a given text once, whatever the disk cache holds.
const memory = new Map<string, IntentsParse>();

/**
 * The parse of `text`: from memory, from `cacheDir`, or by the parser (which
 * throws NotLoaded when it is not loaded yet; see on-demand.ts). With no
 * cacheDir only memory is used. A cache that cannot be read or written only
 * costs a parse.
 */
export function parseIntentsCached(text: string, cacheDir: string | null): IntentsParse {
  const known = memory.get(text) ?? (cacheDir ? readEntry(entryFile(cacheDir, text), text) : undefined);
  if (known) {
    memory.set(text, known);
    return known;
  }
  const parsed = onDemand('intents-parser').parseActiveIntents(text);
  memory.set(text, parsed);
  if (cacheDir) writeEntry(cacheDir, { parser: parserId, text, parse: parsed });
  return parsed;
}

const entryFile = (dir: string, text: string): string => join(dir, `${nameHash(`${parserId}\0${text}`)}.json`);

function readEntry(file: string, text: string): IntentsParse | undefined {
  try {
    const e = JSON.parse(readRegularText(file, 16 * MiB)) as Partial<Entry> | null;
    return e?.parser === parserId && e.text === text && isIntentsParse(e.parse) ? e.parse : undefined;
  } catch {
    return undefined;
  }
}

function writeEntry(dir: string, entry: Entry): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // No fsync: a cache entry lost in a crash is parsed again.
    writeFileAtomicSync(dir, entryFile(dir, entry.text), JSON.stringify(entry), { mode: 0o600, durable: false });
    prune(dir);
  } catch {
    /* a cache that cannot be written only costs time */
  }
}

function prune(dir: string): void {
  const entries = readdirSync(dir).filter((f) => /^[0-9a-f]{16}\.json$/.test(f));
  if (entries.length <= KEEP) return;
  const aged = entries
    .map((f) => {
      try {
        return { f, t: statSync(join(dir, f)).mtimeMs };
      } catch {
        return { f, t: 0 };
      }
    })
    .sort((a, b) => b.t - a.t);
  for (const { f } of aged.slice(KEEP)) {
    try {
      unlinkSync(join(dir, f));
    } catch {
      /* removed by another hook */
    }
  }
}
