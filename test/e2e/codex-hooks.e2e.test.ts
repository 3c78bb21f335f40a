// Learns the pinned Codex CLI (issue 33, step 1): the real `codex exec`, offline
// against a scripted Responses API, with a logging command hook on every event.
// Proves what docs/clients.md says Codex sends and obeys: the events fire with
// the shell tool named `Bash`, a PreToolUse deny stops the command, and the
// workspace-write sandbox refuses a write outside the workspace.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanupsPerTest } from './harness/per-test.js';
import { CODEX_BIN, onResponses, startFakeResponsesApi } from './harness/fake-responses-api.js';
import { jsonLines, runToEnd } from './harness/run-to-end.js';
import { createWorkspace } from './harness/workspace.js';

const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
];

interface HookEvent {
  hook_event_name: string;
  tool_name?: string;
  tool_input?: { command?: string };
  tool_response?: unknown;
  [k: string]: unknown;
}

/** A command hook that logs its payload, denies any Bash command naming `forbidden`, and blocks the first stop. */
function writeHook(dir: string, log: string): string {
  const hook = join(dir, 'log-hook.sh');
  writeFileSync(
    hook,
    `#!/bin/sh
payload=$(cat)
printf '%s\\n' "$payload" >> '${log}'
case "$payload" in
  *'"hook_event_name":"PreToolUse"'*forbidden*)
    printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"E2E_DENY: forbidden"}}' ;;
  *'"hook_event_name":"Stop"'*'"stop_hook_active":false'*)
    printf '%s' '{"decision":"block","reason":"E2E_STOP_BLOCK: not yet"}' ;;
esac
`,
  );
  chmodSync(hook, 0o755);
  return hook;
}

function codexConfig(baseUrl: string, hook: string): string {
  const lines = [
    'model = "fake-model"',
    'model_provider = "fake"',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${baseUrl}"`,
    'wire_api = "responses"',
  ];
  // workspace-write also lets commands write /tmp and $TMPDIR by default, and every test
  // world lives under /tmp: these two keys narrow it to the workspace (docs/clients.md).
  lines.push('[sandbox_workspace_write]', 'exclude_slash_tmp = true', 'exclude_tmpdir_env_var = true');
  for (const ev of EVENTS) lines.push(`[[hooks.${ev}]]`, `[[hooks.${ev}.hooks]]`, 'type = "command"', `command = "${hook}"`);
  return `${lines.join('\n')}\n`;
}

