// The ledger: validation before append, and 64 real processes appending at once lose no line.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOnDemand } from '../../src/core/on-demand.js';
import { appendLedger, LedgerError, readLedger } from '../../src/store/ledger.js';
import { sampleRecord } from './helpers.js';
import { tempDir } from '../helpers/temp-dir.js';

// These call governance directly; the engine loads these modules on demand (test/process/hook-startup.test.ts).
beforeAll(loadAllOnDemand);

describe('ledger', () => {
  it('refuses an invalid record and appends valid ones', () => {
    const file = join(tempDir('roz-ledger-'), 'agent_trace.jsonl');
    expect(() => appendLedger(dirname(file), file, sampleRecord({ version: '1.0' as never }))).toThrow(LedgerError);
    expect(() => appendLedger(dirname(file), file, sampleRecord({ id: 'nope' }))).toThrow(/id/);
    appendLedger(dirname(file), file, sampleRecord());
    writeFileSync(file, readFileSync(file, 'utf8') + '{"torn":\n', { flag: 'w' });
    const read = readLedger(file);
    expect(read.records).toHaveLength(1);
    expect(read.bad).toEqual([2]);
  });

  it('64 concurrent appenders (real processes, 64 KiB lines) lose and tear no line', async () => {
    const dir = tempDir('roz-ledger-');
    const file = join(dir, 'agent_trace.jsonl');
    const entry = join(dir, 'appender.ts');
    const ledgerTs = join(import.meta.dirname, '../../src/store/ledger.ts');
    const traceTs = join(import.meta.dirname, '../../src/core/governance/trace-record.ts');
    const onDemandTs = join(import.meta.dirname, '../../src/core/on-demand.ts');
    writeFileSync(
      entry,
      `import { dirname } from 'node:path';\nimport { appendLedger } from ${JSON.stringify(ledgerTs)};\nimport { AGENT_TRACE_VERSION } from ${JSON.stringify(traceTs)};\n` +
        `import { loadAllOnDemand } from ${JSON.stringify(onDemandTs)};\nawait loadAllOnDemand();\n` +
        `const [file, who, n, pad] = process.argv.slice(2);\n` +
        `for (let i = 0; i < Number(n); i++) appendLedger(dirname(file), file, { version: AGENT_TRACE_VERSION, id: crypto.randomUUID(), timestamp: new Date().toISOString(), tool: { name: 'roz', version: '0' }, files: [], metadata: { 'dev.roz': { session_id: 'p' + who, intent_id: 'INT-' + i, mutation_class: 'AST_REFACTOR', tool_name: 'Write' }, pad: 'x'.repeat(Number(pad)) } });\n`,
    );
    const bundle = join(dir, 'appender.mjs');
    await build({ entryPoints: [entry], outfile: bundle, bundle: true, platform: 'node', format: 'esm', logLevel: 'silent' });
    const PROCS = 64;
    const EACH = 20;
    await Promise.all(
      Array.from(
        { length: PROCS },
        (_, who) =>
          new Promise<void>((resolve, reject) => {
            // Some lines far above PIPE_BUF (4 KiB): atomicity must not depend on small writes.
            const child = spawn(process.execPath, [bundle, file, String(who), String(EACH), String(who % 2 ? 64 * 1024 : 100)], { stdio: 'inherit' });
            child.on('error', reject);
            child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`appender ${who} exited ${code}`))));
          }),
      ),
    );
    const { records, bad } = readLedger(file);
    expect(bad).toEqual([]);
    expect(records).toHaveLength(PROCS * EACH);
    const perProc = new Map<string, number>();
    for (const r of records) perProc.set(r.metadata['dev.roz'].session_id, (perProc.get(r.metadata['dev.roz'].session_id) ?? 0) + 1);
    expect([...perProc.values()].every((n) => n === EACH)).toBe(true);
  }, 120_000);
});
