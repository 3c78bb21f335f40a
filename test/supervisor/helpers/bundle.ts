// Bundles a TypeScript entry the way scripts/build.mjs bundles roz, so
// process and pty tests run real code without a TypeScript loader.
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cjsShimBanner, cjsShimDefine, externals } from '../../../scripts/esbuild-shared.mjs';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export async function bundle(entry: string): Promise<string> {
  // Inside the checkout so the external node-pty resolves from node_modules.
  const cache = join(repoRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  // One folder per entry, rebuilt each run, so bundles do not pile up.
  const outdir = join(cache, `roz-test-${entry.replace(/[^A-Za-z0-9]+/g, '-')}`);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { entry: join(repoRoot, entry) },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // As in scripts/build.mjs: ink's devtools import (react-devtools-core) stays in a chunk never loaded.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: externals,
    nodePaths: [join(repoRoot, 'node_modules')],
    define: cjsShimDefine,
    banner: cjsShimBanner,
    jsx: 'automatic',
    logLevel: 'error',
  });
  return join(outdir, 'entry.mjs');
}
