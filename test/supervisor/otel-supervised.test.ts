// Telemetry under `roz run`: the client strips OTEL_* from its hooks, so the
// supervisor (which has them) tells its hooks to spool (ROZ_TELEMETRY=on) and
// sends the spool itself; a human decision arrives with its wait time.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { startReceiver, type Receiver } from '../helpers/otlp-receiver.js';
import { bundle, repoRoot } from './helpers/bundle.js';
import { governedRepo, preToolUse, sandboxEnv, SID, until } from './helpers/channel.js';

let hookEntry: string;
beforeAll(async () => {
  hookEntry = await bundle('src/cli/hook-entry.ts');
}, 60_000);

let sup: Supervisor | null = null;
let rx: Receiver | null = null;
afterEach(async () => {
  await sup?.close();
  await rx?.close();
  sup = null;
  rx = null;
});

function hook(env: Record<string, string>, input: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [hookEntry, 'hook', 'pre-tool-use'], { env: { ...env, CLAUDE_PLUGIN_ROOT: join(repoRoot, 'plugin') } });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', () => resolve(stdout));
    child.stdin.end(input);
  });
}

describe('telemetry under a supervisor', () => {
  it('hooks spool without OTEL_*, the supervisor sends; the human decision carries its wait', async () => {
    rx = await startReceiver();
    const { env, store } = sandboxEnv();
    sup = await Supervisor.start({ env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: rx.url }, approvalTimeoutMs: 10_000, log: () => {} });
    const childEnv = sup.childEnv();
    expect(childEnv.ROZ_TELEMETRY).toBe('on');
    const repo = await governedRepo(store);
    // What a hook under the client sees: the supervisor's variables, no OTEL_*.
    const out = hook({ ...env, ...childEnv }, preToolUse('rm -rf build', { cwd: repo }));
    const s = sup;
    await until(() => s.snapshot().pending.length === 1, 'the ask to reach the supervisor', 10_000);
    s.answer(s.snapshot().pending[0]!.id, { action: 'block', reason: 'keep the build' });
    expect(JSON.parse(await out).hookSpecificOutput.permissionDecision).toBe('deny');
    await s.flushTelemetry();
    const r = rx;
    const human = r.logs.find((l) => l.eventName === 'roz.human.decision');
    expect(human?.attributes).toMatchObject({
      'session.id': SID,
      'roz.human.decision': 'deny',
      'roz.code': 'DESTRUCTIVE_BLOCKED',
      'vcs.repository.name': repo.split('/').at(-1),
    });
    expect(Number(human?.attributes['roz.approval.wait_ms'])).toBeGreaterThanOrEqual(0);
    expect(r.logs.find((l) => l.eventName === 'roz.hook.verdict')?.attributes).toMatchObject({ 'roz.verdict': 'ask', 'roz.code': 'DESTRUCTIVE_BLOCKED' });
    expect(r.metrics.find((m) => m.metric === 'roz.approval.wait')).toMatchObject({ count: 1, attributes: { 'roz.human.decision': 'deny' } });
  });
});
