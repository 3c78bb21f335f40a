// The real hook process (src/cli/hook-entry.ts) under `roz run`: it runs the
// engine as usual, then tells the supervisor; with no supervisor it behaves
// exactly as standalone, within a bounded time, and says so.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { bundle, repoRoot } from './helpers/bundle.js';
import { preToolUse, SID, startSupervisor, traceRecords, until } from './helpers/channel.js';
import { FileSessionStore } from '../../src/store/file-store.js';

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
    const repo = mkdtempSync(join(tmpdir(), 'roz-governed-'));
    mkdirSync(join(repo, '.orchestration'));
    writeFileSync(join(repo, '.orchestration', 'active_intents.yaml'), 'active_intents:\n  - id: INT-1\n    name: cleanup\n    status: IN_PROGRESS\n    owned_scope: ["build/**"]\n');
    await new FileSessionStore(s.store).update(SID, new Date(), (st) => {
      st.governance = { intent_id: 'INT-1', selected_at: new Date().toISOString(), selected_via: 'cli', files: {}, mutations: 0, model_id: null, project_root: repo };
      return { value: null, trace: [] };
    });
    const hook = runHookProcess(s.env, preToolUse('rm -rf build', { cwd: repo }));
    await until(() => s.sup.snapshot().pending.length === 1, 'the ask to reach the supervisor', 10_000);
    const [pending] = s.sup.snapshot().pending;
    expect(pending).toMatchObject({ code: 'DESTRUCTIVE_BLOCKED', tool_input: { command: 'rm -rf build' } });
    s.sup.answer(pending!.id, { action: 'block', reason: 'keep the build' });
    const r = await hook;
    expect(JSON.parse(r.stdout).hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'roz: blocked by the human: keep the build' });
    const trace = traceRecords(s.store);
    expect(trace.find((t) => t.event === 'PreToolUse')).toMatchObject({ verdict: { kind: 'ask', code: 'DESTRUCTIVE_BLOCKED' } });
    expect(trace.find((t) => t.event === 'roz:HumanDecision')).toMatchObject({ decided_by: 'human', decision: 'deny', reason: 'keep the build' });
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
