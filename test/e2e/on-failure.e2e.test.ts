// What each pinned client does with `"onFailure": "block"` on a PreToolUse
// hook that fails (exits 1) or outlives its timeout (roz's hooks.json sets it
// on PreToolUse). A throwaway plugin whose hooks misbehave on purpose; the
// tools leave a marker file when they run. Findings: test/e2e/README.md.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bash, on, reply, say } from './harness/fake-api.js';
import { workspacePerTest } from './harness/per-test.js';
import { describeRun, runPrint } from './harness/run-print.js';
import { PINNED_CLIENTS, type ClientVersion } from './harness/workspace.js';

function misbehavingPlugin(root: string): string {
  const dir = join(root, 'onfailure-plugin');
  mkdirSync(join(dir, '.claude-plugin'), { recursive: true });
  mkdirSync(join(dir, 'hooks'));
  writeFileSync(join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'onfailure', version: '0.0.0' }));
  const hook = (command: string, timeout: number) => ({ type: 'command', command, timeout, onFailure: 'block' });
  writeFileSync(
    join(dir, 'hooks', 'hooks.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          // A crash: exit 1 with a message, for any command that mentions "crash".
          { matcher: 'Bash', hooks: [hook(`grep -q crash && { echo 'hook crashed' >&2; exit 1; }; exit 0`, 30)] },
          // A hang: a hook that outlives its 2 s timeout, for commands that mention "hang".
          { matcher: 'Bash', hooks: [hook(`grep -q hang && sleep 8; exit 0`, 2)] },
        ],
      },
    }),
  );
  return dir;
}

/** Which of the two tool calls ran (each leaves a marker), per client. */
const EXPECTED: Record<ClientVersion, { crashRan: boolean; hangRan: boolean }> = {
  // 2.1.197 predates onFailure: it ignores the field, so a failing or timed-out hook lets the tool run.
  '2.1.197': { crashRan: true, hangRan: true },
  // 2.1.330 blocks the tool when a hook with onFailure: block fails or times out.
  '2.1.330': { crashRan: false, hangRan: false },
};

describe.each(PINNED_CLIENTS)('onFailure: block on client %s', (client) => {
  const workspace = workspacePerTest();
  test('a PreToolUse hook that crashes or times out', async () => {
    const ws = workspace();
    const run = await runPrint({
      prompt: 'go',
      client,
      workspace: ws,
      pluginDir: misbehavingPlugin(ws.root),
      scenario: {
        main: [
          { name: 'crash', when: on.start(), reply: reply('one', bash('echo crash > crash.marker')) },
          { name: 'hang', when: on.toolResult('Bash'), reply: reply('two', bash('echo hang > hang.marker')) },
          { name: 'done', when: on.toolResult('Bash'), reply: say('done') },
        ],
      },
    });
    const seen = { crashRan: existsSync(join(ws.repo, 'crash.marker')), hangRan: existsSync(join(ws.repo, 'hang.marker')) };
    expect(seen, describeRun(run)).toEqual(EXPECTED[client]);
    if (process.env.ROZ_E2E_VERBOSE) for (const r of run.requests) for (const t of r.toolResults) process.stderr.write(`[${client}] ${t.isError} ${t.text}\n`);
  }, 120_000);
});
