// Bundles roz into plugin/dist so the plugin runs from Claude Code's plugin
// cache with no node_modules beside it. Two bundles:
//  - hook.cjs, the hook process: CommonJS, so plugin/bin/roz can run
//    it from a V8 code cache (Node 20 has no compile cache for ESM). Dynamic
//    imports inside it stay lazy (esbuild evaluates them on first use). The
//    modules of src/core/on-demand.ts (yaml, zod, the shell parser) are files
//    of their own, hook-<name>.cjs, each with its own code cache: a hook that
//    does not need them reads and deserializes none of their code.
//  - cli.mjs + chunks, everything else (ESM, split so `roz run` loads the UI
//    only when asked). node-pty is native and only used by `roz run`: external.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { esmBundleOptions, externals, launcherOptions } from './esbuild-shared.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const outdir = 'plugin/dist';
const common = { bundle: true, platform: 'node', target: 'node20', external: externals, logLevel: 'warning', legalComments: 'none', metafile: true };
const hookCjs = {
  ...common,
  format: 'cjs',
  // Less source to read, scan and deserialize per process: with short names
  // a Bash hook runs 1.3M fewer instructions (callgrind, of ~40M roz adds to
  // node). Stack traces name mangled functions but keep file:line:column;
  // ROZ_READABLE=1 builds it as written (names, module markers) to debug or profile.
  minifyWhitespace: !process.env.ROZ_READABLE,
  minifySyntax: !process.env.ROZ_READABLE,
  minifyIdentifiers: !process.env.ROZ_READABLE,
};

/** What src/core/on-demand.ts imports, by its literal specifier: the hook requires hook-<name>.cjs instead. */
const onDemand = {
  './governance/intents-parser.js': { name: 'intents-parser', entry: 'src/core/governance/intents-parser.ts' },
  './governance/trace-schema.js': { name: 'trace-schema', entry: 'src/core/governance/trace-schema.ts' },
  './shell/index.js': { name: 'shell', entry: 'src/core/shell/index.ts' },
  './apply-patch.js': { name: 'apply-patch', entry: 'src/core/apply-patch.ts' },
  './shell/effects.js': { name: 'effects', entry: 'src/core/shell/effects.ts' },
};
/** Store modules only some hooks need, by specifier and the one engine module that imports them. */
const storeOnDemand = {
  '../store/tree-snapshot.js': { name: 'tree-snapshot', entry: 'src/store/tree-snapshot.ts', importer: 'src/engine/snapshots.ts' },
  // The daily sweep of roz's snapshot objects (a SessionStart once a day).
  '../store/snapshot-prune.js': { name: 'snapshot-prune', entry: 'src/store/snapshot-prune.ts', importer: 'src/engine/cleanup.ts' },
  // Taking the agent's staged git objects in (zlib, index-pack): only when some wait.
  '../store/object-intake.js': { name: 'object-intake', entry: 'src/store/object-intake.ts', importer: 'src/engine/object-intake-hook.ts' },
  // The relay to roz run's supervisor (the channel socket): only hooks under `roz run` (ROZ_SOCKET) read it.
  '../supervisor/hooks/channel-client.js': { name: 'channel-client', entry: 'src/supervisor/hooks/channel-client.ts', importer: 'src/cli/hook-entry.ts' },
  // The reviewer roz starts itself (child_process): only at a stop that needs it (issue 33).
  './reviewer-launch.js': { name: 'reviewer-launch', entry: 'src/engine/reviewer-launch.ts', importer: 'src/engine/engine.ts' },
};
const chunkFile = (name) => `hook-${name}.cjs`;

/**
 * The last line of a CommonJS bundle names its content: plugin/bin/roz keys
 * the bundle's V8 code cache by it, without hashing at run time (node:crypto
 * costs a hook milliseconds to load).
 */
function stampContentHash(file) {
  const text = readFileSync(file, 'utf8');
  // plugin/bin/roz reads the bundles as latin1 (a copy; utf8 decoding cost a Bash hook 0.4M
  // instructions): esbuild escapes non-ASCII in code (charset: ascii), and this keeps it so.
  // ROZ_READABLE keeps comments, which may have some: read as latin1 they only read oddly.
  const wide = process.env.ROZ_READABLE ? null : /[^\x00-\x7f]/.exec(text);
  if (wide) throw new Error(`${file} has a non-ASCII character at ${wide.index}; the hook launcher reads it as latin1`);
  writeFileSync(file, `${text}${text.endsWith('\n') ? '' : '\n'}//# roz-sha256=${createHash('sha256').update(text).digest('hex')}\n`);
}

