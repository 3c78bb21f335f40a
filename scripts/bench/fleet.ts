// A fleet in one supervisor (issue 25, part 6), with 1 and with N agents in
// the same run: the real Supervisor in a process of its own (so its CPU and
// RSS are its own), agents added with `addAgent` (a token each), and each
// agent's hook traffic over the real Unix socket as its hook processes send
// it (relayToSupervisor): per turn a UserPromptSubmit, then PreToolUse asks
// that wait for the human, each followed by a PostToolUse. The human answers
// every queued request with `answer()` as soon as it is there (a 1 ms poll of
// `queue()`, oldest first, across agents), so requests/s is what the queue
// carries, not how fast a person types. A client blocks on its hook, so each
// agent has one request out at a time.
//
// Supervisor CPU: its process.cpuUsage() over the load, less the same
// process idle for as long (the poll and timers), per request and per agent.
// RSS (after a full GC): before the Supervisor started (node plus the
// bundle: the baseline), with the agents added and idle, and after the load.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Verdict } from '../../src/core/verdict.js';
import { relayToSupervisor } from '../../src/supervisor/hooks/channel-client.js';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { nowMs, quantiles, round, sandboxEnv } from './common.js';

const ASK: Verdict = { kind: 'ask', code: 'DESTRUCTIVE_BLOCKED', reason: 'bench: rm -rf deletes files' };
const NONE: Verdict = { kind: 'none' };
const MiB = 1024 * 1024;

interface ServerReport {
  rss_before_start_mib: number;
  rss_idle_with_agents_mib: number;
  rss_after_load_mib: number;
  cpu_load_ms: number;
  cpu_idle_ms: number;
  load_wall_ms: number;
  answered: number;
  events: number;
}

/** The supervisor process: `fleet-server N`. Prints each agent's env, answers every request, reports on `report`. */
/** RSS after a full collection (the server runs with --expose-gc), so two figures compare live memory, not garbage. */
const settledRss = (): number => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};

export async function fleetServer(agents: number): Promise<void> {
  const rssBefore = settledRss();
  const { env, home } = sandboxEnv();
  const sup = await Supervisor.start({ env, approvalTimeoutMs: 60_000, log: () => {} });
  const envs = [{ ...env, ...sup.childEnv() }];
  for (let i = 1; i < agents; i++) envs.push({ ...env, ...sup.addAgent(`agent-${i + 1}`).env });
  const rssIdle = settledRss();
  let answered = 0;
  const poll = setInterval(() => {
    for (const r of sup.queue()) if (sup.answer(r.id, { action: 'approve-once' })) answered += 1;
  }, 1);
  process.stdout.write(`${JSON.stringify(envs)}\n`);
  let cpu0 = process.cpuUsage();
  let t0 = nowMs();
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === 'start') {
      cpu0 = process.cpuUsage();
      t0 = nowMs();
      answered = 0;
      process.stdout.write('started\n');
    } else if (line === 'report') {
      const c = process.cpuUsage(cpu0);
      const wall = nowMs() - t0;
      const rss = settledRss();
      // The same process idle for as long: the poll, the timers, nothing else.
      const idle0 = process.cpuUsage();
      await new Promise((r) => setTimeout(r, wall));
      const idle = process.cpuUsage(idle0);
      const report: ServerReport = {
        rss_before_start_mib: round(rssBefore / MiB, 1),
        rss_idle_with_agents_mib: round(rssIdle / MiB, 1),
        rss_after_load_mib: round(rss / MiB, 1),
        cpu_load_ms: round((c.user + c.system) / 1000, 1),
        cpu_idle_ms: round((idle.user + idle.system) / 1000, 1),
        load_wall_ms: round(wall, 1),
        answered,
        events: sup.events.total,
      };
      process.stdout.write(`${JSON.stringify(report)}\n`);
      break;
    }
  }
  clearInterval(poll);
  await sup.close();
  rmSync(home, { recursive: true, force: true });
  process.exit(0);
}

const loadAverage = (): number => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

const payload = (sid: string, event: string, extra: Record<string, unknown>): string =>
  JSON.stringify({ session_id: sid, cwd: '/tmp', transcript_path: '/dev/null', permission_mode: 'default', hook_event_name: event, ...extra });

/** One agent's hook traffic for `asks` requests: a prompt every 5 tool calls, each ask then its PostToolUse. Returns the frames that failed (fell back, or an ask not answered). */
async function agentTraffic(env: Record<string, string>, sid: string, asks: number, waits: number[], why: Map<string, number>): Promise<number> {
  let failed = 0;
  const fail = (reason: string) => {
    failed += 1;
    // The reason without the ids and numbers that make each line unique.
    const key = reason
      .replace(/^roz: /, '')
      .replace(/;.*$/s, '')
      .trim();
    why.set(key, (why.get(key) ?? 0) + 1);
  };
  const send = async (event: string, raw: string, verdict: Verdict) => {
    const r = await relayToSupervisor({ event, raw, stderr: '', verdict, env, deadline: Date.now() + 60_000 });
    if (r.outcome === 'fallback') fail(`${event}: ${r.stderr}`);
    return r;
  };
  for (let i = 0; i < asks; i++) {
    if (i % 5 === 0) await send('UserPromptSubmit', payload(sid, 'UserPromptSubmit', { prompt: `turn ${i / 5}` }), NONE);
    const input = { tool_name: 'Bash', tool_use_id: `toolu_${sid}_${i}`, tool_input: { command: `rm -rf build-${i}` } };
    const t = nowMs();
    const r = await send('PreToolUse', payload(sid, 'PreToolUse', input), ASK);
    waits.push(nowMs() - t);
    if (r.outcome === 'notified') fail('PreToolUse: an ask acknowledged, not answered');
    await send('PostToolUse', payload(sid, 'PostToolUse', { ...input, tool_response: { stdout: '' } }), NONE);
  }
  return failed;
}

