// In-process measurements for `npm run bench`, bundled on the fly by
// scripts/bench.mjs: shell analysis per command over the destructive corpus,
// and the guard's classification per command over its corpus.
import { analyzeCommand } from '../../src/core/shell/commands.js';
import { classifyAnalysis, classifyDestructive } from '../../src/core/shell/destructive.js';
import { writeTargets, writeTargetsOf } from '../../src/core/shell/writes.js';
import { MUST_ASK, SAFE } from '../../test/core/guard/guard-corpus.js';
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

/**
 * The guard's whole classification of one Bash command (parse, destructive
 * rules, write targets) over its corpus (must-ask and safe). Each command's
 * cost is its median over the rounds (so a scheduler pause on a shared machine
 * is not charged to one command); the row gives the median and p99 of those
 * per-command costs, and the raw p99 of every single run for comparison.
 * Baseline: parsing alone, measured the same way.
 */
export function guardClassification(rounds: number): {
  commands: number;
  median_us: number;
  p99_us: number;
  raw_p99_us: number;
  baseline_parse_median_us: number;
  baseline_parse_p99_us: number;
} {
  const commands = [...MUST_ASK, ...SAFE].map(([c]) => c);
  const full = commands.map((): number[] => []);
  const parse = commands.map((): number[] => []);
  for (let r = 0; r < rounds; r++) {
    commands.forEach((cmd, i) => {
      let t = process.hrtime.bigint();
      analyzeCommand(cmd);
      parse[i]!.push(Number(process.hrtime.bigint() - t) / 1000);
      t = process.hrtime.bigint();
      const a = analyzeCommand(cmd);
      classifyAnalysis(a);
      writeTargetsOf(a);
      full[i]!.push(Number(process.hrtime.bigint() - t) / 1000);
    });
  }
  const perCommand = (runs: number[][]): number[] => runs.map((ts) => quantiles(ts).median);
  const q = quantiles(perCommand(full));
  const b = quantiles(perCommand(parse));
  return {
    commands: commands.length,
    median_us: q.median,
    p99_us: q.p99,
    raw_p99_us: quantiles(full.flat()).p99,
    baseline_parse_median_us: b.median,
    baseline_parse_p99_us: b.p99,
  };
}
