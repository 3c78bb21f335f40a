// `npm run bench`: what roz costs, each figure next to a baseline measured in
// the same run on the same machine (ratios, not absolute promises).
// `--quick` uses tiny counts so CI can run it and it cannot rot.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const RUNS = quick ? 5 : 25;
const hasTime = existsSync('/usr/bin/time');
const hooks = JSON.parse(readFileSync(join(root, 'plugin/hooks/hooks.json'), 'utf8')).hooks;
const store = mkdtempSync(join(tmpdir(), 'roz-bench-'));
const env = { ...process.env, HOME: store, ROZ_STORAGE_PATH: join(store, 'store'), CLAUDE_PLUGIN_ROOT: join(root, 'plugin') };

/** Wall ms and peak RSS KiB of one process (peak RSS via /usr/bin/time when present). */
function measure(argv, input) {
  const cmd = hasTime ? ['/usr/bin/time', '-f', '%M', ...argv] : argv;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd[0], cmd.slice(1), { input, env, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
  const rss = hasTime ? Number(r.stderr.trim().split('\n').at(-1)) : NaN;
  return { wall, rss };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const base = { session_id: 'bench-1', cwd: root, transcript_path: '/dev/null', permission_mode: 'default' };
const hookCmd = (event) => ['/bin/sh', '-c', hooks[event][0].hooks[0].command];
const cases = {
  'node -e ""': { argv: [process.execPath, '-e', ''], input: '' },
  'roz hook pre-tool-use (Bash)': {
    argv: hookCmd('PreToolUse'),
    input: JSON.stringify({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: { command: 'npm test -- --run && git diff --stat' } }),
  },
  'roz hook stop': { argv: hookCmd('Stop'), input: JSON.stringify({ ...base, hook_event_name: 'Stop', stop_hook_active: false }) },
  'sh -c node -e "" (hooks.json shell)': { argv: ['/bin/sh', '-c', `"${process.execPath}" -e ""`], input: '' },
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, { wall: [], rss: [] }]));
// Warm-up (compile cache, page cache), then interleave so drift hits all alike.
for (const c of Object.values(cases)) measure(c.argv, c.input);
for (let i = 0; i < RUNS; i++) {
  for (const [name, c] of Object.entries(cases)) {
    const m = measure(c.argv, c.input);
    samples[name].wall.push(m.wall);
    samples[name].rss.push(m.rss);
  }
}
const baseWall = median(samples['node -e ""'].wall);
const baseRss = median(samples['node -e ""'].rss);
const processRows = Object.entries(samples).map(([name, s]) => ({
  name,
  wall_ms: +median(s.wall).toFixed(1),
  wall_ratio: +(median(s.wall) / baseWall).toFixed(2),
  peak_rss_kib: hasTime ? median(s.rss) : null,
  rss_ratio: hasTime ? +(median(s.rss) / baseRss).toFixed(2) : null,
}));

// 64 concurrent hook processes on one session: throughput and lost lines.
async function concurrent(n) {
  const sid = `bench-conc-${Date.now()}`;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: n }, (_, i) => new Promise((res, rej) => {
      const [cmd, ...args] = hookCmd('PreToolUse');
      const child = spawn(cmd, args, { env, stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('close', res).on('error', rej);
      child.stdin.end(JSON.stringify({ ...base, session_id: sid, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: `/f${i}` } }));
    })),
  );
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const lines = readFileSync(join(env.ROZ_STORAGE_PATH, 'sessions', sid, 'trace.jsonl'), 'utf8').trim().split('\n').length;
  return { writers: n, seconds: +secs.toFixed(2), events_per_second: +(n / secs).toFixed(1), lost_lines: n - lines };
}
const conc = await concurrent(quick ? 16 : 64);

// In-process shell analysis, bundled from TypeScript on the fly.
const outfile = join(store, 'micro.mjs');
await build({ entryPoints: [join(root, 'scripts/bench/micro.ts')], outfile, bundle: true, format: 'esm', platform: 'node', logLevel: 'warning' });
const micro = await import(pathToFileURL(outfile).href);
const shell = micro.shellAnalysis(quick ? 1 : 20);

const result = {
  when: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
  quick,
  hook_process: processRows,
  concurrent_hooks: conc,
  shell_analysis: shell,
};
const line = (cells) => cells.map((c, i) => String(c).padEnd(i === 0 ? 38 : 12)).join('');
console.log(`roz bench ${quick ? '(quick) ' : ''}— ${result.machine.cpus} × ${result.machine.model}, node ${result.machine.node}, ${RUNS} interleaved runs\n`);
console.log(line(['process', 'wall ms', 'x node', 'peak KiB', 'x node']));
for (const r of processRows) console.log(line([r.name, r.wall_ms, r.wall_ratio, r.peak_rss_kib ?? '-', r.rss_ratio ?? '-']));
console.log(`\n${conc.writers} concurrent hook processes on one session: ${conc.seconds}s, ${conc.events_per_second} events/s, lost trace lines: ${conc.lost_lines}`);
console.log(`shell analysis (parse + destructive + write targets), ${shell.commands} corpus commands: median ${shell.median_us.toFixed(1)} µs, p99 ${shell.p99_us.toFixed(1)} µs (JSON.parse of the same input: ${shell.baseline_json_parse_median_us.toFixed(2)} µs)`);
mkdirSync(join(root, 'bench-results'), { recursive: true });
writeFileSync(join(root, 'bench-results', quick ? 'quick.json' : 'latest.json'), JSON.stringify(result, null, 2) + '\n');
if (conc.lost_lines !== 0) process.exitCode = 1;