describe.sequential('Codex CLI 0.169.0 hooks (real client, offline)', () => {
  const cleanups = cleanupsPerTest();

  test('events reach the hook, a PreToolUse deny stops the command, the sandbox refuses an outside write', async () => {
    const ws = createWorkspace();
    cleanups.push(ws.cleanup);
    const outside = join(ws.root, 'outside.txt');
    const api = await startFakeResponsesApi([
      { name: 'write', when: onResponses.start(), reply: { shell: `echo hi > in-repo.txt; echo bad > ${outside}; echo outside_rc=$?` } },
      { name: 'denied', when: onResponses.afterOutputs(1), reply: { shell: 'echo forbidden > denied.txt' } },
      { name: 'first-stop', when: (r) => r.toolOutputs.length === 2 && !JSON.stringify(r.raw.input).includes('E2E_STOP_BLOCK'), reply: { say: 'Done.' } },
      { name: 'after-block', when: (r) => JSON.stringify(r.raw.input).includes('E2E_STOP_BLOCK'), reply: { say: 'Really done.' } },
    ]);
    cleanups.push(api.close);
    const codexHome = join(ws.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    const log = join(ws.root, 'hooks.jsonl');
    writeFileSync(join(codexHome, 'config.toml'), codexConfig(api.baseUrl, writeHook(ws.root, log)));

    const args = [CODEX_BIN, 'exec', '--dangerously-bypass-hook-trust', '--skip-git-repo-check', '-s', 'workspace-write', 'write a file'];
    const run = await runToEnd(process.execPath, args, ws.repo, { ...ws.env, CODEX_HOME: codexHome }, 60_000);
    expect(run.code, run.stderr).toBe(0);

    const events = jsonLines<HookEvent>(existsSync(log) ? readFileSync(log, 'utf8') : '');
    const names = events.map((e) => e.hook_event_name);
    expect(names[0]).toBe('SessionStart');
    expect(names).toContain('UserPromptSubmit');
    // A Stop `decision: block` sends its reason to the model as a new turn; the second
    // Stop arrives with stop_hook_active true (the hook lets that one through).
    const stops = events.filter((e) => e.hook_event_name === 'Stop');
    expect(stops.map((e) => e.stop_hook_active)).toEqual([false, true]);
    expect(api.requests.map((r) => r.index)).toHaveLength(4);
    expect(run.stdout).toContain('Really done.');
    // The shell tool (`exec_command` on the wire) reaches hooks as Bash with tool_input.command.
    const pre = events.filter((e) => e.hook_event_name === 'PreToolUse');
    expect(pre.map((e) => [e.tool_name, e.tool_input?.command])).toEqual([
      ['Bash', expect.stringContaining('in-repo.txt')],
      ['Bash', 'echo forbidden > denied.txt'],
    ]);
    // The denied call never ran: no PostToolUse for it, no file, and the model was told why.
    expect(events.filter((e) => e.hook_event_name === 'PostToolUse')).toHaveLength(1);
    expect(existsSync(join(ws.repo, 'denied.txt'))).toBe(false);
    expect(api.requests[2]?.toolOutputs[1]).toContain('E2E_DENY');
    // workspace-write: the repo is writable, a path outside it is not.
    expect(readFileSync(join(ws.repo, 'in-repo.txt'), 'utf8')).toBe('hi\n');
    expect(existsSync(outside)).toBe(false);
    expect(api.requests[1]?.toolOutputs[0]).toContain('Read-only file system');
    expect(api.requests[1]?.toolOutputs[0]).toContain('outside_rc=1');
  });
  test("Codex's own exec policy refuses `rm -rf` after PreToolUse, before it runs (approval: never)", async () => {
    const ws = createWorkspace();
    cleanups.push(ws.cleanup);
    mkdirSync(join(ws.repo, 'build'));
    writeFileSync(join(ws.repo, 'build', 'a'), 'x\n');
    const api = await startFakeResponsesApi([
      { name: 'rm', when: onResponses.start(), reply: { shell: 'rm -rf build' } },
      { name: 'done', when: onResponses.afterOutputs(1), reply: { say: 'Done.' } },
    ]);
    cleanups.push(api.close);
    const codexHome = join(ws.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    const log = join(ws.root, 'hooks.jsonl');
    writeFileSync(join(codexHome, 'config.toml'), codexConfig(api.baseUrl, writeHook(ws.root, log)));
    const args = [CODEX_BIN, 'exec', '--dangerously-bypass-hook-trust', '--skip-git-repo-check', '-s', 'workspace-write', 'clean up'];
    const run = await runToEnd(process.execPath, args, ws.repo, { ...ws.env, CODEX_HOME: codexHome }, 60_000);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(ws.repo, 'build', 'a'))).toBe(true);
    expect(api.requests[1]?.toolOutputs[0]).toContain('rm -f style commands are not permitted');
    // PreToolUse still saw the call (roz's guard would see it too), but nothing ran.
    const events = jsonLines<HookEvent>(existsSync(log) ? readFileSync(log, 'utf8') : '');
    expect(events.filter((e) => e.hook_event_name === 'PreToolUse').map((e) => e.tool_input?.command)).toEqual(['rm -rf build']);
    expect(events.filter((e) => e.hook_event_name === 'PostToolUse')).toHaveLength(0);
  });
});
