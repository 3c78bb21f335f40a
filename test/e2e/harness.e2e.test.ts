// Proves the e2e harness itself against the real Claude Code client with a
// tiny fixture plugin (test/e2e/fixtures/hook-plugin), independent of roz.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanupsPerTest } from './harness/per-test.js';
import { agent, bash, on, reply, say, write, type Scenario } from './harness/fake-api.js';
import { describeRun, runPrint } from './harness/run-print.js';
import { startPty, type PtySession } from './harness/run-pty.js';
import { FIXTURES_DIR, createWorkspace, type Workspace } from './harness/workspace.js';

const PLUGIN = join(FIXTURES_DIR, 'hook-plugin');
const MARKER = '# E2E Fixture Checker';

interface HookEvent {
  hook_event_name: string;
  [k: string]: unknown;
}
const hookEvents = (file: string): HookEvent[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as HookEvent)
    : [];

function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(text)) found.push(`${pid}: ${cmd}`);
    } catch {
      /* gone */
    }
  }
  return found;
}

/** Write, a denied Bash, stop (blocked once), spawn the checker in the foreground, finish. */
function fixtureScenario(ws: Workspace, background?: boolean): Scenario {
  return {
    reviewerMarker: MARKER,
    main: [
      { name: 'write', when: on.start(), reply: reply('Writing.', write(join(ws.repo, 'hello.txt'), 'hello\n')) },
      { name: 'denied-bash', when: on.toolResult('Write'), reply: reply(undefined, bash('forbidden-cmd')) },
      { name: 'first-stop', when: on.toolResult('Bash', { error: true }), reply: say('Done.') },
      {
        name: 'spawn-checker',
        when: on.stopFeedback(/FIXTURE_BLOCK/),
        reply: (req) =>
          reply(
            undefined,
            agent({
              subagent_type: 'e2e-fixture:checker',
              prompt: `Check it.\nSESSION_ID=${req.sessionId}`,
              ...(background === undefined ? {} : { run_in_background: background }),
            }),
          ),
      },
      { name: 'final', when: on.toolResult('Agent'), reply: say('All done.') },
    ],
    reviewer: [
      { name: 'checker-bash', when: on.start(), reply: reply(undefined, bash('git status --short; echo MARK=$E2E_FIXTURE_MARK')) },
      { name: 'checker-done', when: on.toolResult('Bash'), reply: say('DONE') },
    ],
  };
}

