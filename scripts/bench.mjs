// `npm run bench`: what roz costs, each figure next to a baseline measured in
// the same run on the same machine (ratios, not absolute promises).
// `--quick` uses tiny counts so CI can run it and it cannot rot; `--hooks`
// runs only the hook-process section (a minute), for work on the hook path;
// `--sandbox` only the Bash sandbox's cost with the real clients (two minutes);
// `--instructions` counts the instructions each hook process runs (valgrind's
// callgrind, deterministic: the figure to compare builds by on a noisy machine).
// `--calls` measures what one Bash tool call costs in each mode (standalone,
// roz exec, roz run) and pinned client, all costs together, in one run: the
// hook processes, the http hooks, the sandbox and the real clients (scripts/bench/tool-call.ts).
// `--fleet` only the fleet rows (issue 25): the supervisor's queue with 1 and 8 agents
// (scripts/bench/fleet.ts), and keypress-to-screen latency of the built `roz run` in a
// pty while 1 or 8 agents stream output (scripts/bench/fleet-keys.ts; needs `npm run build`), and
// with 8 agents beside 10 busy processes (issue 31 part 6: p99 <= 50 ms, RSS <= 40 MiB an agent).
// `--fleet-load` only that loaded row.
// In-process sections live in scripts/bench/*.ts, bundled on the fly and run
// one process per section (scripts/bench/entry.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esmBundleOptions } from './esbuild-shared.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const hooksOnly = process.argv.includes('--hooks');
const sandboxOnly = process.argv.includes('--sandbox');
const instructionsOnly = process.argv.includes('--instructions');
const callsOnly = process.argv.includes('--calls');
const fleetOnly = process.argv.includes('--fleet');
const fleetLoadOnly = process.argv.includes('--fleet-load');
const RUNS = quick ? 3 : 30;
const N = quick
  ? {
      sandboxCalls: 1,
      sandboxRounds: 1,
      sandboxClients: '2.1.330',
      toolCalls: 1,
      toolCallRounds: 1,
      shell: 1,
      supervised: 200,
      http: 100,
      globs: 100,
      paths: 1_000,
      writers: 16,
      lines: 20,
      ledgerRounds: 1,
      sessions: 1_000,
      statsRuns: 3,
      tuiWindow: 300,
      tuiRates: [1_000, 10_000],
      tuiSmall: 1_000,
      tuiLarge: 10_000,
      // The quick run only keeps the rows from rotting (npm test runs it): a fleet of
      // two, not eight, one busy process, not ten, 16 ledger writers, not 64 (each is
      // a node process: 64 cost 6 CPU-s a round); every row still measured
      // (20 keys: fewer leave a CPU share of zero ticks; 12 did in a full suite run).
      fleetAgents: 2,
      fleetAsks: 10,
      fleetKeys: 20,
      fleetBusy: 1,
    }
  : {
      sandboxCalls: 8,
      sandboxRounds: 3,
      sandboxClients: '2.1.197,2.1.330',
      toolCalls: 6,
      toolCallRounds: 3,
      shell: 20,
      supervised: 2_000,
      http: 1_000,
      globs: 1_000,
      paths: 10_000,
      writers: 64,
      lines: 500,
      ledgerRounds: 2,
      sessions: 100_000,
      statsRuns: 3,
      tuiWindow: 1_500,
      tuiRates: [1_000, 10_000, 30_000, 100_000, 300_000],
      tuiSmall: 10_000,
      tuiLarge: 1_000_000,
      fleetAgents: 8,
      fleetAsks: 200,
      fleetKeys: 200,
      fleetBusy: 10,
    };
const hasTime = existsSync('/usr/bin/time');
const hooks = JSON.parse(readFileSync(join(root, 'plugin/hooks/hooks.json'), 'utf8')).hooks;
const store = mkdtempSync(join(tmpdir(), 'roz-bench-'));
const env = { ...process.env, HOME: store, ROZ_STORAGE_PATH: join(store, 'store'), CLAUDE_PLUGIN_ROOT: join(root, 'plugin') };
delete env.ROZ_SOCKET;
delete env.NODE_ENV;
delete env.ROZ_TOKEN;
// The baseline is a clean node: NODE_EXTRA_CA_CERTS makes every node process
// parse a CA bundle at startup (38 ms on the VM this was tuned on, twice
// what roz's hook does) and NODE_OPTIONS may load anything, so either would
// inflate "bare node" and flatter every ratio. What NODE_EXTRA_CA_CERTS costs
// a user who has it set is measured apart (the rows marked "CA bundle set").
const userCaBundle = process.env.NODE_EXTRA_CA_CERTS || (existsSync('/etc/ssl/certs/ca-certificates.crt') ? '/etc/ssl/certs/ca-certificates.crt' : null);
delete env.NODE_EXTRA_CA_CERTS;
delete env.NODE_OPTIONS;
// Each line says what the section before it took, in wall time and in the machine's busy CPU
// (/proc/stat, Linux; other processes count too): where a bench run's time goes.
const machineBusySeconds = () => {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return Number.NaN;
  }
};
let lastLog = { at: performance.now(), busy: machineBusySeconds() };
const log = (s) => {
  const now = { at: performance.now(), busy: machineBusySeconds() };
  process.stderr.write(`bench: ${s} (the section before: ${((now.at - lastLog.at) / 1000).toFixed(1)} s, ${(now.busy - lastLog.busy).toFixed(1)} CPU-s)\n`);
  lastLog = now;
};
const line = (cells, w = 42) =>
  cells
    .map((c, i) => String(c).padEnd(i === 0 ? w : 13))
    .join('')
    .trimEnd();
const machine = { cpus: cpus().length, model: cpus()[0]?.model, node: process.version };
const save = (name, result, lines) => {
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  writeFileSync(join(root, 'bench-results', `${name}.json`), JSON.stringify(result, null, 2) + '\n');
  writeFileSync(join(root, 'bench-results', `${name}.txt`), lines.join('\n') + '\n');
};

