// Bundles roz into plugin/dist so the plugin runs from Claude Code's plugin
// cache with no node_modules beside it. Two bundles:
//  - hook.cjs, the hook process: one CommonJS file, so plugin/bin/code-cache.js
//    can run it from a V8 code cache (Node 20 has no compile cache for ESM).
//    Dynamic imports inside it stay lazy (esbuild evaluates them on first use).
//  - cli.mjs + chunks, everything else (ESM, split so `roz run` loads the UI
//    only when asked). node-pty is native and only used by `roz run`: external.
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { esmBundleOptions, externals } from './esbuild-shared.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const outdir = 'plugin/dist';
const common = { bundle: true, platform: 'node', target: 'node20', external: externals, logLevel: 'warning', legalComments: 'none', metafile: true };

const [hook, cli] = await Promise.all([
  build({
    ...common,
    entryPoints: ['src/cli/hook-entry.ts'],
    outfile: join(outdir, 'hook.cjs'),
    format: 'cjs',
    // Less source to read per process, names kept for stack traces;
    // ROZ_READABLE=1 keeps it as written (with module markers) for profiling.
    minifyWhitespace: !process.env.ROZ_READABLE,
    minifySyntax: !process.env.ROZ_READABLE,
    define: { ROZ_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__rozImportMetaUrl' },
    banner: { js: "var __rozImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  }),
  build({
    ...esmBundleOptions,
    logLevel: 'warning',
    legalComments: 'none',
    metafile: true,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir,
    define: { ...esmBundleOptions.define, ROZ_VERSION: JSON.stringify(pkg.version) },
  }),
]);

// Chunks of earlier builds (content-hashed names) would otherwise pile up.
const fresh = new Set([...Object.keys(hook.metafile.outputs), ...Object.keys(cli.metafile.outputs)].map((p) => basename(p)));
for (const f of readdirSync(outdir)) if (!fresh.has(f)) rmSync(join(outdir, f), { force: true });
