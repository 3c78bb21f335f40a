// .orchestration/intent_map.md kept in step with the ledger by folding in only
// what was appended since the last refresh (src/store/intent-map-file.ts).
import { appendFileSync, readdirSync, readFileSync, renameSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addRecords, renderIntentMap } from '../../src/core/governance/intent-map.js';
import { loadAllOnDemand } from '../../src/core/on-demand.js';
import { intentMapCacheDir, refreshIntentMap } from '../../src/store/intent-map-file.js';
import { appendLedger, readLedger } from '../../src/store/ledger.js';
import { loadIntents, orchestrationPaths } from '../../src/store/orchestration.js';
import { makeProject, sampleRecord } from './helpers.js';

beforeAll(loadAllOnDemand);

function setup() {
  const p = makeProject();
  const parsed = loadIntents(p.root);
  if (!parsed.ok) throw new Error('fixture intents invalid');
  const ledger = orchestrationPaths(p.root).ledger;
  const mapFile = orchestrationPaths(p.root).map;
  const cache = intentMapCacheDir(p.store);
  const record = (i: number, intent = 'INT-001', session = `s${i % 3}`) =>
    sampleRecord({
      files: [{ path: `src/auth/f${i % 4}.ts`, conversations: [{ contributor: { type: 'ai' }, ranges: [] }] }],
      metadata: {
        'dev.roz': {
          session_id: session,
          intent_id: intent,
          mutation_class: 'INTENT_EVOLUTION',
          tool_name: 'Write',
          symbols: { [`src/auth/f${i % 4}.ts`]: [`sym${i}`] },
        },
      },
    });
  const refresh = () => refreshIntentMap(p.root, parsed.intents, cache);
  /** The map as a full read of the ledger renders it. */
  const fromScratch = () => renderIntentMap(parsed.intents, addRecords(new Map(), readLedger(ledger).records));
  return { p, ledger, mapFile, cache, record, refresh, fromScratch };
}

describe('intent map refresh', () => {
  it('reads only what was appended, and renders what a full read renders', () => {
    const t = setup();
    let i = 0;
    for (const batch of [3, 1, 5, 2]) {
      const before = statSync(t.ledger, { throwIfNoEntry: false })?.size ?? 0;
      for (let k = 0; k < batch; k++) appendLedger(dirname(t.ledger), t.ledger, t.record(i++, i % 5 === 0 ? 'INT-OLD' : 'INT-001'));
      const { readBytes } = t.refresh();
      expect(readBytes).toBe(statSync(t.ledger).size - before);
      expect(readFileSync(t.mapFile, 'utf8')).toBe(t.fromScratch());
    }
    expect(readFileSync(t.mapFile, 'utf8')).toMatch(/## INT-OLD: \(no longer in active_intents.yaml\)/);
    expect(readdirSync(t.cache)).toHaveLength(1);
  });

  it('leaves a line still being written for the next refresh', () => {
    const t = setup();
    appendLedger(dirname(t.ledger), t.ledger, t.record(1));
    const line = `${JSON.stringify(t.record(2))}\n`;
    appendFileSync(t.ledger, line.slice(0, 40));
    t.refresh();
    expect(readFileSync(t.mapFile, 'utf8')).not.toMatch(/sym2/);
    appendFileSync(t.ledger, line.slice(40));
    const { readBytes } = t.refresh();
    expect(readBytes).toBe(line.length);
    expect(readFileSync(t.mapFile, 'utf8')).toMatch(/sym2/);
    expect(readFileSync(t.mapFile, 'utf8')).toBe(t.fromScratch());
  });

  it('rebuilds from the whole ledger when it is not the file it cached', () => {
    const t = setup();
    for (let i = 0; i < 4; i++) appendLedger(dirname(t.ledger), t.ledger, t.record(i));
    t.refresh();

    // Replaced by another file (new inode), with other history.
    const other = `${t.ledger}.new`;
    for (let i = 10; i < 12; i++) appendLedger(dirname(other), other, t.record(i));
    renameSync(other, t.ledger);
    expect(t.refresh().readBytes).toBe(statSync(t.ledger).size);
    expect(readFileSync(t.mapFile, 'utf8')).not.toMatch(/sym0\b/);
    expect(readFileSync(t.mapFile, 'utf8')).toBe(t.fromScratch());

    // Same file cut short and written again: the bytes before the cached size differ.
    const size = statSync(t.ledger).size;
    truncateSync(t.ledger, 0);
    for (let i = 20; i < 24; i++) appendLedger(dirname(t.ledger), t.ledger, t.record(i));
    expect(statSync(t.ledger).size).toBeGreaterThan(size);
    expect(t.refresh().readBytes).toBe(statSync(t.ledger).size);
    expect(readFileSync(t.mapFile, 'utf8')).toBe(t.fromScratch());
  });

  it('rebuilds when the cache is corrupt, and skips ledger lines that are not records', () => {
    const t = setup();
    appendLedger(dirname(t.ledger), t.ledger, t.record(1));
    appendFileSync(t.ledger, 'not json\n{"version":"0.1.0"}\n');
    appendLedger(dirname(t.ledger), t.ledger, t.record(2));
    t.refresh();
    const [file] = readdirSync(t.cache);
    writeFileSync(join(t.cache, file!), '{"root":');
    expect(t.refresh().readBytes).toBe(statSync(t.ledger).size);
    expect(readFileSync(t.mapFile, 'utf8')).toBe(t.fromScratch());
    expect(readFileSync(t.mapFile, 'utf8')).toMatch(/sym1.*\n.*sym2|sym2/);
  });
});
