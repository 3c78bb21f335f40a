// Bundles roz into plugin/dist so the plugin runs from Claude Code's plugin
// cache with no node_modules beside it. Two entries: the lean hook path and the
// full CLI. node-pty is native and only used by `roz run`, so it stays external.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { cjsShimBanner, cjsShimDefine, externals } from './esbuild-shared.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: { hook: 'src/cli/hook-entry.ts', cli: 'src/cli/main.ts' },
  outdir: 'plugin/dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: externals,
  define: { ROZ_VERSION: JSON.stringify(pkg.version), ...cjsShimDefine },
  banner: cjsShimBanner,
  jsx: 'automatic',
  logLevel: 'warning',
  legalComments: 'none',
});
