// The store's own lock and atomic write, on real files and real processes.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomicSync } from '../../src/store/atomic-write.js';
import { acquireLock, LockBusyError, LockLostError } from '../../src/store/lock.js';
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

describe('a holder past staleMs (issue 24): fenced, not trusted', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('once taken over, its write is refused and its release leaves the new holder alone', async () => {
    const dir = fresh();
    const file = join(dir, 'state.json');
    writeFileSync(file, 'v0');
    const slow = { staleMs: 200, refreshMs: null, waitMs: 2_000 };
    const a = await acquireLock(file, slow);
    await sleep(400); // a's update runs long; nothing refreshes the lock
    const b = await acquireLock(file, slow); // takes the stale lock over
    expect(() => a.commitWrite(file, 'A')).toThrow(LockLostError);
    expect(readFileSync(file, 'utf8')).toBe('v0');
    a(); // a's release must not free b's lock
    expect(existsSync(`${file}.lock`)).toBe(true);
    await expect(acquireLock(file, { ...slow, waitMs: 50 })).rejects.toBeInstanceOf(LockBusyError);
    b.commitWrite(file, 'B');
    b();
    expect(readFileSync(file, 'utf8')).toBe('B');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('control: the same late holder writing with a plain atomic write undoes the new holder’s update', async () => {
    const dir = fresh();
    const file = join(dir, 'state.json');
    writeFileSync(file, 'v0');
    const slow = { staleMs: 200, refreshMs: null, waitMs: 2_000 };
    const a = await acquireLock(file, slow);
    await sleep(400);
    const b = await acquireLock(file, slow);
    b.commitWrite(file, 'B');
    b();
    writeFileAtomicSync(dir, file, 'A'); // what the store did before: a's stale write lands
    expect(readFileSync(file, 'utf8')).toBe('A');
    a();
  });

  it('a session update that holds the lock past 5 s is refused; the update that took over stays', async () => {
    const root = fresh();
    const entry = await bundle('test/store/fixtures/slow-update.ts');
    const sid = 'f3b1c0a6-9f1e-4b7a-8d7e-2b9a4c3e1f00';
    const run = (label: string, holdMs: number) =>
      new Promise<{ code: number | null; out: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [entry, root, sid, label, String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.on('error', reject).on('close', (code) => resolve({ code, out }));
      });
    const slow = run('slow', 6_500);
    await sleep(1_000);
    // Waits for the lock, finds it stale after 5 s, takes it over, writes.
    const fast = await run('fast', 0);
    const late = await slow;
    expect(fast, fast.out).toMatchObject({ code: 0 });
    expect(late.code, late.out).toBe(3);
    expect(late.out).toMatch(/lost the lock/);
    const doc = JSON.parse(readFileSync(join(root, 'sessions', sid, 'state.json'), 'utf8'));
    expect(doc.review.user_prompts.map((p: { text: string }) => p.text)).toEqual(['fast']);
  }, 30_000);
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
