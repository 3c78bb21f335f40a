// Bundles a TypeScript entry the way scripts/build.mjs bundles roz, so
// process and pty tests run real code without a TypeScript loader.
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esmBundleOptions } from '../../../scripts/esbuild-shared.mjs';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export async function bundle(entry: string): Promise<string> {
  // Inside the checkout so the external node-pty resolves from node_modules.
  const cache = join(repoRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  // One folder per entry, rebuilt each run, so bundles do not pile up.
  const outdir = join(cache, `roz-test-${entry.replace(/[^A-Za-z0-9]+/g, '-')}`);
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
