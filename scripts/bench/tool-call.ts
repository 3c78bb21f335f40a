// What a tool call costs the user, all of it, per mode and client (issue 23):
// the real client in print mode on the scripted model of the e2e tests runs N
// trivial Bash calls (`true`), as
//   bare        claude alone (no plugin, no sandbox): the baseline
//   standalone  claude --plugin-dir <roz>: command hooks, no sandbox (advisory)
//   exec        roz exec --plugin-dir <roz> -- claude: roz's sandbox; hooks over
//               http in roz exec's own process on 2.1.295+, a process per hook before
//   run         roz run's supervisor without its screen (RunService with a
//               supervisor, the child on plain stdio): the sandbox; http to the
//               supervisor on 2.1.295+, hook processes relayed to it before
// Each round runs 1 and 1+N calls in every mode, interleaved, so a per-run cost
// (startup, SessionStart, the sandbox's proxy) is told from the per-call one:
// added per call = ((M[1+N] - M[1]) - (B[1+N] - B[1])) / N, median over rounds.
// Each Bash call fires PreToolUse and PostToolUse.
import { spawn } from 'node:child_process';
import { startFakeApi } from '../../test/e2e/harness/fake-api.js';
import { clientEnv } from '../../test/e2e/harness/run-print.js';
import { CLIENTS, createWorkspace, ROZ_BIN, ROZ_PLUGIN_DIR, type ClientVersion } from '../../test/e2e/harness/workspace.js';
import { nowMs, round } from './common.js';
import { bashCalls } from './sandbox.js';

export const MODES = ['bare', 'standalone', 'exec', 'run'] as const;
export type Mode = (typeof MODES)[number];

async function once(client: ClientVersion, mode: Mode, calls: number): Promise<number> {
  const ws = createWorkspace();
  try {
    const api = await startFakeApi({ main: bashCalls(calls) });
    const claude = ['-p', 'go', '--output-format', 'json', '--dangerously-skip-permissions'];
    const bin = CLIENTS[client];
    const [file, argv] =
      mode === 'bare'
        ? [bin, claude]
        : mode === 'standalone'
          ? [bin, [...claude, '--plugin-dir', ROZ_PLUGIN_DIR]]
          : mode === 'exec'
            ? [process.execPath, [ROZ_BIN, 'exec', '--plugin-dir', ROZ_PLUGIN_DIR, '--', bin, ...claude]]
            : [process.execPath, [process.argv[1]!, 'run-driver', ROZ_PLUGIN_DIR, bin, ...claude]];
    const env = clientEnv(ws, api);
    const t0 = nowMs();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(file, argv, { cwd: ws.repo, env, stdio: ['ignore', 'ignore', 'ignore'] });
      child.on('close', resolve);
    });
    const wall = nowMs() - t0;
    await api.close();
    const ran = api.requests.filter((r) => r.toolResults.some((t) => t.toolName === 'Bash' && !t.isError)).length;
    if (code !== 0 || ran !== calls) throw new Error(`client ${client} (${mode}) exited ${code} after ${ran}/${calls} Bash calls`);
    return wall;
  } finally {
    ws.cleanup();
  }
}

/** `roz run` without its screen: RunService with a supervisor, the child on this process's stdio. */
export async function runDriver(pluginDir: string, command: string, args: string[]): Promise<number> {
  const { RunService } = await import('../../src/supervisor/host/run-service.js');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const run = await RunService.start({ command, args, cwd: process.cwd(), env, pluginDir, supervisor: { approvalTimeoutMs: 30_000 } });
  return (await run.finish()).code;
}

const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function toolCallCost(calls: number, rounds: number, clients: ClientVersion[]) {
  const out = [];
  for (const client of clients) {
    const perCall: Record<Mode, number[]> = { bare: [], standalone: [], exec: [], run: [] };
    const oneCall: Record<Mode, number[]> = { bare: [], standalone: [], exec: [], run: [] };
    for (let r = 0; r < rounds; r++) {
      const t: Record<string, number> = {};
      const order = MODES.flatMap((m) => [1, 1 + calls].map((n) => [m, n] as const));
      for (const [m, n] of r % 2 ? order.reverse() : order) t[`${m}-${n}`] = await once(client, m, n);
      for (const m of MODES) {
        perCall[m].push((t[`${m}-${1 + calls}`]! - t[`${m}-1`]!) / calls);
        oneCall[m].push(t[`${m}-1`]!);
      }
    }
    const bare = med(perCall.bare);
    out.push({
      client,
      calls_per_run: calls,
      rounds,
      bare_ms_per_bash_call: round(bare, 1),
      modes: Object.fromEntries(
        MODES.filter((m) => m !== 'bare').map((m) => [
          m,
          {
            // The median of each round's own difference: drift between rounds cancels.
            added_ms_per_bash_call: round(med(perCall[m].map((x, i) => x - perCall.bare[i]!)), 1),
            ms_per_bash_call: round(med(perCall[m]), 1),
            one_call_run_ms: round(med(oneCall[m]), 0),
          },
        ]),
      ),
      bare_one_call_run_ms: round(med(oneCall.bare), 0),
    });
  }
  return out;
}

export const runDriverArgs = (argv: string[]): { pluginDir: string; command: string; args: string[] } => ({
  pluginDir: argv[0]!,
  command: argv[1]!,
  args: argv.slice(2),
});
