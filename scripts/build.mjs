// Bundles roz into plugin/dist so the plugin runs from Claude Code's plugin
// cache with no node_modules beside it. Two entries: the lean hook path and the
// full CLI. node-pty is native and only used by `roz run`, so it stays external.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

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
  // react-devtools-core: ink imports it only when DEV=true (its devtools
  // bridge); left external so ink bundles without it (roz run's TUI chunk).
  external: ['node-pty', 'react-devtools-core'],
  // Bundled CommonJS deps use require/__filename/__dirname; give every ESM chunk
  // its own under private names so they cannot clash with bundled ESM code.
  define: { ROZ_VERSION: JSON.stringify(pkg.version), __filename: '__rozFilename', __dirname: '__rozDirname' },
  banner: {
    js: [
      "import { createRequire as __rozCreateRequire } from 'node:module';",
      "import { fileURLToPath as __rozFileURLToPath } from 'node:url';",
      'const require = __rozCreateRequire(import.meta.url);',
      'const __rozFilename = __rozFileURLToPath(import.meta.url);',
      "const __rozDirname = __rozFilename.slice(0, __rozFilename.lastIndexOf('/'));",
    ].join(' '),
  },
  jsx: 'automatic',
  logLevel: 'warning',
  legalComments: 'none',
});
