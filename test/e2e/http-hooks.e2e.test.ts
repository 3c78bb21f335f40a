// Supervised hooks without a process, with the real client (2.1.330, the
// first pinned client with onFailure): every hook but SessionStart is an http
// hook to a real roz Supervisor running in its own process. A Bash call is
// judged by it (roz's time per PreToolUse is measured at the supervisor);
// then the supervisor is SIGKILLed mid-session and the next Bash call must be
// blocked, never run unjudged. 2.1.197 keeps command hooks (no onFailure);
// roz run's choice between the two is tested in test/supervisor/http-hooks.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, test } from 'vitest';
import { mergeSettings } from '../../src/core/enforce/settings.js';
import { httpHooksFragment } from '../../src/supervisor/hooks/http-hooks.js';
import { hooklessPlugin, pluginHooks } from '../../src/supervisor/launch/http-launch.js';
import { bundle } from '../supervisor/helpers/bundle.js';
import { bash, on, reply, say } from './harness/fake-api.js';
import { startPty, type PtySession } from './harness/run-pty.js';
import { assertRozBuilt } from './harness/roz.js';
import { createWorkspace, NEWEST_CLIENT, ROZ_PLUGIN_DIR, type Workspace } from './harness/workspace.js';

describe.sequential('http hooks to the supervisor (pty, real client)', () => {
  let session: PtySession | undefined;
  let ws: Workspace | undefined;
  let supProc: ChildProcess | undefined;
  afterEach(async () => {
    supProc?.kill('SIGKILL');
    await session?.dispose();
    ws?.cleanup();
  });

  test(`${NEWEST_CLIENT}: judged with the supervisor up, blocked once it is killed`, async () => {
    assertRozBuilt();
    const w = createWorkspace();
    ws = w;
    const plugin = hooklessPlugin(ROZ_PLUGIN_DIR, w.storage);
    const settingsFile = join(w.root, 'settings.json');
    const entry = await bundle('test/e2e/fixtures/http-supervisor.ts');
    const proc = spawn(process.execPath, [entry, w.storage, plugin, settingsFile], { env: w.env, stdio: ['ignore', 'pipe', 'inherit'] });
    supProc = proc;
    const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
    const hello = JSON.parse((await lines.next()).value as string) as { url: string; childEnv: Record<string, string> };
    const timings: Array<{ event: string; ms: number }> = [];
    void (async () => {
      for await (const l of { [Symbol.asyncIterator]: () => lines }) timings.push(JSON.parse(l as string));
    })();
    // Bash allowed by the settings, so only roz's hooks stand between a call and its running.
    const hooks = httpHooksFragment({ baseUrl: hello.url, pluginHooks: pluginHooks(ROZ_PLUGIN_DIR), preToolUseTimeoutS: 60 });
    writeFileSync(settingsFile, JSON.stringify(mergeSettings(hooks, { permissions: { allow: ['Bash'] } })));
    const unjudged = join(w.root, 'ran-unjudged');

    session = await startPty({
      client: NEWEST_CLIENT,
      workspace: w,
      pluginDir: plugin,
      args: ['--settings', settingsFile, '--permission-mode', 'default'],
      env: hello.childEnv,
      scenario: {
        main: [
          { name: 'call-1', when: on.start(), reply: reply('Running.', bash('echo judged-call-1', 'call 1')) },
          ...[2, 3, 4].map((n) => ({
            name: `call-${n}`,
            when: on.toolResult('Bash', { match: new RegExp(`judged-call-${n - 1}`) }),
            reply: reply(undefined, bash(`echo judged-call-${n}`, `call ${n}`)),
          })),
          {
            name: 'kill',
            when: on.toolResult('Bash', { match: /judged-call-4/ }),
            // The supervisor dies before the client even sees the next tool call.
            reply: () => {
              proc.kill('SIGKILL');
              return reply(undefined, bash(`touch ${unjudged}`, 'call 5'));
            },
          },
          { name: 'after', when: on.toolResult('Bash'), reply: say('The fifth call did not run.') },
        ],
      },
    });
    const s = session;
    await s.waitForScreen(/manual mode on/, 30_000, 'the input prompt');
    s.type('run five commands');
    await s.waitForScreen(/run five commands/, 10_000, 'the typed prompt');
    s.press('enter');
    await s.waitForScreen(/The fifth call did not run\./, 90_000, 'the end of the turn');

    // Judged by roz while it was up: both calls in its trace, each PreToolUse timed.
    const [sid = ''] = readdirSync(join(w.storage, 'sessions'));
    const trace = readFileSync(join(w.storage, 'sessions', sid, 'trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string });
    expect(
      trace.filter((t) => t.event === 'PreToolUse').map((t) => (t as { tool_input?: { value?: { command?: string } } }).tool_input?.value?.command),
    ).toEqual([1, 2, 3, 4].map((n) => `echo judged-call-${n}`));
    const pre = timings.filter((t) => t.event === 'PreToolUse').map((t) => t.ms);
    expect(pre).toHaveLength(4);
    // roz's time per PreToolUse is printed, not asserted: no test asserts a time (docs/performance.md);
    // the ≤ 2 ms goal is measured by `npm run bench` (http hook rows) against a same-run baseline.
    console.log(`http PreToolUse at the supervisor, ms: ${pre.map((x) => x.toFixed(2)).join(', ')}`);
    expect(pre.every((ms) => Number.isFinite(ms) && ms > 0)).toBe(true);
    // Killed: the fifth call was blocked, not run.
    const third = s.api.requests.find((r) => r.answeredBy === 'after')!.toolResults[0]!;
    expect(third.isError).toBe(true);
    expect(existsSync(unjudged)).toBe(false);
  }, 150_000);
});