// ---- the in-process sections, bundled once (inside the checkout so packages resolve)
const outdir = join(root, 'node_modules', '.cache', 'roz-bench');
rmSync(outdir, { recursive: true, force: true });
// The same settings as the plugin's CLI bundle: React's production build, as shipped.
await build({ ...esmBundleOptions, entryPoints: { entry: join(root, 'scripts/bench/entry.ts') }, outdir, logLevel: 'warning' });
const entry = join(outdir, 'entry.mjs');
/** Run one section in its own process; its last stdout line is the JSON result. */
function section(name, args = [], nodeArgs = []) {
  log(name);
  const r = spawnSync(process.execPath, [...nodeArgs, entry, name, ...args.map(String)], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`bench section ${name} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

/** Wall ms and peak RSS KiB of one process (peak RSS via /usr/bin/time when present). */
function measure(argv, input, procEnv = env) {
  const cmd = hasTime ? ['/usr/bin/time', '-f', '%M', ...argv] : argv;
  const t0 = process.hrtime.bigint();
  // detached: a session of its own, as the client starts hooks (src/engine/hook-origin.ts).
  const r = spawnSync(cmd[0], cmd.slice(1), { input, env: procEnv, encoding: 'utf8', maxBuffer: 64 << 20, detached: true });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
  const rss = hasTime ? Number(r.stderr.trim().split('\n').at(-1)) : NaN;
  return { wall, rss, stdout: r.stdout, stderr: r.stderr };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The sandbox rows of the table (section 'sandbox'). */
const sandboxRows = (rows) =>
  rows.map(
    (s) =>
      `sandboxed Bash, client ${s.client}: ${s.added_ms_per_bash_call >= 0 ? '+' : ''}${s.added_ms_per_bash_call} ms per call, ${s.added_ms_per_session_startup >= 0 ? '+' : ''}${s.added_ms_per_session_startup} ms per run (plain run with 1 call: ${s.plain_one_call_run_median_ms} ms; median of ${s.rounds} rounds, ${s.calls_per_run} extra calls)`,
  );
/** The fleet rows (section 'fleet'): the supervisor with one agent and with N, each N-agent figure beside the 1-agent one. */
const fleetRows = (f) => {
  const { one, many: n, ratios_many_over_one: r } = f;
  const rowOf = (name, a, b, ratio) => line([name, a, b, ratio === null ? '' : `${ratio}x`], 44);
  return [
    line([`fleet supervisor (socket hooks, ${n.requests / n.agents} asks per agent)`, `${n.agents} agents`, '1 agent', 'ratio'], 44),
    rowOf('  requests/s through the queue (ask→answer)', n.requests_per_second, one.requests_per_second, r.requests_per_second),
    rowOf('  ask→answer median ms', n.ask_to_answer_median_ms, one.ask_to_answer_median_ms, r.ask_to_answer_median_ms),
    rowOf('  ask→answer p99 ms', n.ask_to_answer_p99_ms, one.ask_to_answer_p99_ms, null),
    rowOf('  supervisor CPU ms per request', n.supervisor_cpu_ms_per_request, one.supervisor_cpu_ms_per_request, r.supervisor_cpu_ms_per_request),
    rowOf('  supervisor CPU, % of one core', n.supervisor_cpu_percent_of_one_core, one.supervisor_cpu_percent_of_one_core, null),
    rowOf('  supervisor RSS MiB, idle', n.supervisor_rss_idle_mib, one.supervisor_rss_idle_mib, r.supervisor_rss_idle_mib),
    rowOf('  supervisor RSS MiB after the load', n.supervisor_rss_mib, one.supervisor_rss_mib, r.supervisor_rss_mib),
    rowOf('  RSS MiB per agent over node, idle', n.supervisor_rss_per_agent_idle_mib, one.supervisor_rss_per_agent_idle_mib, null),
    rowOf('  RSS MiB per agent over node, after load', n.supervisor_rss_per_agent_mib, one.supervisor_rss_per_agent_mib, r.supervisor_rss_per_agent_mib),
    rowOf('  hook side CPU ms per request (relays)', n.hook_side_cpu_ms_per_request, one.hook_side_cpu_ms_per_request, null),
    `  baseline: the same process before the Supervisor started, RSS ${one.baseline_rss_before_supervisor_mib} MiB; frames that fell back (supervisor too slow to answer: the client's own dialog then asks) ${one.failed_frames} / ${n.failed_frames}; load average ${one.load_average_before_after.join('→')} (1 agent), ${n.load_average_before_after.join('→')} (${n.agents})`,
  ];
};
/** The keypress rows (section 'fleet-keys'): `roz run` in a pty with 1 and with N streaming agents, the supervisor in the window and attached, and the agents in ptys without roz. */
const fleetKeysRows = (k) => {
  const { bare, bare_many: bareMany } = k;
  const rowOf = (name, a, b, ratio) => line([name, a, b, ratio === null || ratio === undefined ? '' : `${ratio}x`], 50);
  const block = (title, f) => {
    const { one, many: n, ratios_many_over_one: r } = f;
    const separate = !n.supervisor_pid_is_tui;
    return [
      line([title, `${n.agents} agents`, '1 agent', 'ratio'], 50),
      rowOf('  latency p50 ms (key written → echo painted)', n.latency_median_ms, one.latency_median_ms, r.latency_median_ms),
      rowOf('  latency p99 ms', n.latency_p99_ms, one.latency_p99_ms, r.latency_p99_ms),
      rowOf('  latency max ms', n.latency_max_ms, one.latency_max_ms, null),
      rowOf('  keys never echoed (5 s)', n.lost, one.lost, null),
      rowOf(
        `  ${separate ? 'supervisor (owns the ptys)' : 'roz run (supervisor + TUI)'} CPU % of one core`,
        n.supervisor_cpu_percent_of_one_core,
        one.supervisor_cpu_percent_of_one_core,
        r.supervisor_cpu_percent_of_one_core,
      ),
      rowOf('    per agent', n.supervisor_cpu_percent_per_agent, one.supervisor_cpu_percent_per_agent, null),
      rowOf(`  ${separate ? 'supervisor' : 'roz run'} RSS MiB (after the keys)`, n.supervisor_rss_mib, one.supervisor_rss_mib, r.supervisor_rss_mib),
      ...(separate
        ? [
            rowOf('  TUI (attached screen) CPU % of one core', n.tui_cpu_percent_of_one_core, one.tui_cpu_percent_of_one_core, null),
            rowOf('  TUI (attached screen) RSS MiB', n.tui_rss_mib, one.tui_rss_mib, null),
          ]
        : []),
      `  RSS MiB per agent past the first: ${f.supervisor_rss_mib_per_added_agent}; roz painted ${n.tui_output_kib_per_second} / ${one.tui_output_kib_per_second} KiB/s; agents' own CPU ${n.agents_cpu_percent_of_one_core}% / ${one.agents_cpu_percent_of_one_core}%; load average ${n.load_average_before_after.join('→')} (${n.agents}), ${one.load_average_before_after.join('→')} (1)`,
    ];
  };
  return [
    `keypress to screen: the built roz run in a pty, every agent streaming, ${k.in_window.many.keys} keys typed one at a time`,
    ...block('roz run, supervisor in the window', k.in_window),
    ...(k.attached ? block('roz run, supervisor in background, TUI attached', k.attached) : [`  attached TUI: not measured (${k.attached_unavailable})`]),
    line(['no roz: the same agents in ptys', `${bareMany.agents} agents`, '1 agent'], 50),
    rowOf('  latency p50 ms', bareMany.latency_median_ms, bare.latency_median_ms, null),
    rowOf('  latency p99 ms', bareMany.latency_p99_ms, bare.latency_p99_ms, null),
    `  every agent streams ${k.in_window.many.stream_bytes_per_tick} B of coloured lines per ${k.in_window.many.stream_pause_ms.join('-')} ms in a scroll region, one synchronized update each, the one in view too; the baseline types into one of the same agents in a pty of the bench's own, the others streaming beside it`,
  ];
};
/** The loaded rows (section 'fleet-keys-loaded', issue 31 part 6): N streaming agents under background load, against the same agents without roz under the same load. */
const fleetLoadedRows = (k) => {
  const rowOf = (name, a, b, target) => line([name, a, b, target], 50);
  const { roz, bare } = k;
  return [
    `keypress to screen: ${roz.agents} agents streaming beside ${k.busy} busy processes`,
    line(['', 'roz run', 'no roz', 'target'], 50),
    rowOf('  latency p50 ms', roz.latency_median_ms, bare.latency_median_ms, ''),
    rowOf('  latency p99 ms', roz.latency_p99_ms, bare.latency_p99_ms, `<= ${k.targets.latency_p99_ms} ${k.meets.latency_p99_ms ? 'met' : 'NOT MET'}`),
    rowOf('  latency max ms', roz.latency_max_ms, bare.latency_max_ms, ''),
    rowOf('  keys never echoed (5 s)', roz.lost, bare.lost, ''),
    rowOf(
      `  ${k.attached ? 'supervisor' : 'roz run (supervisor + TUI)'} RSS MiB per agent`,
      k.supervisor_rss_mib_per_agent,
      '',
      `<= ${k.targets.supervisor_rss_mib_per_agent} ${k.meets.supervisor_rss_mib_per_agent ? 'met' : 'NOT MET'}`,
    ),
    ...(k.attached ? [rowOf('  TUI (attached) CPU % / RSS MiB', `${roz.tui_cpu_percent_of_one_core} / ${roz.tui_rss_mib}`, '', '')] : []),
    `  supervisor CPU ${roz.supervisor_cpu_percent_of_one_core}% of one core; load average ${roz.load_average_before_after.join('→')} on ${machine.cpus} cores`,
  ];
};
if (fleetLoadOnly) {
  const loaded = section('fleet-keys-loaded', [N.fleetAgents, N.fleetKeys, root, N.fleetBusy, quick ? 'niced' : 'full']);
  const lines = fleetLoadedRows(loaded);
  console.log(lines.join('\n'));
  save(quick ? 'fleet-load-quick' : 'fleet-load', { when: new Date().toISOString(), machine, quick, fleet_keys_loaded: loaded }, lines);
  rmSync(store, { recursive: true, force: true });
  process.exit(0);
}
if (fleetOnly) {
  const fleet = section('fleet', [N.fleetAgents, N.fleetAsks, quick ? 'no-warm-up' : 'warm-up']);
  const fleetKeys = section('fleet-keys', [N.fleetAgents, N.fleetKeys, root]);
  const loaded = section('fleet-keys-loaded', [N.fleetAgents, N.fleetKeys, root, N.fleetBusy, quick ? 'niced' : 'full']);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const lines = [...fleetRows(fleet), ...fleetKeysRows(fleetKeys), ...fleetLoadedRows(loaded), `load average at the end: ${load}`];
  console.log(lines.join('\n'));
  save(
    quick ? 'fleet-quick' : 'fleet',
    { when: new Date().toISOString(), machine, quick, load_average: load, fleet, fleet_keys: fleetKeys, fleet_keys_loaded: loaded },
    lines,
  );
  rmSync(store, { recursive: true, force: true });
  process.exit(0);
}
if (sandboxOnly) {
  const rows = section('sandbox', [N.sandboxCalls, N.sandboxRounds, N.sandboxClients]);
  const lines = sandboxRows(rows);
  console.log(lines.join('\n'));
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  writeFileSync(join(root, 'bench-results', 'sandbox.json'), JSON.stringify({ when: new Date().toISOString(), quick, sandbox: rows }, null, 2) + '\n');
  rmSync(store, { recursive: true, force: true });
  process.exit(0);
}

// ---- 1. hook processes, plain and supervised, against bare node
// A real supervisor in its own process (this one blocks in spawnSync).
const supProc = spawn(process.execPath, [entry, 'supervisor-server'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
const supEnv = await new Promise((resolve, reject) => {
  let buf = '';
  supProc.stdout.on('data', (d) => {
    buf += d;
    if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n')[0]));
  });
  supProc.on('exit', (code) => reject(new Error(`supervisor exited early (${code})`)));
});
const supervisedEnv = { ...env, ...supEnv };

const base = { session_id: 'bench-1', cwd: root, transcript_path: '/dev/null', permission_mode: 'default' };
const hookCmd = (event) => ['/bin/sh', '-c', hooks[event][0].hooks[0].command];
const preToolUse = JSON.stringify({
  ...base,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_use_id: 't',
  tool_input: { command: 'npm test -- --run && git diff --stat' },
});
const SUPERVISED = 'roz hook pre-tool-use, ROZ_SOCKET set';
// A governed project (the issue's "repository with intents"): an in-scope Write
// by a session that has selected its intent, so every governance gate runs.
const governed = join(store, 'governed');
mkdirSync(join(governed, '.orchestration'), { recursive: true });
mkdirSync(join(governed, 'src'), { recursive: true });
writeFileSync(
  join(governed, '.orchestration', 'active_intents.yaml'),
  'active_intents:\n  - id: INT-001\n    name: Bench\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n    constraints: ["keep it small"]\n    acceptance_criteria: ["npm test passes"]\n',
);
{
  const r = spawnSync(process.execPath, [join(root, 'bin', 'roz'), 'intent', 'select', 'INT-001', '--session', 'bench-gov'], {
    cwd: governed,
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`roz intent select failed: ${r.stderr}`);
}
// A project with history: the ledger already holds many records, and each
// PostToolUse of a Write appends one and brings intent_map.md up to date.
const LEDGER_RECORDS = quick ? 1_000 : 10_000;
{
  const rec = (i) =>
    JSON.stringify({
      version: '0.1.0',
      id: randomUUID(),
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      tool: { name: 'roz', version: '0.1.0' },
      files: [{ path: `src/m${i % 200}.ts`, conversations: [{ contributor: { type: 'ai' }, ranges: [{ start_line: 1, end_line: 3 }] }] }],
      metadata: {
        'dev.roz': {
          session_id: `s${i % 50}`,
          intent_id: 'INT-001',
          mutation_class: 'INTENT_EVOLUTION',
          tool_name: 'Write',
          symbols: { [`src/m${i % 200}.ts`]: [`f${i % 7}`] },
        },
      },
    });
  writeFileSync(join(governed, '.orchestration', 'agent_trace.jsonl'), Array.from({ length: LEDGER_RECORDS }, (_, i) => rec(i)).join('\n') + '\n');
  writeFileSync(join(governed, 'src', 'a.ts'), 'export const a = 1;\n');
}
const governedPost = JSON.stringify({
  session_id: 'bench-gov',
  cwd: governed,
  transcript_path: '/dev/null',
  permission_mode: 'default',
  hook_event_name: 'PostToolUse',
  tool_name: 'Write',
  tool_use_id: 't',
  tool_input: { file_path: join(governed, 'src', 'a.ts'), content: 'export const a = 1;\n' },
  tool_response: { type: 'create' },
});
const POST_GOVERNED = `roz hook post-tool-use (Write, ${LEDGER_RECORDS / 1000}k ledger)`;
const governedWrite = JSON.stringify({
  session_id: 'bench-gov',
  cwd: governed,
  transcript_path: '/dev/null',
  permission_mode: 'default',
  // A file the session has not read or written: a held one adds the stale-file hash (node:crypto, ~6 ms).
  hook_event_name: 'PreToolUse',
  tool_name: 'Write',
  tool_use_id: 't',
  tool_input: { file_path: join(governed, 'src', 'b.ts'), content: 'export const b = 1;\n' },
});
const stopInput = JSON.stringify({ ...base, hook_event_name: 'Stop', stop_hook_active: false });
/** The first hook of each benched session: it writes the V8 code cache, as in a real session. */
const sessionStarts = ['bench-1', 'bench-gov'].map((sid) =>
  JSON.stringify({
    session_id: sid,
    cwd: sid === 'bench-gov' ? governed : root,
    transcript_path: '/dev/null',
    permission_mode: 'default',
    hook_event_name: 'SessionStart',
    source: 'startup',
  }),
);
const cases = {
  'node -e ""': { argv: [process.execPath, '-e', ''], input: '' },
  'roz hook pre-tool-use (Bash)': { argv: hookCmd('PreToolUse'), input: preToolUse },
  [SUPERVISED]: { argv: hookCmd('PreToolUse'), input: preToolUse, env: supervisedEnv },
  'roz hook pre-tool-use (Write, governed)': { argv: hookCmd('PreToolUse'), input: governedWrite },
  [POST_GOVERNED]: { argv: hookCmd('PostToolUse'), input: governedPost },
  'roz hook stop': { argv: hookCmd('Stop'), input: stopInput },
  'sh -c node -e "" (hooks.json shell)': { argv: ['/bin/sh', '-c', `"${process.execPath}" -e ""`], input: '' },
};
const CA_NODE = 'node -e "" (CA bundle set)';
const CA_HOOK = 'roz hook pre-tool-use (Bash, CA bundle set)';
if (userCaBundle) {
  const caEnv = { ...env, NODE_EXTRA_CA_CERTS: userCaBundle };
  cases[CA_NODE] = { argv: [process.execPath, '-e', ''], input: '', env: caEnv };
  cases[CA_HOOK] = { argv: hookCmd('PreToolUse'), input: preToolUse, env: caEnv };
}
{
  // Measure the path that allows, not a denial.
  const m = measure(cases['roz hook pre-tool-use (Write, governed)'].argv, governedWrite);
  if (/"(deny|ask)"/.test(m.stdout)) throw new Error(`the governed in-scope Write was not allowed: ${m.stdout}`);
}
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, { wall: [], rss: [] }]));
let supervisedFallbacks = 0;
const runCase = (name, c) => {
  const m = measure(c.argv, c.input, c.env);
  if (name === SUPERVISED && /roz: supervisor/.test(m.stderr)) supervisedFallbacks += 1;
  return m;
};
// ---- instructions per hook process (callgrind): deterministic, unlike wall
// time on a shared VM. V8 seeds its hashes and random numbers per process,
// which moves counts by a few percent; fixed seeds make a run repeatable to
// within thousands of instructions. Kernel time (syscalls, page faults) is
// not counted: this is the CPU work roz adds, the wall table above the rest.
if (instructionsOnly) {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    console.log('bench --instructions: valgrind is not installed (apt-get install valgrind); nothing measured');
    process.exit(0);
  }
  supProc.kill();
  const seeded = ['--random-seed=1', '--hash-seed=1'];
  const flags =
    hooks.PreToolUse[0].hooks[0].command
      .match(/\bnode ((?:--[\w-]+ )*)"/)?.[1]
      .trim()
      .split(' ') ?? [];
  const hookArgv = (event) => [process.execPath, ...seeded, ...flags, join(root, 'plugin', 'bin', 'roz'), 'hook', event];
  const instructions = (argv, input) => {
    // Through /bin/sh in a session of its own, as the client starts hooks (engine/hook-origin.ts).
    const script = ['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null', ...argv]
      .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a}'`))
      .join(' ');
    const r = spawnSync('/bin/sh', ['-c', script], { input, env, encoding: 'utf8', maxBuffer: 64 << 20, detached: true });
    const n = [...r.stderr.matchAll(/Collected : (\d+)/g)].at(-1)?.[1];
    if (r.status !== 0 || !n || /refused|failed open/.test(r.stdout)) throw new Error(`callgrind run failed: ${r.stdout}\n${r.stderr.slice(-2000)}`);
    return Number(n);
  };
  const run = (argv, input) => spawnSync(argv[0], argv.slice(1), { input, env, encoding: 'utf8', detached: true });
  const readInput = JSON.stringify({
    ...base,
    hook_event_name: 'PreToolUse',
    tool_name: 'Read',
    tool_use_id: 't',
    tool_input: { file_path: join(root, 'README.md') },
  });
  const rows = [
    ['node -e ""', [process.execPath, ...seeded, '-e', ''], ''],
    ['roz hook pre-tool-use (Bash)', hookArgv('pre-tool-use'), preToolUse],
    ['roz hook pre-tool-use (Read)', hookArgv('pre-tool-use'), readInput],
    ['roz hook stop', hookArgv('stop'), stopInput],
    ['roz hook pre-tool-use (Write, governed)', hookArgv('pre-tool-use'), governedWrite],
    [POST_GOVERNED, hookArgv('post-tool-use'), governedPost],
  ];
  log('instructions (callgrind), after a session-start warm-up');
  // As a session runs: SessionStart writes the code cache, each kind of hook then adds what it runs.
  for (const input of sessionStarts) run(hookArgv('session-start'), input);
  for (let i = 0; i < 2; i++) for (const [, argv, input] of rows.slice(1)) run(argv, input);
  const counted = rows.map(([name, argv, input]) => ({ name, instructions: Math.min(instructions(argv, input), instructions(argv, input)) }));
  const bare = counted[0].instructions;
  const table = counted.map((r) => ({ ...r, ratio: +(r.instructions / bare).toFixed(3), added: r.instructions - bare }));
  const lines = [
    `roz bench --instructions — node ${process.version}, callgrind, V8 seeds fixed`,
    '',
    line(['process', 'instructions', 'x node', 'added'], 46),
    ...table.map((r) => line([r.name, `${(r.instructions / 1e6).toFixed(2)}M`, r.ratio, r.added ? `+${(r.added / 1e6).toFixed(2)}M` : ''], 46)),
    '  x node: against node -e "" started the same way (no NODE_EXTRA_CA_CERTS or NODE_OPTIONS)',
  ];
  console.log(lines.join('\n'));
  save('instructions', { when: new Date().toISOString(), machine, node: process.version, rows: table }, lines);
  rmSync(store, { recursive: true, force: true });
  process.exit(0);
}