describe.sequential('e2e harness (fixture plugin, real client)', () => {
  const cleanups = cleanupsPerTest();

  test('print mode: scripted Write, hook deny, Stop block and a foreground subagent', async () => {
    const ws = createWorkspace();
    cleanups.push(ws.cleanup);
    const hookLog = join(ws.root, 'hooks.jsonl');
    const run = await runPrint({
      prompt: 'write hello.txt',
      pluginDir: PLUGIN,
      workspace: ws,
      env: { E2E_HOOK_LOG: hookLog },
      scenario: fixtureScenario(ws, false),
    });
    const why = describeRun(run);

    expect(run.exitCode, why).toBe(0);
    expect(run.result.is_error, why).toBe(false);
    expect(run.result.result, why).toBe('All done.');
    expect(readFileSync(join(ws.repo, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(
      run.requests.map((r) => `${r.role}:${r.answeredBy}`),
      why,
    ).toEqual(['main:write', 'main:denied-bash', 'main:first-stop', 'main:spawn-checker', 'reviewer:checker-bash', 'reviewer:checker-done', 'main:final']);

    // What the model was told: the deny reason as an error tool result, the
    // block reason as Stop hook feedback naming this session.
    const denied = run.requests[2]!.toolResults[0]!;
    expect(denied).toMatchObject({ toolName: 'Bash', isError: true });
    expect(denied.text).toContain('FIXTURE_DENY');
    expect(run.requests[3]!.stopFeedback).toContain(`SESSION_ID=${run.result.session_id}`);
    // The subagent's Bash sees the export a SessionStart hook wrote to CLAUDE_ENV_FILE.
    expect(run.requests[5]!.toolResults[0]!.text).toMatch(/\?\? hello\.txt[\s\S]*MARK=from-env-file/);
    expect(run.api.limitReached).toBe(false);

    const events = hookEvents(hookLog);
    expect(events.map((e) => e.hook_event_name)).toEqual(
      expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'SessionEnd']),
    );
    expect(events.find((e) => e.hook_event_name === 'SubagentStart')).toMatchObject({ agent_type: 'e2e-fixture:checker' });
    expect(events.filter((e) => e.hook_event_name === 'Stop').map((e) => e.stop_hook_active)).toEqual([false, true]);
    expect(events.every((e) => e.session_id === run.result.session_id)).toBe(true);
  }, 60_000);

  test('print mode: an Agent call without run_in_background is launched in the background', async () => {
    // Client 2.1.330 backgrounds subagents by default: the tool result is an
    // "Async agent launched" note, the turn goes on, and the subagent's result
    // comes back later as a <task-notification> prompt in a new turn.
    const ws = createWorkspace();
    cleanups.push(ws.cleanup);
    const hookLog = join(ws.root, 'hooks.jsonl');
    const run = await runPrint({ prompt: 'write hello.txt', pluginDir: PLUGIN, workspace: ws, env: { E2E_HOOK_LOG: hookLog }, scenario: fixtureScenario(ws) });
    const why = describeRun(run);
    const spawned = run.requests.find((r) => r.answeredBy === 'final');
    expect(spawned?.toolResults[0]?.text, why).toMatch(/Async agent launched/);
    expect(
      run.requests.some((r) => r.role === 'main' && /<task-notification>/.test(r.lastUserText)),
      why,
    ).toBe(true);
    const prompts = hookEvents(hookLog).filter((e) => e.hook_event_name === 'UserPromptSubmit');
    expect(prompts.map((e) => String(e.prompt).slice(0, 19))).toEqual(['write hello.txt', '<task-notification>']);
  }, 60_000);

  test('a script that never ends its turn is cut off by the request cap', async () => {
    const ws = createWorkspace();
    cleanups.push(ws.cleanup);
    const run = await runPrint({
      prompt: 'loop',
      pluginDir: PLUGIN,
      workspace: ws,
      scenario: { main: () => reply(undefined, bash('true')) },
      api: { maxRequests: 4 },
    });
    expect(run.api.limitReached, describeRun(run)).toBe(true);
    // The client retries the 400 a few times before giving up; the script answered exactly 4.
    expect(run.requests.filter((r) => r.answeredBy !== '(limit)')).toHaveLength(4);
    expect(run.result.is_error).toBe(true);
    expect(run.result.result).toContain('request limit (4) reached');
  }, 60_000);

  test('a client that hangs is killed at the timeout, with its output in the error', async () => {
    const ws = createWorkspace();
    cleanups.push(ws.cleanup);
    // (A bare `sleep 60` is refused by the client's Bash tool, so hang in node.)
    const tag = `e2e-hang-${process.pid}-${Date.now()}`;
    const HANG = `node -e "setTimeout(() => {}, 60000)" ${tag}`;
    const started = Date.now();
    await expect(
      runPrint({
        prompt: 'hang',
        pluginDir: PLUGIN,
        workspace: ws,
        // Room for the client to start and make its request while another test file runs beside it.
        timeoutMs: 10_000,
        scenario: { main: [{ name: 'hang', reply: reply(undefined, bash(HANG)) }] },
      }),
    ).rejects.toThrow(/did not finish within 10000 ms[\s\S]*fake API requests:[\s\S]*setTimeout/);
    expect(Date.now() - started).toBeLessThan(21_000);
    // Nothing the client started survives it (its Bash commands run in process groups of their own).
    await expect.poll(() => processesMentioning(tag), { timeout: 3_000 }).toEqual([]);
  }, 30_000);

  test('interactive: typed prompt, permission dialog answered, stop hook shown, /exit', async () => {
    const ws = createWorkspace();
    cleanups.push(ws.cleanup);
    let s: PtySession | undefined;
    cleanups.push(() => s?.dispose());
    s = await startPty({ pluginDir: PLUGIN, workspace: ws, args: ['--permission-mode', 'default'], scenario: fixtureScenario(ws, false) });
    await s.waitForScreen(/manual mode on/, 20_000, 'the input prompt');
    s.type('write hello.txt');
    await s.waitForScreen(/❯\s*write hello\.txt/, 5_000);
    s.press('enter');
    // The client's own "Do you want to create hello.txt?" dialog is answered by the session.
    await s.waitForScreen(/Stop hook[\s\S]*FIXTURE_BLOCK/, 30_000, 'the stop hook message');
    await s.waitForScreen(/All done\./, 30_000, 'the final answer');
    expect(s.answeredDialogs).toContain('permission');
    expect(existsSync(join(ws.repo, 'hello.txt'))).toBe(true);
    expect(await s.exit()).toBe(0);
  }, 90_000);
});
