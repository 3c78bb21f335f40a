// `npm run demo`: `roz run claude` with the pinned real Claude Code client
// against the scripted model of the end-to-end tests, offline. The demo is
// TypeScript (scripts/demo/main.ts, sharing test/e2e/harness/fake-api.ts with
// the tests), bundled here on the fly with esbuild. With --fleet: a fleet of
// agents in one roz run (scripts/demo/fleet-main.ts); with --fleet --mixed, a
// Codex CLI agent among them (scripts/demo/mixed-scenario.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'roz-demo-bundle-'));
const outfile = join(out, 'demo.mjs');
let code = 1;
try {
  await build({
    entryPoints: [join(root, 'scripts/demo/main.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  const { main, fleetMain } = await import(pathToFileURL(outfile).href);
  // `npm run demo -- --fleet`: several agents in one roz run (scripts/demo/fleet-main.ts).
  code = process.argv.includes('--fleet') ? await fleetMain(root, { mixed: process.argv.includes('--mixed') }) : await main(root);
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.exit(code);