log('hook processes');
// Warm-up as a session starts: the first hook of a session is SessionStart,
// and it writes the V8 code cache; each other kind of hook then adds what it
// runs (plugin/bin/roz). Twice over, so those rewrites are done before the
// measured rounds (page cache too). Then interleave so drift hits all alike.
for (const input of sessionStarts) measure(hookCmd('SessionStart'), input);
for (let i = 0; i < 2; i++) for (const [name, c] of Object.entries(cases)) runCase(name, c);
supervisedFallbacks = 0;
for (let i = 0; i < RUNS; i++) {
  for (const [name, c] of Object.entries(cases)) {
    const m = runCase(name, c);
    samples[name].wall.push(m.wall);
    samples[name].rss.push(m.rss);
  }
}
supProc.stdin.end();
const supSeen = await new Promise((resolve) => {
  let err = '';
  supProc.stderr.on('data', (d) => (err += d));
  supProc.on('exit', () => resolve(JSON.parse(err.trim().split('\n').at(-1) || '{"events":-1}').events));
});
const baseRss = median(samples['node -e ""'].rss);
// This VM's speed changes over seconds to minutes (bare node 75-130 ms): each
// round's processes ran back to back, so a round's own ratio cancels the
// drift; the median of those is the figure to read, and p25-p75 its spread.
const roundRatios = (s) => s.wall.map((w, i) => w / samples['node -e ""'].wall[i]).sort((a, b) => a - b);
const quantile = (xs, q) => xs[Math.round(q * (xs.length - 1))];
const processRows = Object.entries(samples).map(([name, s]) => ({
  name,
  wall_ms: +median(s.wall).toFixed(1),
  wall_ratio: +median(roundRatios(s)).toFixed(2),
  wall_ratio_p25: +quantile(roundRatios(s), 0.25).toFixed(2),
  wall_ratio_p75: +quantile(roundRatios(s), 0.75).toFixed(2),
  peak_rss_kib: hasTime ? median(s.rss) : null,
  rss_ratio: hasTime ? +(median(s.rss) / baseRss).toFixed(2) : null,
}));
const supervisedProcess = {
  added_ms_vs_unsupervised_hook: +(median(samples[SUPERVISED].wall) - median(samples['roz hook pre-tool-use (Bash)'].wall)).toFixed(1),
  ratio_vs_unsupervised_hook: +median(samples[SUPERVISED].wall.map((w, i) => w / samples['roz hook pre-tool-use (Bash)'].wall[i])).toFixed(2),
  events_seen_by_supervisor: supSeen,
  fallbacks: supervisedFallbacks,
};

