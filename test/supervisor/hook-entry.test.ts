// The real hook process (src/cli/hook-entry.ts) under `roz run`: it runs the
// engine as usual, then tells the supervisor; with no supervisor it behaves
// exactly as standalone, within a bounded time, and says so.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { bundle, repoRoot } from './helpers/bundle.js';
import { governedRepo, preToolUse, SID, startSupervisor, traceRecords, until } from './helpers/channel.js';
import { formatTraceLine } from '../../src/cli/commands/inspect.js';
import { DEFAULT_APPROVAL_TIMEOUT_S, MAX_APPROVAL_TIMEOUT_S, parseTimeout } from '../../src/cli/commands/run.js';
import { CLAUDE_STOP_HOOK_TIMEOUT_S } from '../../src/core/review/launched-reviewer.js';

let hookEntry: string;
beforeAll(async () => {
  hookEntry = await bundle('src/cli/hook-entry.ts');
}, 60_000);

let sup: Supervisor | null = null;
afterEach(async () => {
  await sup?.close();
  sup = null;
});

function runHookProcess(env: Record<string, string>, input: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [hookEntry, 'hook', 'pre-tool-use'], { env: { ...env, CLAUDE_PLUGIN_ROOT: join(repoRoot, 'plugin') } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
    child.stdin.end(input);
  });
}

describe('hook process with ROZ_SOCKET', () => {
  it('runs the engine, persists its trace, and shows the event in the supervisor; output as standalone', async () => {
    const s = await startSupervisor();
    sup = s.sup;
    const input = preToolUse('ls -la', { tool_name: 'Read', tool_input: { file_path: '/tmp/x' } });
    const standalone = await runHookProcess({ ...s.env, ROZ_SOCKET: '', ROZ_TOKEN: '' }, input);
    const supervised = await runHookProcess(s.env, input);
    expect(supervised.code).toBe(0);
    expect(supervised.stdout).toBe(standalone.stdout);
    expect(supervised.stderr).toBe('');
    expect(s.sup.events.last()).toMatchObject({ event: 'PreToolUse', tool_name: 'Read', session_id: SID });
    expect(traceRecords(s.store).filter((r) => r.event === 'PreToolUse')).toHaveLength(2);
  });

  it("the engine's own ask (a destructive command in a governed project) waits for the human's key", async () => {
    const s = await startSupervisor();
    sup = s.sup;
    const repo = await governedRepo(s.store);
    const hook = runHookProcess(s.env, preToolUse('rm -rf build', { cwd: repo }));
    await until(() => s.sup.snapshot().pending.length === 1, 'the ask to reach the supervisor', 10_000);
    const [pending] = s.sup.snapshot().pending;
    expect(pending).toMatchObject({ code: 'DESTRUCTIVE_BLOCKED', tool_input: { command: 'rm -rf build' } });
    s.sup.answer(pending!.id, { action: 'block', reason: 'keep the build' });
    const r = await hook;
    expect(JSON.parse(r.stdout).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'roz: blocked by the human: keep the build',
    });
    const trace = traceRecords(s.store);
    expect(trace.find((t) => t.event === 'PreToolUse')).toMatchObject({ verdict: { kind: 'ask', code: 'DESTRUCTIVE_BLOCKED' } });
    const decision = trace.find((t) => t.event === 'roz:HumanDecision')!;
    // Auditable on its own: what was asked, why roz asked, the verdict and the human's reason.
    expect(decision).toMatchObject({ decided_by: 'human', decision: 'deny', reason: 'keep the build', tool_input: { value: { command: 'rm -rf build' } } });
    expect(decision.asked_because).toMatch(/rm -rf/);
    // Plain `roz trace` prints the verdict and the reason.
    expect(formatTraceLine(decision as unknown as Parameters<typeof formatTraceLine>[0], false).replace(/\x1b\[[0-9;]*m/g, '')).toMatch(
      /roz:HumanDecision\s+Bash rm -rf build → deny by human after \d+\.\ds \(DESTRUCTIVE_BLOCKED\): keep the build$/,
    );
  });

  it('with the supervisor gone, falls back to standalone at once and says so on stderr; nothing is lost', async () => {
    const s = await startSupervisor();
    const env = { ...s.env };
    await s.sup.close();
    const r = await runHookProcess(env, preToolUse('ls'));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/roz: supervisor unreachable \((ENOENT|ECONNREFUSED)\)/);
    expect(r.ms).toBeLessThan(5_000);
    expect(traceRecords(s.store).filter((t) => t.event === 'PreToolUse')).toHaveLength(1);
  });
});

