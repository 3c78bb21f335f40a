// In-process measurements for `npm run bench`, bundled on the fly by
// scripts/bench.mjs: shell analysis per command over the destructive corpus.
import { analyzeCommand } from '../../src/core/shell/commands.js';
import { classifyDestructive } from '../../src/core/shell/destructive.js';
import { writeTargets } from '../../src/core/shell/writes.js';
import { DESTRUCTIVE_CORPUS } from '../../test/core/shell/destructive-corpus.js';

function quantiles(xs: number[]): { median: number; p99: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]! };
}

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