const processTable = () => [
  `roz bench ${quick ? '(quick) ' : ''}— ${machine.cpus} × ${machine.model}, node ${machine.node}, ${RUNS} interleaved runs`,
  '',
  line(['process', 'wall ms', 'x node', '(p25-p75)', 'peak KiB', 'x node'], 46),
  ...processRows.map((r) => line([r.name, r.wall_ms, r.wall_ratio, `${r.wall_ratio_p25}-${r.wall_ratio_p75}`, r.peak_rss_kib ?? '-', r.rss_ratio ?? '-'], 46)),
  `  x node: the median of each round's own ratio (a round runs every process once, back to back), against a node`,
  `  started without NODE_EXTRA_CA_CERTS or NODE_OPTIONS${userCaBundle ? `; "CA bundle set": NODE_EXTRA_CA_CERTS=${userCaBundle}, which hooks.json keeps from the hook` : ''}`,
  `  supervised hook process: +${supervisedProcess.added_ms_vs_unsupervised_hook} ms (${supervisedProcess.ratio_vs_unsupervised_hook}x the unsupervised hook), supervisor saw ${supervisedProcess.events_seen_by_supervisor} events, ${supervisedProcess.fallbacks} fallbacks`,
];
/** What a Bash call costs per mode and client (section 'tool-call'), with the sandbox's share from section 'sandbox' of the same run. */
const toolCallRows = (calls, sandboxRows, hookRows) => {
  const sandboxFor = Object.fromEntries(sandboxRows.map((s) => [s.client, s.added_ms_per_bash_call]));
  const plus = (x) => `${x >= 0 ? '+' : ''}${x}`;
  const hookMs = (name) => hookRows.find((r) => r.name === name)?.wall_ms;
  const nodeMs = hookMs('node -e ""');
  const out = [
    'what a Bash tool call costs: ms added per call over claude alone (the slope of runs with 1 and 1+N calls; each call fires PreToolUse and PostToolUse)',
    line(['mode', 'client', 'added/call', 'sandbox', 'the rest', 'hooks travel as'], 14),
  ];
  const how = {
    standalone: 'a process per hook',
    exec: { '2.1.197': 'a process per hook', '2.1.330': 'http, in roz exec' },
    run: { '2.1.197': 'a process per hook, relayed', '2.1.330': 'http, in the supervisor' },
  };
  for (const c of calls)
    for (const [mode, m] of Object.entries(c.modes)) {
      const sandbox = mode === 'standalone' ? 0 : (sandboxFor[c.client] ?? NaN);
      out.push(
        line(
          [
            mode === 'exec' ? 'roz exec' : mode === 'run' ? 'roz run*' : mode,
            c.client,
            plus(m.added_ms_per_bash_call),
            mode === 'standalone' ? '-' : plus(sandbox),
            plus(+(m.added_ms_per_bash_call - sandbox).toFixed(1)),
            typeof how[mode] === 'string' ? how[mode] : how[mode][c.client],
          ],
          14,
        ),
      );
    }
  out.push(
    `  claude alone: ${calls.map((c) => `${c.client} ${c.bare_ms_per_bash_call} ms per call`).join(', ')}; median of ${calls[0]?.rounds} rounds of ${calls[0]?.calls_per_run} extra calls`,
    "  sandbox: the client's Bash sandbox alone (roz's settings, no plugin), measured the same way; the rest: roz's hooks and launcher",
    `  * roz run without its screen (RunService with a supervisor, the child on plain stdio); a hook process alone: ${hookMs('roz hook pre-tool-use (Bash)')} ms (bare node ${nodeMs} ms)`,
  );
  return out;
};