describe('how long a supervised PreToolUse waits for a human', () => {
  /** The wait the supervisor grants the human (its countdown), for a hook started with `env` on top of the supervisor's. */
  async function humanWait(approvalTimeoutMs: number, env: Record<string, string> = {}): Promise<{ waitMs: number; childEnv: Record<string, string> }> {
    const s = await startSupervisor({ approvalTimeoutMs });
    sup = s.sup;
    const repo = await governedRepo(s.store);
    const hook = runHookProcess({ ...s.env, ...env }, preToolUse('rm -rf build', { cwd: repo }));
    await until(() => s.sup.snapshot().pending.length === 1, 'the ask to reach the supervisor', 10_000);
    const [pending] = s.sup.snapshot().pending;
    s.sup.answer(pending!.id, { action: 'block', reason: 'test over' });
    const r = await hook;
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    return { waitMs: pending!.deadline_at - pending!.received_at, childEnv: s.sup.childEnv() };
  }

  it('follows the approval timeout roz run passes (ROZ_APPROVAL_TIMEOUT_MS): 120 s, far past the standalone 25 s deadline', async () => {
    const { waitMs, childEnv } = await humanWait(120_000);
    expect(childEnv.ROZ_APPROVAL_TIMEOUT_MS).toBe('120000');
    expect(waitMs).toBe(120_000);
  });

  it('is capped by the hook deadline (approval timeout + 5 s) when the supervisor would wait longer than the hook was told', async () => {
    const { waitMs } = await humanWait(120_000, { ROZ_APPROVAL_TIMEOUT_MS: '40000' });
    // deadline = start + 45 s - 1 s (relay margin); the broker denies 0.75 s before it.
    expect(waitMs).toBeGreaterThan(40_000);
    expect(waitMs).toBeLessThan(44_000);
  });

  it('without ROZ_APPROVAL_TIMEOUT_MS the hook keeps its 25 s deadline', async () => {
    const { waitMs } = await humanWait(120_000, { ROZ_APPROVAL_TIMEOUT_MS: '' });
    expect(waitMs).toBeGreaterThan(20_000);
    expect(waitMs).toBeLessThan(24_000);
  });

  it('hooks.json gives PreToolUse and PermissionRequest 600 s (room for the longest --approval-timeout, 580 s + 5 s), Stop the window of a reviewer roz starts (the hook waits for it) and every other hook 30 s', () => {
    const hooks = JSON.parse(readFileSync(join(repoRoot, 'plugin', 'hooks', 'hooks.json'), 'utf8')).hooks as Record<
      string,
      Array<{ hooks: Array<{ timeout: number }> }>
    >;
    for (const [event, groups] of Object.entries(hooks)) {
      for (const g of groups)
        for (const h of g.hooks)
          expect([event, h.timeout]).toEqual([
            event,
            event === 'PreToolUse' || event === 'PermissionRequest' ? 600 : event === 'Stop' ? CLAUDE_STOP_HOOK_TIMEOUT_S : 30,
          ]);
    }
    expect(MAX_APPROVAL_TIMEOUT_S + 5).toBeLessThan(600);
    expect(parseTimeout(undefined)).toBe(DEFAULT_APPROVAL_TIMEOUT_S * 1000);
    expect(DEFAULT_APPROVAL_TIMEOUT_S).toBe(120);
    expect(() => parseTimeout(String(MAX_APPROVAL_TIMEOUT_S + 1))).toThrow(/between 0 and 580/);
  });
});
