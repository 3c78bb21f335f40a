// The layer rule in biome.json (run by `npm test` as `npm run lint`): imports
// point one way, tui -> supervisor -> engine -> store -> core; cli may import
// anything; core touches no file system, process or OS; the launcher imports core only. One biome run over
// probe files, each importing one layer from another.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const repo = join(import.meta.dirname, '..', '..');
const order = ['core', 'store', 'engine', 'supervisor', 'tui'] as const;

it('a layer may import the layers below it, never one above; cli imports anything; core has no fs', () => {
  const dir = tempDir('roz-lint-');
  const expectBad = new Set<string>();
  const probe = (from: string, spec: string, bad: boolean) => {
    const file = `src/${from}/probe-${spec.replace(/[^a-z]/g, '-')}.ts`;
    mkdirSync(join(dir, 'src', from), { recursive: true });
    writeFileSync(join(dir, file), `import * as m from '${spec}';\nexport const z = m;\n`);
    if (bad) expectBad.add(file);
  };
  try {
    copyFileSync(join(repo, 'biome.json'), join(dir, 'biome.json'));
    order.forEach((from, i) =>
      order.forEach((to, j) => {
        if (i !== j) probe(from, `../${to}/x.js`, j > i);
      }),
    );
    for (const to of order) probe('cli', `../${to}/x.js`, false);
    for (const from of order) probe(from, '../cli/x.js', true);
    probe('core', 'node:fs', true);
    probe('core', 'node:child_process', true);
    probe('core', 'node:path', false);
    probe('store', 'node:fs', false);
    // The hook launcher (plugin/bin/roz) runs when the rest of roz cannot: core only.
    probe('launcher', '../core/x.js', false);
    for (const to of ['store', 'engine', 'supervisor', 'tui', 'cli']) probe('launcher', `../${to}/x.js`, true);

    const r = spawnSync(join(repo, 'node_modules', '.bin', 'biome'), ['lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', 'src'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const report = JSON.parse(r.stdout) as { diagnostics: Array<{ category: string; location: { path: string } }> };
    const flagged = new Set(report.diagnostics.filter((d) => d.category === 'lint/style/noRestrictedImports').map((d) => d.location.path));
    expect([...flagged].sort()).toEqual([...expectBad].sort());
    expect(r.status).not.toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