if (callsOnly) {
  const http = section('http', [N.http, root]);
  const sandbox = section('sandbox', [N.sandboxCalls, N.sandboxRounds, N.sandboxClients]);
  const calls = section('tool-call', [N.toolCalls, N.toolCallRounds, N.sandboxClients]);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const lines = [
    ...processTable(),
    '',
    ...toolCallRows(calls, sandbox, processRows),
    '',
    `http hook POST + roz's engine in-process: ${http.post_with_inprocess_engine_median_ms} ms (supervisor ${http.supervisor_post_median_ms} ms; bare loopback POST ${http.post_new_connection_median_ms} ms)`,
    ...sandboxRows(sandbox),
    `load average at the end: ${load}`,
  ];
  console.log(lines.join('\n'));
  save(
    quick ? 'calls-quick' : 'calls',
    { when: new Date().toISOString(), machine, quick, load, hook_process: processRows, http_hook: http, sandbox, tool_call: calls },
    lines,
  );
  rmSync(store, { recursive: true, force: true });
  process.exit(0);
}

if (hooksOnly) {
  const lines = processTable();
  console.log(lines.join('\n'));
  save('hooks', { when: new Date().toISOString(), machine, quick, hook_process: processRows, supervised_hook_process: supervisedProcess }, lines);
  rmSync(store, { recursive: true, force: true });
  process.exit(supervisedProcess.fallbacks !== 0 ? 1 : 0);
}