const chunks = await Promise.all(
  [...Object.values(onDemand), ...Object.values(storeOnDemand)].map(({ name, entry }) =>
    build({ ...hookCjs, entryPoints: [entry], outfile: join(outdir, chunkFile(name)) }),
  ),
);
for (const { name } of [...Object.values(onDemand), ...Object.values(storeOnDemand)]) stampContentHash(join(outdir, chunkFile(name)));

const onDemandFiles = {
  name: 'on-demand-files',
  setup(b) {
    b.onResolve({ filter: /^\.\/((governance|shell)\/[\w-]+|apply-patch)\.js$/ }, (args) => {
      const m = args.importer.endsWith('src/core/on-demand.ts') ? onDemand[args.path] : undefined;
      return m ? { path: `./${chunkFile(m.name)}`, external: true } : undefined;
    });
    b.onResolve({ filter: /^(\.\.\/(store|supervisor\/hooks)\/[\w-]+|\.\/reviewer-launch)\.js$/ }, (args) => {
      const m = storeOnDemand[args.path];
      return m && args.importer.endsWith(m.importer) ? { path: `./${chunkFile(m.name)}`, external: true } : undefined;
    });
  },
};

// The launcher, plugin/bin/roz, from src/launcher/roz.ts. Committed as built (a
// checkout whose dist/ is missing still has it, and it fails closed):
// test/process/launcher-build.test.ts checks the committed file is this build.
await build({ ...launcherOptions, outfile: 'plugin/bin/roz' });
chmodSync('plugin/bin/roz', 0o755);

// The renderer alone, for the launcher when hook.cjs cannot run (plugin/bin/roz cannotStart).
const render = await build({ ...hookCjs, entryPoints: ['src/engine/render-entry.ts'], outfile: join(outdir, 'render.cjs') });

const [hook, cli] = await Promise.all([
  build({
    ...hookCjs,
    entryPoints: ['src/cli/hook-entry.ts'],
    outfile: join(outdir, 'hook.cjs'),
    plugins: [onDemandFiles],
    // require() rather than import(): the bundle runs in a vm.Script, where import() has no loader.
    supported: { 'dynamic-import': false },
    define: {
      ROZ_VERSION: JSON.stringify(pkg.version),
      // The intents parse cache trusts a parse only from this exact parser (src/store/intents-cache.ts).
      ROZ_INTENTS_PARSER_ID: JSON.stringify(
        createHash('sha256')
          .update(readFileSync(join(outdir, chunkFile('intents-parser'))))
          .digest('hex')
          .slice(0, 16),
      ),
      'import.meta.url': '__rozMeta.url',
    },
    // A getter: only a hook without CLAUDE_PLUGIN_ROOT asks, so the others skip building a URL.
    banner: { js: "var __rozMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" },
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

stampContentHash(join(outdir, 'hook.cjs'));

// The point of the split: the hook bundle itself must carry none of them.
const heavy = Object.keys(Object.values(hook.metafile.outputs)[0].inputs).filter(
  (f) =>
    /node_modules\/(yaml|zod|unbash|@opentelemetry|ignore)\//.test(f) ||
    f.endsWith('otlp-export.ts') ||
    f.endsWith('apply-patch.ts') ||
    f.endsWith('reviewer-launch.ts') ||
    f.endsWith('tree-snapshot.ts') ||
    f.endsWith('object-intake.ts'),
);
if (heavy.length)
  throw new Error(`hook.cjs bundles ${heavy.length} modules meant to load on demand (e.g. ${heavy[0]}); load them through src/core/on-demand.ts`);

// Chunks of earlier builds (content-hashed names) would otherwise pile up.
const fresh = new Set([hook, cli, render, ...chunks].flatMap((r) => Object.keys(r.metafile.outputs)).map((p) => basename(p)));
for (const f of readdirSync(outdir)) if (!fresh.has(f)) rmSync(join(outdir, f), { force: true });
