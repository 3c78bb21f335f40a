// Bundles a TypeScript entry the way scripts/build.mjs bundles roz, so
// process and pty tests run real code without a TypeScript loader.
//
// Inside a test run (ROZ_TEST_RUN_TMPDIR, test/helpers/private-tmpdir.ts) an
// entry is bundled once and shared by every test file that asks for it: the
// sources do not change during a run, and each bundle is most of roz's source
// (about 1 CPU-s of esbuild; some 20 were made per run, 8 of them different).
// Outside a run (a file run with its own config), each process bundles its own.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esmBundleOptions } from '../../../scripts/esbuild-shared.mjs';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
// Inside the checkout so the external node-pty resolves from node_modules.
const cache = join(repoRoot, 'node_modules', '.cache');

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const slug = (entry: string): string => entry.replace(/[^A-Za-z0-9]+/g, '-');

async function bundleInto(entry: string, outdir: string): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    ...esmBundleOptions,
    entryPoints: { entry: join(repoRoot, entry) },
    outdir,
    nodePaths: [join(repoRoot, 'node_modules')],
    logLevel: 'error',
  });
}

/** One folder per entry and test process, removed once its process is gone (no run to share with). */
async function ownBundle(entry: string): Promise<string> {
  const home = join(cache, `roz-test-${slug(entry)}`);
  mkdirSync(home, { recursive: true });
  for (const name of readdirSync(home)) {
    const pid = /^pid-(\d+)$/.exec(name)?.[1];
    if (!pid || !alive(Number(pid))) rmSync(join(home, name), { recursive: true, force: true });
  }
  const outdir = join(home, `pid-${process.pid}`);
  await bundleInto(entry, outdir);
  return join(outdir, 'entry.mjs');
}

/** The run's bundle of `entry`: made by the first file that asks, under a lock folder naming its pid; the others wait for it. */
async function runBundle(entry: string, run: string): Promise<string> {
  const runs = join(cache, 'roz-test-bundles');
  const home = join(runs, basename(run));
  mkdirSync(home, { recursive: true });
  // Bundles of runs that are over (their temp folder is gone) go.
  for (const name of readdirSync(runs)) if (!existsSync(join(dirname(run), name))) rmSync(join(runs, name), { recursive: true, force: true });
  const done = join(home, slug(entry));
  const lock = `${done}.lock`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (existsSync(join(done, 'entry.mjs'))) return join(done, 'entry.mjs');
    try {
      mkdirSync(lock);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // Another file is bundling it; a lock whose process is gone (killed mid-build) is taken over.
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        /* being written */
      }
      if (Number.isInteger(owner) && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`bundle(${entry}): another test process (${owner}) did not finish bundling it within 120 s`);
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      const tmp = `${done}.tmp-${process.pid}`;
      await bundleInto(entry, tmp);
      renameSync(tmp, done);
      return join(done, 'entry.mjs');
    } finally {
      // A failed build leaves no lock: the next file to ask builds it again (and reports the same error).
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

export async function bundle(entry: string): Promise<string> {
  const run = process.env.ROZ_TEST_RUN_TMPDIR;
  return run ? runBundle(entry, run) : ownBundle(entry);
}
