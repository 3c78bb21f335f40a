// Bundles a TypeScript entry the way scripts/build.mjs bundles roz, so
// process and pty tests run real code without a TypeScript loader.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esmBundleOptions } from '../../../scripts/esbuild-shared.mjs';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export async function bundle(entry: string): Promise<string> {
  // Inside the checkout so the external node-pty resolves from node_modules.
  const cache = join(repoRoot, 'node_modules', '.cache');
  // One folder per entry and test process: test files run in parallel (vitest.config.ts),
  // and two files bundling the same entry must not delete each other's bundle mid-run.
  // Folders of processes that are gone are removed, so bundles do not pile up.
  const home = join(cache, `roz-test-${entry.replace(/[^A-Za-z0-9]+/g, '-')}`);
  mkdirSync(home, { recursive: true });
  for (const name of readdirSync(home)) {
    const pid = /^pid-(\d+)$/.exec(name)?.[1];
    if (!pid || !alive(Number(pid))) rmSync(join(home, name), { recursive: true, force: true });
  }
  const outdir = join(home, `pid-${process.pid}`);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    ...esmBundleOptions,
    entryPoints: { entry: join(repoRoot, entry) },
    outdir,
    nodePaths: [join(repoRoot, 'node_modules')],
    logLevel: 'error',
  });
  return join(outdir, 'entry.mjs');
}
