// What Claude Code's Bash sandbox costs per call: the real client in print
// mode on the scripted model of the e2e tests runs N trivial Bash calls
// (`true`), once plain and once with roz's enforced settings (sandbox on),
// interleaved round by round. No roz plugin, so hook cost is not in it (the
// hook rows measure that). Each round runs 1 and 1+N calls both ways, so a
// per-run cost (the sandbox's proxy and setup) is told from the per-call one:
// per call = ((S[1+N] - S[1]) - (P[1+N] - P[1])) / N; startup = S[1] - P[1] - per call.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { enforcedSettings } from '../../src/core/enforce/settings.js';
import { bash, on, reply, say, startFakeApi, type Step } from '../../test/e2e/harness/fake-api.js';
import { clientEnv } from '../../test/e2e/harness/run-print.js';
import { CLIENTS, createWorkspace, type ClientVersion } from '../../test/e2e/harness/workspace.js';
import { nowMs, round } from './common.js';

/** A scripted model that makes `calls` Bash calls of `true`, one after the other, then says done. */
export function bashCalls(calls: number): Step[] {
  return [
    ...Array.from(
      { length: calls },
      (_, i): Step => ({ name: `b${i}`, when: i === 0 ? on.start() : on.toolResult('Bash'), reply: reply(undefined, bash('true')) }),
    ),
    { name: 'done', reply: say('done') },
  ];
}

async function once(client: ClientVersion, calls: number, sandboxed: boolean): Promise<number> {
  const ws = createWorkspace();
  try {
    const api = await startFakeApi({ main: bashCalls(calls) });
    const args = ['-p', 'go', '--output-format', 'json', '--dangerously-skip-permissions'];
    if (sandboxed) {
      const file = join(ws.root, 'run', 'settings.json');
      mkdirSync(join(ws.root, 'run'));
      const paths = { store: ws.storage, codeCache: null, configFiles: [], orchestration: null, settingsFile: file, claudeUserDir: join(ws.home, '.claude') };
      writeFileSync(file, JSON.stringify(enforcedSettings(paths, { network: 'user', secretEnv: [] })));
      args.push('--settings', file);
    }
    const env = clientEnv(ws, api);
    const t0 = nowMs();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(CLIENTS[client], args, { cwd: ws.repo, env, stdio: ['ignore', 'ignore', 'ignore'] });
      child.on('close', resolve);
    });
    const wall = nowMs() - t0;
    await api.close();
    const ran = api.requests.filter((r) => r.toolResults.some((t) => t.toolName === 'Bash' && !t.isError)).length;
    if (code !== 0 || ran !== calls) throw new Error(`client ${client} (${sandboxed ? 'sandboxed' : 'plain'}) exited ${code} after ${ran}/${calls} Bash calls`);
    return wall;
  } finally {
    ws.cleanup();
  }
}

const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function sandboxCost(calls: number, rounds: number, clients: ClientVersion[]) {
  const out = [];
  for (const client of clients) {
    const perCall: number[] = [];
    const startup: number[] = [];
    const plainShort: number[] = [];
    const sandboxedShort: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t: Record<string, number> = {};
      const order: Array<[boolean, number]> = [
        [false, 1],
        [true, 1],
        [false, 1 + calls],
        [true, 1 + calls],
      ];
      for (const [s, n] of r % 2 ? order.reverse() : order) t[`${s}-${n}`] = await once(client, n, s);
      const pc = (t[`true-${1 + calls}`]! - t['true-1']! - (t[`false-${1 + calls}`]! - t['false-1']!)) / calls;
      perCall.push(pc);
      startup.push(t['true-1']! - t['false-1']! - pc);
      plainShort.push(t['false-1']!);
      sandboxedShort.push(t['true-1']!);
    }
    out.push({
      client,
      calls_per_run: calls,
      rounds,
      plain_one_call_run_median_ms: round(med(plainShort), 0),
      sandboxed_one_call_run_median_ms: round(med(sandboxedShort), 0),
      added_ms_per_bash_call: round(med(perCall), 1),
      added_ms_per_session_startup: round(med(startup), 0),
    });
  }
  return out;
}