// ---- 64 concurrent hook processes on one session: throughput and lost lines.
async function concurrent(n) {
  const sid = `bench-conc-${Date.now()}`;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        new Promise((res, rej) => {
          const [cmd, ...args] = hookCmd('PreToolUse');
          const child = spawn(cmd, args, { env, stdio: ['pipe', 'ignore', 'ignore'], detached: true });
          child.on('close', res).on('error', rej);
          child.stdin.end(JSON.stringify({ ...base, session_id: sid, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: `/f${i}` } }));
        }),
    ),
  );
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const lines = readFileSync(join(env.ROZ_STORAGE_PATH, 'sessions', sid, 'trace.jsonl'), 'utf8')
    .trim()
    .split('\n').length;
  return { writers: n, seconds: +secs.toFixed(2), events_per_second: +(n / secs).toFixed(1), lost_lines: n - lines };
}
log('concurrent hooks');
const conc = await concurrent(quick ? 16 : 64);

// ---- in-process sections
const shell = section('shell', [N.shell]);
const guard = section('guard', [N.shell]);
const supervised = section('supervised', [N.supervised]);
const fleet = section('fleet', [N.fleetAgents, N.fleetAsks, quick ? 'no-warm-up' : 'warm-up']);
const fleetKeys = section('fleet-keys', [N.fleetAgents, N.fleetKeys, root]);
const fleetKeysLoaded = section('fleet-keys-loaded', [N.fleetAgents, N.fleetKeys, root, N.fleetBusy, quick ? 'niced' : 'full']);
const http = section('http', [N.http, root]);
const scope = section('scope', [N.globs, N.paths]);
const reviewSnapshot = section('review-snapshot', [quick ? 5 : 20, root]);