async function fleetRun(agents: number, asksPerAgent: number, entry: string) {
  const child = spawn(process.execPath, ['--expose-gc', entry, 'fleet-server', String(agents)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const out = createInterface({ input: child.stdout! });
  const next = (() => {
    const it = out[Symbol.asyncIterator]();
    return async (): Promise<string> => {
      const r = await it.next();
      if (r.done) throw new Error('fleet-server ended early');
      return r.value;
    };
  })();
  const envs = JSON.parse(await next()) as Array<Record<string, string>>;
  child.stdin!.write('start\n');
  if ((await next()) !== 'started') throw new Error('fleet-server did not start the load');
  const waits: number[] = [];
  const why = new Map<string, number>();
  const load0 = loadAverage();
  const gen0 = process.cpuUsage();
  const t0 = nowMs();
  const failed = (await Promise.all(envs.map((env, i) => agentTraffic(env, `bench-agent-${i + 1}`, asksPerAgent, waits, why)))).reduce((a, b) => a + b, 0);
  const wall = nowMs() - t0;
  const gen = process.cpuUsage(gen0);
  const load1 = loadAverage();
  child.stdin!.write('report\n');
  const rep = JSON.parse(await next()) as ServerReport;
  child.stdin!.end();
  await new Promise((r) => child.once('exit', r));
  const requests = agents * asksPerAgent;
  const cpuNet = Math.max(0, rep.cpu_load_ms - rep.cpu_idle_ms);
  const w = quantiles(waits);
  return {
    agents,
    requests,
    answered: rep.answered,
    hook_events: rep.events,
    failed_frames: failed,
    failed_why: Object.fromEntries(why),
    wall_ms: round(wall, 1),
    requests_per_second: round(requests / (wall / 1000), 1),
    ask_to_answer_median_ms: round(w.median, 2),
    ask_to_answer_p99_ms: round(w.p99, 2),
    supervisor_cpu_ms: rep.cpu_load_ms,
    supervisor_cpu_idle_same_time_ms: rep.cpu_idle_ms,
    supervisor_cpu_ms_per_request: round(cpuNet / requests, 3),
    supervisor_cpu_percent_of_one_core: round((cpuNet / wall) * 100, 1),
    supervisor_rss_mib: rep.rss_after_load_mib,
    supervisor_rss_idle_mib: rep.rss_idle_with_agents_mib,
    baseline_rss_before_supervisor_mib: rep.rss_before_start_mib,
    // What the supervisor holds over node, per agent: idle (agents added, no traffic) and after the load (events in the ring, decided requests).
    supervisor_rss_per_agent_idle_mib: round((rep.rss_idle_with_agents_mib - rep.rss_before_start_mib) / agents, 2),
    supervisor_rss_per_agent_mib: round((rep.rss_after_load_mib - rep.rss_before_start_mib) / agents, 2),
    // The hook side (every agent's relays, in this process), and how busy the machine was: on 2 shared cores the wall figures follow the load.
    hook_side_cpu_ms_per_request: round((gen.user + gen.system) / 1000 / requests, 3),
    load_average_before_after: [load0, load1],
  };
}

/** 1 agent, then `many`, each with the same requests per agent; `entry` is this bundle (for the server process). */
export async function fleetBench(many: number, asksPerAgent: number, entry: string, warmUp = true) {
  // A short warm-up run: the first process pays for disk caches.
  if (warmUp) await fleetRun(1, Math.min(20, asksPerAgent), entry);
  const one = await fleetRun(1, asksPerAgent, entry);
  const n = await fleetRun(many, asksPerAgent, entry);
  const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : null);
  return {
    one,
    many: n,
    ratios_many_over_one: {
      requests_per_second: ratio(n.requests_per_second, one.requests_per_second),
      ask_to_answer_median_ms: ratio(n.ask_to_answer_median_ms, one.ask_to_answer_median_ms),
      supervisor_cpu_ms_per_request: ratio(n.supervisor_cpu_ms_per_request, one.supervisor_cpu_ms_per_request),
      supervisor_rss_mib: ratio(n.supervisor_rss_mib, one.supervisor_rss_mib),
      supervisor_rss_per_agent_mib: ratio(n.supervisor_rss_per_agent_mib, one.supervisor_rss_per_agent_mib),
      supervisor_rss_idle_mib: ratio(n.supervisor_rss_idle_mib, one.supervisor_rss_idle_mib),
    },
  };
}
