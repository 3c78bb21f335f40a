// The real hook process (src/cli/hook-entry.ts) under `roz run`: it runs the
// engine as usual, then tells the supervisor; with no supervisor it behaves
// exactly as standalone, within a bounded time, and says so.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { bundle, repoRoot } from './helpers/bundle.js';
import { preToolUse, SID, startSupervisor, traceRecords } from './helpers/channel.js';

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
