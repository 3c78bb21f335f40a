// Learns the pinned Gemini CLI (issue 33, step 1): the real `gemini -p`, offline
// against a scripted Gemini API, with a logging command hook on every event.
// Proves what docs/clients.md says Gemini sends and obeys: the events fire with
// its own tool names (run_shell_command, write_file), a BeforeTool deny stops
// the call, an AfterAgent block sends the agent back to work, and without a
// trusted folder the CLI refuses to run headless at all.
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanupsPerTest } from './harness/per-test.js';
import { GEMINI_BIN, onGemini, startFakeGeminiApi } from './harness/fake-gemini-api.js';
import { jsonLines, runToEnd } from './harness/run-to-end.js';
import { createWorkspace, type Workspace } from './harness/workspace.js';

const EVENTS = ['SessionStart', 'SessionEnd', 'BeforeAgent', 'AfterAgent', 'BeforeTool', 'AfterTool', 'Notification', 'PreCompress'];

interface HookEvent {
  hook_event_name: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  stop_hook_active?: boolean;
  [k: string]: unknown;
}

/** Logs every payload; denies a tool call naming `forbidden`; blocks the first AfterAgent. */
function writeHook(dir: string, log: string): string {
  const hook = join(dir, 'log-hook.sh');
  writeFileSync(
    hook,
    `#!/bin/sh
payload=$(cat)
printf '%s\\n' "$payload" >> '${log}'
case "$payload" in
  *'"hook_event_name":"BeforeTool"'*forbidden*)
    printf '%s' '{"decision":"deny","reason":"E2E_DENY: forbidden"}' ;;
  *'"hook_event_name":"AfterAgent"'*'"stop_hook_active":false'*)
    printf '%s' '{"decision":"block","reason":"E2E_STOP_BLOCK: not yet"}' ;;
esac
`,
  );
  chmodSync(hook, 0o755);
  return hook;
}

function geminiHome(ws: Workspace, hook: string): void {
  const dir = join(ws.home, '.gemini');
  mkdirSync(dir, { recursive: true });
  const hooks = Object.fromEntries(EVENTS.map((e) => [e, [{ matcher: '*', hooks: [{ type: 'command', command: hook }] }]]));
  writeFileSync(
    join(dir, 'settings.json'),
    JSON.stringify({ hooksConfig: { enabled: true }, hooks, security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2),
  );
}

const gemini = (ws: Workspace, baseUrl: string, extraEnv: Record<string, string>, args: string[]) =>
  runToEnd(
    process.execPath,
    [GEMINI_BIN, '-m', 'gemini-2.5-flash', ...args],
    ws.repo,
    { ...ws.env, GEMINI_API_KEY: 'e2e-fake', GOOGLE_GEMINI_BASE_URL: baseUrl, ...extraEnv },
    60_000,
  );

describe.sequential('Gemini CLI 0.61.0 hooks (real client, offline)', () => {
  const cleanups = cleanupsPerTest();

  test('events reach the hook, a BeforeTool deny stops the call, an AfterAgent block continues the turn', async () => {
    const ws = createWorkspace();
    cleanups.push(ws.cleanup);
    const api = await startFakeGeminiApi([
      { name: 'shell', when: onGemini.afterResponses(0), reply: { call: 'run_shell_command', args: { command: 'echo hi > in-repo.txt' } } },
      {
        name: 'denied-write',
        when: onGemini.afterResponses(1),
        reply: { call: 'write_file', args: { file_path: join(ws.repo, 'forbidden.txt'), content: 'x\n' } },
      },
      {
        name: 'first-stop',
        when: (r) => r.functionResponses.length === 2 && !JSON.stringify(r.raw.contents).includes('E2E_STOP_BLOCK'),
        reply: { say: 'Done.' },
      },
      { name: 'after-block', when: (r) => JSON.stringify(r.raw.contents).includes('E2E_STOP_BLOCK'), reply: { say: 'Really done.' } },
    ]);
    cleanups.push(api.close);
    const log = join(ws.root, 'hooks.jsonl');
    geminiHome(ws, writeHook(ws.root, log));

    const run = await gemini(ws, api.baseUrl, { GEMINI_CLI_TRUST_WORKSPACE: 'true' }, ['--yolo', '-p', 'write a file']);
    expect(run.code, run.stderr).toBe(0);
    const events = jsonLines<HookEvent>(existsSync(log) ? readFileSync(log, 'utf8') : '');
    const names = events.map((e) => e.hook_event_name);
    expect(names[0]).toBe('SessionStart');
    expect(names).toContain('BeforeAgent');
    expect(names.at(-1)).toBe('SessionEnd');
    const before = events.filter((e) => e.hook_event_name === 'BeforeTool');
    expect(before.map((e) => [e.tool_name, e.tool_input])).toEqual([
      ['run_shell_command', { command: 'echo hi > in-repo.txt' }],
      ['write_file', { file_path: join(ws.repo, 'forbidden.txt'), content: 'x\n' }],
    ]);
    // The denied write never ran (no AfterTool for it, no file) and the model was told why.
    expect(events.filter((e) => e.hook_event_name === 'AfterTool').map((e) => e.tool_name)).toEqual(['run_shell_command']);
    expect(existsSync(join(ws.repo, 'forbidden.txt'))).toBe(false);
    expect(JSON.stringify(api.requests[2]?.functionResponses[1])).toContain('E2E_DENY');
    expect(readFileSync(join(ws.repo, 'in-repo.txt'), 'utf8')).toBe('hi\n');
    // AfterAgent `decision: block` sends its reason back to the model; the retry arrives with stop_hook_active.
    const afters = events.filter((e) => e.hook_event_name === 'AfterAgent');
    expect(afters.map((e) => e.stop_hook_active)).toEqual([false, true]);
    expect(run.stdout).toContain('Really done.');
  });

  test('headless in an untrusted folder: refuses to start (exit 55) and runs no hook', async () => {
    const ws = createWorkspace();
    cleanups.push(ws.cleanup);
    const api = await startFakeGeminiApi([]);
    cleanups.push(api.close);
    const log = join(ws.root, 'hooks.jsonl');
    geminiHome(ws, writeHook(ws.root, log));
    const run = await gemini(ws, api.baseUrl, {}, ['-p', 'hello']);
    expect(run.code).toBe(55);
    expect(run.stderr).toContain('not running in a trusted directory');
    expect(existsSync(log)).toBe(false);
    expect(api.requests).toHaveLength(0);
  });
});
