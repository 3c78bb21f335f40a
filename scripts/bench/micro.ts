// In-process measurements for `npm run bench`, bundled on the fly by
// scripts/bench.mjs: shell analysis per command over the destructive corpus.
import { analyzeCommand } from '../../src/core/shell/commands.js';
import { classifyDestructive } from '../../src/core/shell/destructive.js';
import { writeTargets } from '../../src/core/shell/writes.js';
import { DESTRUCTIVE_CORPUS } from '../../test/core/shell/destructive-corpus.js';
import { quantiles } from './common.js';

export function shellAnalysis(rounds: number): { commands: number; median_us: number; p99_us: number; baseline_json_parse_median_us: number } {
  const commands = DESTRUCTIVE_CORPUS.map(([command]) => command);
  const times: number[] = [];
  const base: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const cmd of commands) {
      const json = JSON.stringify({ command: cmd });
      let t = process.hrtime.bigint();
      JSON.parse(json);
      base.push(Number(process.hrtime.bigint() - t) / 1000);
      t = process.hrtime.bigint();
      analyzeCommand(cmd);
      classifyDestructive(cmd);
      writeTargets(cmd);
      times.push(Number(process.hrtime.bigint() - t) / 1000);
    }
  }
  const q = quantiles(times);
  return { commands: commands.length, median_us: q.median, p99_us: q.p99, baseline_json_parse_median_us: quantiles(base).median };
}