// ---- Agent Trace ledger: 64 writer processes (16 in the quick run) appending at once, every line checked.
async function ledgerRound(mode, writers, count) {
  const file = join(store, `ledger-${mode}-${Date.now()}`, '.orchestration', 'agent_trace.jsonl');
  mkdirSync(join(file, '..'), { recursive: true });
  const kids = Array.from({ length: writers }, (_, w) =>
    spawn(process.execPath, [entry, 'ledger-writer', file, mode, String(w), String(count)], { env, stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const outs = kids.map(() => '');
  const ready = kids.map((k, i) => new Promise((res) => k.stdout.on('data', (d) => ((outs[i] += d), outs[i].startsWith('ready\n') && res()))));
  const done = kids.map((k) => new Promise((res, rej) => k.on('close', (code) => (code === 0 ? res() : rej(new Error(`ledger writer exited ${code}`))))));
  await Promise.all(ready);
  for (const k of kids) k.stdin.end('go\n');
  await Promise.all(done);
  const spans = outs.map((o) => JSON.parse(o.trim().split('\n').at(-1)));
  const secs = (Math.max(...spans.map((s) => s.end)) - Math.min(...spans.map((s) => s.start))) / 1000;
  const check = section('ledger-check', [file, writers, count]);
  return { lines_per_second: Math.round((writers * count) / secs), seconds: +secs.toFixed(3), ...check };
}
log('ledger');
const ledgerRuns = { plain: [], ledger: [] };
for (let r = 0; r < N.ledgerRounds; r++) {
  for (const mode of r % 2 ? ['ledger', 'plain'] : ['plain', 'ledger']) ledgerRuns[mode].push(await ledgerRound(mode, N.writers, N.lines));
}
const best = (runs) => runs.reduce((a, b) => (b.lines_per_second > a.lines_per_second ? b : a));
const sumLost = (runs) => runs.reduce((n, r) => n + r.lost_lines + r.torn_lines + r.duplicates, 0);
const ledger = {
  writers: N.writers,
  lines_per_writer: N.lines,
  rounds: N.ledgerRounds,
  roz_append_ledger_lines_per_second: best(ledgerRuns.ledger).lines_per_second,
  baseline_append_file_sync_lines_per_second: best(ledgerRuns.plain).lines_per_second,
  ratio_baseline_over_roz: +(best(ledgerRuns.plain).lines_per_second / best(ledgerRuns.ledger).lines_per_second).toFixed(2),
  lost_lines: ledgerRuns.ledger.reduce((n, r) => n + r.lost_lines, 0),
  torn_lines: ledgerRuns.ledger.reduce((n, r) => n + r.torn_lines, 0),
  duplicates: ledgerRuns.ledger.reduce((n, r) => n + r.duplicates, 0),
  baseline_lost_or_torn: sumLost(ledgerRuns.plain),
};

// ---- `roz stats` over a generated store, against a bare node process reading the same state files.
log(`stats: generating ${N.sessions} sessions`);
const statsRoot = join(store, 'stats-store');
const gen = section('gen-store', [statsRoot, N.sessions]);
const statsEnv = { ...env, ROZ_STORAGE_PATH: statsRoot };
const readerScript =
  "const fs=require('fs'),p=require('path');const d=p.join(process.argv[1],'sessions');let b=0,n=0;for(const id of fs.readdirSync(d)){b+=fs.readFileSync(p.join(d,id,'state.json')).length;n++}process.stdout.write(JSON.stringify({files:n,bytes:b}))";
const statsCases = {
  roz: [join(root, 'bin/roz'), 'stats', '--json'],
  baseline: [process.execPath, '-e', readerScript, statsRoot],
};
// The generated index holds every summary change of every session (~5 lines a
// reviewed session), as hooks leave it; the first `roz stats` reads all of it
// and compacts it to a line a session, which the timed runs below then read.
const statsFirst = measure([process.execPath, ...statsCases.roz], '', statsEnv);
const statsSamples = { roz: { wall: [], rss: [] }, baseline: { wall: [], rss: [] } };
let statsSessions = -1;
let readerFiles = -1;
for (let i = 0; i < N.statsRuns; i++) {
  for (const k of i % 2 ? ['roz', 'baseline'] : ['baseline', 'roz']) {
    const argv = k === 'roz' ? [process.execPath, ...statsCases.roz] : statsCases.baseline;
    const m = measure(argv, '', statsEnv);
    statsSamples[k].wall.push(m.wall);
    statsSamples[k].rss.push(m.rss);
    if (k === 'roz') statsSessions = JSON.parse(m.stdout).sessions;
    else readerFiles = JSON.parse(m.stdout).files;
  }
}
const stats = {
  sessions: N.sessions,
  store_bytes: gen.bytes,
  generate_seconds: +gen.seconds.toFixed(1),
  roz_stats_ms: Math.round(median(statsSamples.roz.wall)),
  roz_stats_first_uncompacted_ms: Math.round(statsFirst.wall),
  index_lines_generated: gen.index_lines,
  roz_stats_peak_rss_kib: hasTime ? median(statsSamples.roz.rss) : null,
  baseline_read_files_ms: Math.round(median(statsSamples.baseline.wall)),
  baseline_peak_rss_kib: hasTime ? median(statsSamples.baseline.rss) : null,
  ratio_roz_over_baseline: +(median(statsSamples.roz.wall) / median(statsSamples.baseline.wall)).toFixed(2),
  roz_sessions_counted: statsSessions,
  baseline_files_read: readerFiles,
};
rmSync(statsRoot, { recursive: true, force: true });

// ---- Claude Code's Bash sandbox (what roz exec/run turn on), per Bash call, apart from hook cost.
const sandbox = section('sandbox', [N.sandboxCalls, N.sandboxRounds, N.sandboxClients]);
// ---- What a Bash call costs per mode and client, all costs together (the real clients).
const toolCall = section('tool-call', [N.toolCalls, N.toolCallRounds, N.sandboxClients]);

// ---- TUI: sustained event rates, then memory after many events.
const tuiRates = section('tui-rates', [N.tuiWindow, N.tuiRates.join(',')]);
const tuiMemory = section('tui-memory', [N.tuiSmall, N.tuiLarge], ['--expose-gc']);
// Baseline: the same events with no view mounted.
const tuiMemoryNoView = section('tui-memory', [N.tuiSmall, N.tuiLarge, 'no-view'], ['--expose-gc']);

const result = {
  when: new Date().toISOString(),
  machine,
  quick,
  hook_process: processRows,
  supervised_hook_process: supervisedProcess,
  concurrent_hooks: conc,
  shell_analysis: shell,
  guard_classification: guard,
  supervised_channel: supervised,
  fleet,
  fleet_keys: fleetKeys,
  fleet_keys_loaded: fleetKeysLoaded,
  http_hook: http,
  scope,
  review_snapshot: reviewSnapshot,
  ledger,
  stats,
  sandbox,
  tool_call: toolCall,
  tui: { rates: tuiRates, memory: tuiMemory, memory_no_view: tuiMemoryNoView },
};

// ---- the table
const out = processTable();
out.push('', line(['measurement', 'roz', 'baseline', 'ratio', 'baseline is'], 44));
const signed = (x) => `${x >= 0 ? '+' : ''}${x} ms`;
const row = (name, roz, baseVal, ratio, what) => out.push(line([name, roz, baseVal, ratio, what], 44));
row(
  'supervised round trip, median ms',
  supervised.supervised_median_ms,
  supervised.baseline_bare_socket_median_ms,
  signed(supervised.added_median_ms),
  'bare Unix socket, same bytes',
);
row(
  'supervised round trip, p99 ms',
  supervised.supervised_p99_ms,
  supervised.baseline_bare_socket_p99_ms,
  signed(supervised.added_p99_ms),
  'bare Unix socket, same bytes',
);
row(
  'http hook POST (loopback, new conn), ms',
  http.post_new_connection_median_ms,
  processRows[1].wall_ms,
  `${(processRows[1].wall_ms / http.post_new_connection_median_ms).toFixed(0)}x faster`,
  'hook process (pre-tool-use)',
);
row(
  'http hook POST + in-process engine, ms',
  http.post_with_inprocess_engine_median_ms,
  processRows[1].wall_ms,
  `${(processRows[1].wall_ms / http.post_with_inprocess_engine_median_ms).toFixed(0)}x faster`,
  'hook process (pre-tool-use)',
);
row(
  'http hook to roz run supervisor, median ms',
  http.supervisor_post_median_ms,
  processRows[1].wall_ms,
  `${(processRows[1].wall_ms / http.supervisor_post_median_ms).toFixed(0)}x faster`,
  'hook process (pre-tool-use)',
);
row(
  '  roz adds over a bare loopback POST, ms',
  http.supervisor_adds_median_ms,
  http.post_new_connection_median_ms,
  `p99 ${http.supervisor_post_p99_ms}`,
  'POST, fixed verdict, same bytes',
);
row(
  '  supervisor killed: the POST gets',
  http.dead_supervisor_post,
  `${http.dead_supervisor_detected_ms} ms`,
  'client blocks the call',
  'onFailure: "block" (2.1.295+)',
);
row(
  `scope checks/s (${scope.globs} globs x ${scope.paths} paths)`,
  scope.roz_checks_per_second,
  scope.baseline_prefix_set_checks_per_second,
  `${scope.ratio_baseline_over_roz}x slower`,
  'Set lookup of parent dirs',
);
row('  scope checks/s with 10 globs', scope.roz_checks_per_second_10_globs, '', '', '');
row(
  `ledger lines/s (${ledger.writers} procs x ${ledger.lines_per_writer})`,
  ledger.roz_append_ledger_lines_per_second,
  ledger.baseline_append_file_sync_lines_per_second,
  `${ledger.ratio_baseline_over_roz}x slower`,
  'fs.appendFileSync, same lines',
);
row('  lost / torn / duplicate ledger lines', `${ledger.lost_lines}/${ledger.torn_lines}/${ledger.duplicates}`, ledger.baseline_lost_or_torn, '', '');
row(
  `roz stats, ${stats.sessions} sessions, ms`,
  stats.roz_stats_ms,
  stats.baseline_read_files_ms,
  `${stats.ratio_roz_over_baseline}x`,
  'node reading each state.json',
);
row(
  `  first run, ${stats.index_lines_generated} index lines (compacts)`,
  stats.roz_stats_first_uncompacted_ms,
  stats.baseline_read_files_ms,
  `${+(stats.roz_stats_first_uncompacted_ms / stats.baseline_read_files_ms).toFixed(2)}x`,
  'node reading each state.json',
);
row(
  `review worktree snapshot (${reviewSnapshot.tracked_files} files), ms`,
  reviewSnapshot.snapshot_median_ms,
  reviewSnapshot.baseline_git_status_median_ms,
  `${reviewSnapshot.ratio_snapshot_over_status}x`,
  'git status --porcelain, same tree',
);
row(
  'guard classification per command, median µs',
  guard.median_us.toFixed(1),
  guard.baseline_parse_median_us.toFixed(1),
  `p99 ${guard.p99_us.toFixed(0)} µs (parse ${guard.baseline_parse_p99_us.toFixed(0)}; every run ${guard.raw_p99_us.toFixed(0)})`,
  'parsing alone (unbash + walk)',
);
row(
  'shell analysis per command, median µs',
  shell.median_us.toFixed(1),
  shell.baseline_json_parse_median_us.toFixed(2),
  `p99 ${shell.p99_us.toFixed(0)} µs`,
  'JSON.parse of the input',
);
row(
  'TUI max sustained events/s',
  tuiRates.max_sustained_events_per_second,
  tuiRates.baseline_event_path_no_view_events_per_second,
  '',
  'event path, no view mounted',
);
for (const r of tuiRates.rates)
  out.push(
    `  ${String(r.target_events_per_second).padStart(7)} ev/s target: fed ${r.achieved_events_per_second}, ${r.frames_per_second} frames/s, notify→frame ${r.notify_to_frame_median_ms} ms (Ink ${r.ink_render_median_ms} ms), screen lag ${r.screen_lag_ms} ms, loop delay p99 ${r.event_loop_delay_p99_ms} ms${r.kept_up ? '' : '  (fell behind)'}`,
  );
row(
  `TUI heap MiB after ${tuiMemory.after_large.events} events`,
  tuiMemory.after_large.heap_mib,
  tuiMemory.after_small.heap_mib,
  `${tuiMemory.heap_growth_ratio}x`,
  `after ${tuiMemory.after_small.events} events`,
);
row(
  `TUI RSS MiB after ${tuiMemory.after_large.events} events`,
  tuiMemory.after_large.rss_mib,
  tuiMemory.after_small.rss_mib,
  `${tuiMemory.rss_growth_ratio}x`,
  `after ${tuiMemory.after_small.events} events`,
);
row(
  '  heap MiB, no view mounted',
  tuiMemoryNoView.after_large.heap_mib,
  tuiMemoryNoView.after_small.heap_mib,
  `${tuiMemoryNoView.heap_growth_ratio}x`,
  `after ${tuiMemory.after_small.events} events`,
);
out.push('', ...fleetRows(fleet), ...fleetKeysRows(fleetKeys), ...fleetLoadedRows(fleetKeysLoaded));
out.push(...sandboxRows(sandbox));
out.push('', ...toolCallRows(toolCall, sandbox, processRows));
out.push(
  '',
  `${conc.writers} concurrent hook processes on one session: ${conc.seconds}s, ${conc.events_per_second} events/s, lost trace lines: ${conc.lost_lines}`,
);
console.log(out.join('\n'));

save(quick ? 'quick' : 'latest', result, out);
rmSync(store, { recursive: true, force: true });
if (conc.lost_lines !== 0 || ledger.lost_lines + ledger.torn_lines + ledger.duplicates !== 0 || supervisedProcess.fallbacks !== 0) process.exitCode = 1;
