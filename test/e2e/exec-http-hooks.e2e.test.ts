// `roz exec` serves its client's hooks in its own process (issue 23), with the
// real client and `roz exec --plugin-dir` (roz loads the plugin, so it may
// choose the transport). The plugin is a copy of roz's whose bin/roz first
// writes one line per process to a log, so every hook process the client
// starts is counted:
// - 2.1.330: the only hook process is SessionStart (the client refuses http
//   for it); every tool call is judged in roz exec (its trace), and once roz
//   exec is SIGKILLed mid-session the next Bash call is blocked, never run.
// - 2.1.197 (no onFailure): command hooks, one process per event, as before;
//   this is also the control that the log sees hook processes at all.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bash, on, reply, say } from './harness/fake-api.js';
import { workspacePerTest } from './harness/per-test.js';
import { assertRozBuilt } from './harness/roz.js';
import { describeRun, runPrint } from './harness/run-print.js';
import { PINNED_CLIENTS, ROZ_PLUGIN_DIR, type Workspace } from './harness/workspace.js';

/** roz's plugin with a bin/roz that logs `<args> <pid>` and then runs the real one. */
function countingPlugin(ws: Workspace): { dir: string; log: string } {
  const dir = join(ws.root, 'counting-plugin');
  const log = join(ws.root, 'hook-processes.log');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  for (const name of readdirSync(ROZ_PLUGIN_DIR)) if (name !== 'bin') symlinkSync(join(ROZ_PLUGIN_DIR, name), join(dir, name));
  writeFileSync(
    join(dir, 'bin', 'roz'),
    `'use strict';\nrequire('fs').appendFileSync(${JSON.stringify(log)}, process.argv.slice(2).join(' ') + ' ' + process.pid + '\\n');\nrequire(${JSON.stringify(join(ROZ_PLUGIN_DIR, 'bin', 'roz'))});\n`,
  );
  return { dir, log };
}

function hookProcesses(log: string): string[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('hook '))
    .map((l) => l.split(' ')[1]!);
}

function judged(ws: Workspace): string[] {
  const [sid = ''] = readdirSync(join(ws.storage, 'sessions'));
  return readFileSync(join(ws.storage, 'sessions', sid, 'trace.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string; tool_input?: { value?: { command?: string } } })
    .filter((t) => t.event === 'PreToolUse')
    .map((t) => t.tool_input?.value?.command ?? '');
}

describe.each(PINNED_CLIENTS)('roz exec hooks, client %s', (client) => {
  const workspace = workspacePerTest();
  test(client === '2.1.330' ? 'http in roz exec: no hook process but SessionStart; killing roz exec blocks the next call' : 'a process per hook', async () => {
    assertRozBuilt();
    const ws = workspace();
    const plugin = countingPlugin(ws);
    const unjudged = join(ws.repo, 'ran-unjudged');
    const http = client === '2.1.330';
    let execPid = 0;
    const run = await runPrint({
      prompt: 'run three commands',
      client,
      workspace: ws,
      pluginDir: plugin.dir,
      rozLoadsPlugin: true,
      onSpawn: (pid) => (execPid = pid),
      scenario: {
        main: [
          { name: 'call-1', when: on.start(), reply: reply('Running.', bash('echo judged-call-1', 'call 1')) },
          { name: 'call-2', when: on.toolResult('Bash', { match: /judged-call-1/ }), reply: reply(undefined, bash('echo judged-call-2', 'call 2')) },
          {
            name: 'kill',
            when: on.toolResult('Bash', { match: /judged-call-2/ }),
            // roz exec (the process serving the hooks) dies before the client sees the next call.
            reply: () => {
              if (http) process.kill(execPid, 'SIGKILL');
              return reply(undefined, bash(`touch ${unjudged}`, 'call 3'));
            },
          },
          { name: 'after', when: on.toolResult('Bash'), reply: say('Done.') },
        ],
      },
    });
    const why = `${describeRun(run)}\nhook processes: ${hookProcesses(plugin.log).join(', ')}`;
    expect(run.stderr, why).toMatch(
      http ? /roz exec: hooks: http to this roz process \(client 2\.1\.330\)/ : /roz exec: hooks: a process per event \(client 2\.1\.197 predates onFailure/,
    );
    const results = run.requests.flatMap((r) => r.toolResults);
    expect(
      results.slice(0, 2).map((t) => t.isError),
      why,
    ).toEqual([false, false]);
    if (http) {
      // Judged in roz exec: both calls in its trace, and no process but SessionStart's.
      expect(judged(ws), why).toEqual(['echo judged-call-1', 'echo judged-call-2']);
      expect(hookProcesses(plugin.log), why).toEqual(['session-start']);
      // Killed: the third call was blocked, not run.
      expect(results[2]?.isError, why).toBe(true);
      expect(existsSync(unjudged), why).toBe(false);
    } else {
      expect(judged(ws), why).toEqual(['echo judged-call-1', 'echo judged-call-2', `touch ${unjudged}`]);
      const procs = hookProcesses(plugin.log);
      expect(
        procs.filter((p) => p === 'pre-tool-use'),
        why,
      ).toHaveLength(3);
      expect(procs, why).toContain('post-tool-use');
      expect(existsSync(unjudged), why).toBe(true);
    }
  }, 150_000);
});
