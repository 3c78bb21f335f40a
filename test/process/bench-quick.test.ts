// The benchmark runs in CI in quick mode so it cannot rot: it must finish,
// lose no trace line, and report every figure against its baseline.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot, runProcess } from '../helpers/hooks.js';

it('npm run bench --quick completes and reports ratios against node', async () => {
  const r = await runProcess(process.execPath, [join(repoRoot, 'scripts/bench.mjs'), '--quick'], '', process.env, repoRoot);
  expect(r.code, r.stderr).toBe(0);
  const result = JSON.parse(readFileSync(join(repoRoot, 'bench-results/quick.json'), 'utf8'));
  const names = result.hook_process.map((row: { name: string }) => row.name);
  expect(names).toEqual(expect.arrayContaining(['node -e ""', 'roz hook pre-tool-use (Bash)', 'roz hook stop']));
  for (const row of result.hook_process) expect(row.wall_ratio).toBeGreaterThan(0);
  expect(result.concurrent_hooks.lost_lines).toBe(0);
  expect(result.shell_analysis.commands).toBeGreaterThanOrEqual(150);
}, 180_000);
