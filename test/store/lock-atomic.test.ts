// The store's own lock and atomic write, on real files and real processes.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomicSync } from '../../src/store/atomic-write.js';
import { acquireLock, LockBusyError } from '../../src/store/lock.js';
import { bundle } from '../supervisor/helpers/bundle.js';
import { tempDir } from '../helpers/temp-dir.js';

const fresh = () => tempDir('roz-lock-');
const opts = { staleMs: 5_000, refreshMs: 1_000, waitMs: 300 };

describe('acquireLock', () => {
  it('is exclusive: a second taker waits, then fails with ELOCKED; after release it succeeds', async () => {
    const file = join(fresh(), 'state.json');
    const release = await acquireLock(file, opts);
    expect(existsSync(`${file}.lock`)).toBe(true);
    const err = await acquireLock(file, opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockBusyError);
    expect((err as LockBusyError).code).toBe('ELOCKED');
    release();
    expect(existsSync(`${file}.lock`)).toBe(false);
    (await acquireLock(file, opts))();
  });

  it('takes over a stale lock (a holder that died) and leaves no debris', async () => {
    const dir = fresh();
    const file = join(dir, 'state.json');
    mkdirSync(`${file}.lock`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    const release = await acquireLock(file, opts);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps a held lock fresh, so a long holder is not taken over', async () => {
    const file = join(fresh(), 'state.json');
    const release = await acquireLock(file, { staleMs: 400, refreshMs: 50, waitMs: 100 });
    await new Promise((r) => setTimeout(r, 700));
    await expect(acquireLock(file, { staleMs: 400, refreshMs: 50, waitMs: 100 })).rejects.toBeInstanceOf(LockBusyError);
    release();
  });

  it('does not wait on errors other than contention (missing directory)', async () => {
    const t0 = Date.now();
    const err = (await acquireLock(join(fresh(), 'no', 'such', 'state.json'), { ...opts, waitMs: 5_000 }).catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(err.code).toBe('ENOENT');
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it('serialises 16 processes doing read-increment-write: no update lost', async () => {
    const dir = fresh();
    const file = join(dir, 'counter.json');
    writeFileSync(file, '0');
    const entry = await bundle('test/store/fixtures/counter.ts');
    const run = () =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, [entry, file, '10'], { stdio: 'inherit' });
        child.on('error', reject).on('close', resolve);
      });
    const codes = await Promise.all(Array.from({ length: 16 }, run));
    expect(codes.every((c) => c === 0)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('160');
  }, 60_000);
});

describe('writeFileAtomicSync', () => {
  it('replaces the content whole, with the mode asked for, leaving no temporary file', () => {
    const dir = fresh();
    const file = join(dir, 'a.json');
    writeFileSync(file, 'old');
    writeFileAtomicSync(dir, file, 'x'.repeat(300_000), { mode: 0o600 });
    expect(readFileSync(file, 'utf8')).toHaveLength(300_000);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('on failure keeps the old file and removes its temporary file', () => {
    const dir = fresh();
    const file = join(dir, 'a.json');
    writeFileSync(file, 'old');
    mkdirSync(join(dir, 'target-is-a-dir'));
    expect(() => writeFileAtomicSync(dir, join(dir, 'target-is-a-dir'), 'new')).toThrow();
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'target-is-a-dir']);
  });
});
