// The supervisor channel over a real Unix socket: privacy, refusals, the
// human gate, throughput, and every way a peer can go away.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES, PROTOCOL_VERSION } from '../../src/supervisor/hooks/channel-protocol.js';
import { CONNECT_TIMEOUT_MS, HEARTBEAT_GAP_MS, type Relayed } from '../../src/supervisor/hooks/channel-client.js';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { bundle } from './helpers/bundle.js';
import { ASK, preToolUse, relay, sandboxEnv, SID, sendRaw, startSupervisor, traceRecords, until } from './helpers/channel.js';

let current: Supervisor | null = null;
async function supervisor(opts?: Parameters<typeof startSupervisor>[0]) {
  const s = await startSupervisor(opts);
  current = s.sup;
  return s;
}
afterEach(async () => {
  await current?.close();
  current = null;
});

const frame = (token: string, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ v: PROTOCOL_VERSION, id: 'f1', token, event: 'PreToolUse', input: JSON.parse(preToolUse('ls')), verdict: { kind: 'none' }, ...extra })}\n`;

describe('supervisor channel', () => {
  it('lives in a private directory: dir 0700, socket 0600, path and token in the child env', async () => {
    const { sup, env } = await supervisor();
    expect(statSync(sup.socketDir).mode & 0o777).toBe(0o700);
    expect(statSync(sup.socketPath).mode & 0o777).toBe(0o600);
    expect(env.ROZ_SOCKET).toBe(sup.socketPath);
    expect(env.ROZ_TOKEN).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a non-ask verdict is only a notification: acked at once, shown in the live trace, output unchanged', async () => {
    const { sup, env } = await supervisor();
    const r = await relay(env, { kind: 'allow', reason: 'fine' }, preToolUse('ls -la'));
    expect(r.outcome).toBe('notified');
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('allow');
    expect(sup.events.last()).toMatchObject({ event: 'PreToolUse', tool_name: 'Bash', summary: 'ls -la', session_id: SID });
  });

  it('an ask waits for the human: approve once prints allow and records a human decision with its wait', async () => {
    const { sup, env, store } = await supervisor();
    const pending = relay(env, ASK);
    await until(() => sup.snapshot().pending.length === 1, 'the approval to be pending');
    expect(sup.snapshot().pending[0]).toMatchObject({ tool_name: 'Bash', code: 'DESTRUCTIVE_BLOCKED', tool_input: { command: 'rm -rf build' } });
    expect(sup.answer(sup.snapshot().pending[0]!.id, { action: 'approve-once' })).toBe(true);
    const r = await pending;
    expect(r.outcome).toBe('answered');
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'allow' });
    const [decision] = traceRecords(store).filter((t) => t.event === 'roz:HumanDecision');
    expect(decision).toMatchObject({
      decided_by: 'human',
      decision: 'allow',
      scope: 'once',
      tool_name: 'Bash',
      code: 'DESTRUCTIVE_BLOCKED',
      tool_use_id: 'toolu_x',
    });
    expect(decision!.wait_ms).toEqual(expect.any(Number));
  });

  it('nobody answering denies after the configured timeout, and says why', async () => {
    const { env, store } = await supervisor({ approvalTimeoutMs: 300 });
    const r = await relay(env, ASK);
    expect(r.outcome).toBe('answered');
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toMatch(/no human answered/);
    expect(traceRecords(store).find((t) => t.event === 'roz:HumanDecision')).toMatchObject({ decided_by: 'timeout', decision: 'deny' });
  });

  it('a wrong token is refused and logged; the hook keeps its own verdict and says so', async () => {
    const { sup, env, logged } = await supervisor();
    const r = await relay({ ...env, ROZ_TOKEN: 'not-the-token' }, ASK);
    expect(r.outcome).toBe('fallback');
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
    expect(r.stderr).toMatch(/roz: supervisor refused the event \(BAD_TOKEN/);
    expect(sup.snapshot().pending).toHaveLength(0);
    expect(logged.join('\n')).toMatch(/BAD_TOKEN/);
  });

  it('malformed JSON, an unknown version and a frame without required fields are refused', async () => {
    const { sup, env, logged } = await supervisor();
    const bad = [
      ['not json\n', 'BAD_JSON'],
      [frame(env.ROZ_TOKEN!, { v: 99 }), 'BAD_VERSION'],
      [`${JSON.stringify({ v: PROTOCOL_VERSION, id: 'x', token: env.ROZ_TOKEN })}\n`, 'BAD_FRAME'],
    ] as const;
    for (const [data, code] of bad) {
      const [reply] = await sendRaw(sup.socketPath, data);
      expect(JSON.parse(reply!)).toMatchObject({ type: 'error', code });
    }
    expect(sup.snapshot().refused).toBe(3);
    expect(logged).toHaveLength(3);
    expect(sup.events.tail(10).filter((e) => e.event === 'PreToolUse')).toHaveLength(0);
  });

  it('an oversized frame is refused before it is buffered whole', async () => {
    const { sup, logged } = await supervisor();
    const lines = await sendRaw(sup.socketPath, Buffer.alloc(MAX_FRAME_BYTES + 10, 'a'), { untilClose: true });
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'error', code: 'TOO_LARGE' });
    expect(logged.join()).toMatch(/TOO_LARGE/);
  });

  it('a frame cannot approve anything: an answer-shaped frame is refused and the approval stays pending', async () => {
    const { sup, env } = await supervisor();
    const waiting = relay(env, ASK);
    await until(() => sup.snapshot().pending.length === 1, 'pending approval');
    const id = sup.snapshot().pending[0]!.id;
    for (const forged of [
      frame(env.ROZ_TOKEN!, { id, type: 'answer', decision: 'allow' }),
      `${JSON.stringify({ v: PROTOCOL_VERSION, id, type: 'answer', decision: 'allow', reason: 'x' })}\n`,
    ]) {
      const [reply] = await sendRaw(sup.socketPath, forged);
      expect(JSON.parse(reply!)).toMatchObject({ type: 'error' });
    }
    // A well-formed allow verdict for the same tool call is just another event.
    await relay(env, { kind: 'allow' });
    expect(sup.snapshot().pending.map((p) => p.id)).toEqual([id]);
    sup.answer(id, { action: 'block', reason: 'no' });
    expect(JSON.parse((await waiting).stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('keeps up with 1,000 events per second and keeps memory bounded', async () => {
    // Hooks are separate processes; what must keep up is the supervisor, so
    // 1,000 frames arrive at once over 10 connections and all must be acked in a second.
    const { sup, env } = await supervisor({ ringCapacity: 500 });
    const conns = Array.from({ length: 10 }, (_, c) =>
      Array.from({ length: 100 }, (_, i) => frame(env.ROZ_TOKEN!, { id: `c${c}-${i}`, input: JSON.parse(preToolUse(`echo ${c * 100 + i}`)) })).join(''),
    );
    const started = Date.now();
    const replies = await Promise.all(conns.map((data) => sendRaw(sup.socketPath, data, { untilReplies: 100 })));
    const elapsed = Date.now() - started;
    expect(replies.flat().map((l) => JSON.parse(l).type)).toEqual(Array(1_000).fill('ack'));
    expect(elapsed).toBeLessThan(1_000);
    expect(sup.events.total).toBe(1_000);
    expect(sup.events.size).toBe(500);
    expect(sup.events.last()?.summary).toMatch(/^echo \d+$/);
  });

  it('a hook relay round trip is quick enough to go unnoticed on every tool call', async () => {
    const { env } = await supervisor();
    const started = Date.now();
    for (let i = 0; i < 50; i++) expect((await relay(env, { kind: 'none' })).outcome).toBe('notified');
    expect((Date.now() - started) / 50).toBeLessThan(50);
  });

  it('a hook that disconnects mid-request leaves no pending approval behind, and the next hook is served', async () => {
    const { sup, env, store } = await supervisor();
    const f = frame(env.ROZ_TOKEN!, { id: 'gone', verdict: ASK, input: JSON.parse(preToolUse('rm -rf build')) });
    await sendRaw(sup.socketPath, f); // reads the 'pending' reply, then hangs up
    await until(
      () => sup.snapshot().pending.length === 0 && traceRecords(store).some((t) => t.decision === 'abandoned'),
      'the abandoned approval to be dropped',
    );
    expect((await relay(env, { kind: 'none' })).outcome).toBe('notified');
  });

  it('with no supervisor listening, the hook falls back within the connect bound and says so', async () => {
    const started = Date.now();
    const r = await relay({ ROZ_SOCKET: '/nonexistent/roz.sock', ROZ_TOKEN: 't' }, ASK);
    expect(r.outcome).toBe('fallback');
    expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS + 500);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
    expect(r.stderr).toMatch(/roz: supervisor unreachable \(ENOENT\).*client will ask/);
  });
});

describe('supervisor killed mid-approval', () => {
  let entry: string;
  beforeAll(async () => {
    entry = await bundle('test/supervisor/fixtures/supervisor-entry.ts');
  }, 60_000);

  /** A supervisor in its own process, with one hook waiting on a human's answer. */
  async function supervisorAwaitingHuman(): Promise<{ child: ChildProcess; waiting: Promise<Relayed & { stdout: string }> }> {
    const { env } = sandboxEnv();
    const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const childEnv = JSON.parse((await lines.next()).value as string) as Record<string, string>;
    const waiting = relay(childEnv, ASK);
    expect((await lines.next()).value).toBe('PENDING 1');
    return { child, waiting };
  }

  it("the waiting hook falls back to the engine's own ask at once: the client's dialog decides", async () => {
    const { child, waiting } = await supervisorAwaitingHuman();
    const killedAt = Date.now();
    child.kill('SIGKILL');
    const r = await waiting;
    expect(r.outcome).toBe('fallback');
    expect(Date.now() - killedAt).toBeLessThan(HEARTBEAT_GAP_MS);
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'ask',
      permissionDecisionReason: '[DESTRUCTIVE_BLOCKED] rm -rf deletes files',
    });
    expect(r.stderr).toMatch(/roz: supervisor (closed the connection|unreachable).*client will ask/);
  });

  it('a supervisor that hangs (stops reading and beating) is given up on after the heartbeat gap', async () => {
    const { child, waiting } = await supervisorAwaitingHuman();
    const stoppedAt = Date.now();
    child.kill('SIGSTOP');
    try {
      const r = await waiting;
      expect(r.outcome).toBe('fallback');
      expect(Date.now() - stoppedAt).toBeLessThan(HEARTBEAT_GAP_MS + 1_500);
      expect(r.stderr).toMatch(/stopped responding/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
