// Agent-written globs cost bounded time (issue 24), on both pinned clients,
// print mode. The project's .roz/config.toml adds the gate
// `Bash:*a*a*a*a*a*a*a*a*a*a*a*a*b`, which a backtracking RegExp took minutes
// to test against a 120-character command, inside the session lock (2.1.330
// then blocked the call after 600 s; 2.1.197 ran it unjudged). Now the
// 120-character command runs at once, judged (its PreToolUse is in roz's
// trace), and a command the glob does match is still gated.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { workspacePerTest } from './harness/per-test.js';
import { bash, on, reply, say } from './harness/fake-api.js';
import { runRoz } from './harness/roz.js';
import { PINNED_CLIENTS } from './harness/workspace.js';

const HOSTILE = '*a*a*a*a*a*a*a*a*a*a*a*a*b';

describe.each(PINNED_CLIENTS)('a backtracking gate glob does not stall a tool call (client %s, print mode)', (client) => {
  const fresh = workspacePerTest();

  test('the hostile gate in .roz/config.toml answers a 120-character command at once, and still gates what it matches', async () => {
    const ws = fresh();
    mkdirSync(join(ws.repo, '.roz'), { recursive: true });
    writeFileSync(join(ws.repo, '.roz', 'config.toml'), `[review]\ngates = ["Bash:${HOSTILE}"]\n`);
    const long = `echo ${'a'.repeat(115)}`;
    const gated = `echo ${'a'.repeat(114)}b`;
    expect(long).toHaveLength(120);
    const started = Date.now();
    const run = await runRoz({
      client,
      prompt: 'print some letters',
      workspace: ws,
      timeoutMs: 120_000,
      scenario: {
        main: [
          { name: 'long', when: on.start(), reply: reply(undefined, bash(long, 'Print a')) },
          { name: 'gated', when: on.toolResult('Bash', { error: false }), reply: reply(undefined, bash(gated, 'Print a then b')) },
          { name: 'done', when: on.toolResult('Bash', { error: true }), reply: say('Done.') },
        ],
      },
    });
    const seconds = (Date.now() - started) / 1000;
    expect(run.api.scriptErrors, run.why()).toEqual([]);
    expect(run.exitCode, run.why()).toBe(0);
    const results = run.api.requests.flatMap((r) => r.toolResults).filter((t) => t.toolName === 'Bash');
    // The 120-character command ran and printed its letters...
    expect(results[0], run.why()).toMatchObject({ isError: false, text: expect.stringContaining('a'.repeat(115)) });
    // ...after roz judged it: both calls' PreToolUse are in the trace (a hook killed by its timeout leaves none).
    const pre = run.trace().filter((e) => e.event === 'PreToolUse' && JSON.stringify(e).includes('a'.repeat(114)));
    expect(pre.length, run.why()).toBeGreaterThanOrEqual(2);
    // The glob is live: the command ending in b is gated (an ask, a denial in print mode).
    expect(results[1]?.isError, run.why()).toBe(true);
    expect(results[1]?.text, run.why()).toMatch(/REVIEW_REQUIRED|matches the review gate/);
    // The whole run, two tool calls and client start-up included, took far less than one stalled hook did.
    expect(seconds, run.why()).toBeLessThan(90);
  }, 150_000);
});
