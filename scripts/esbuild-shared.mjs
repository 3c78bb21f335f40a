// esbuild settings that every roz bundle needs, shared by the build and by the
// tests that bundle entries the same way.

/** Packages never bundled: node-pty is native; ink imports react-devtools-core only when DEV=true. */
export const externals = ['@lydell/node-pty', 'react-devtools-core'];

/**
 * Bundled CommonJS deps use require/__filename/__dirname; give every ESM chunk
 * its own under private names so they cannot clash with bundled ESM code.
 */
export const cjsShimDefine = { __filename: '__rozFilename', __dirname: '__rozDirname' };
export const cjsShimBanner = {
  js: [
    "import { createRequire as __rozCreateRequire } from 'node:module';",
    "import { fileURLToPath as __rozFileURLToPath } from 'node:url';",
    'const require = __rozCreateRequire(import.meta.url);',
    'const __rozFilename = __rozFileURLToPath(import.meta.url);',
    "const __rozDirname = __rozFilename.slice(0, __rozFilename.lastIndexOf('/'));",
  ].join(' '),
};

/**
 * What ships: React (and so Ink) in its production build. Left to run time,
 * process.env.NODE_ENV is unset and React runs its development build, whose
 * heap grows with every frame `roz run` draws (npm run bench, TUI memory).
 */
export const productionDefine = { 'process.env.NODE_ENV': '"production"' };

/** How roz bundles an ESM entry: the CLI (scripts/build.mjs), the bench's sections and test fixtures. */
export const esmBundleOptions = {
  bundle: true,
  // Chunks: ink's devtools import (react-devtools-core) stays in one never loaded.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  external: externals,
  define: { ...cjsShimDefine, ...productionDefine },
  banner: cjsShimBanner,
  jsx: 'automatic',
};

/**
 * The hook launcher (src/launcher/roz.ts -> plugin/bin/roz): one CommonJS file
 * that node parses on every hook, so nothing is added to it: no minifying (it
 * is read by people auditing what runs in every tool call), no interop
 * helpers (it requires node builtins by hand), comments dropped (esbuild keeps
 * none but legal ones; the source has them). esbuild puts "use strict" first.
 */
export const launcherOptions = {
  entryPoints: ['src/launcher/roz.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  banner: {
    js: ['#!/usr/bin/env node', '// roz hook launcher. GENERATED from src/launcher/roz.ts by scripts/build.mjs: edit there, then `npm run build`.'].join('\n'),
  },
};
