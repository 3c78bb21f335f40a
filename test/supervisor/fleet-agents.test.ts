// Several agents in one supervisor, over the real Unix socket: which agent
// sent a frame is known by the token it carried (each agent's launch has its
// own), never by the session id, cwd or name inside the frame.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/store/file-store.js';
import { renderSessionStats } from '../../src/tui/stats-screen.js';
import { Supervisor as SupervisorClass } from '../../src/supervisor/supervisor.js';
import { repoRoot } from './helpers/bundle.js';
import { sandboxEnv } from './helpers/channel.js';
import { PROTOCOL_VERSION } from '../../src/supervisor/hooks/channel-protocol.js';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { ASK, preToolUse, relay, sendRaw, startSupervisor, until } from './helpers/channel.js';

let current: Supervisor | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

async function twoAgents() {
  const s = await startSupervisor();
  current = s.sup;
  const b = s.sup.addAgent('b');
  return { ...s, envA: s.env, envB: { ...s.env, ...b.env } };
}

const frame = (token: string, event: string, input: Record<string, unknown>, id = `f-${Math.random().toString(36).slice(2)}`) =>
  `${JSON.stringify({ v: PROTOCOL_VERSION, id, token, event, input, verdict: { kind: 'none' } })}\n`;

const stateOf = (sup: Supervisor, name: string) => sup.agents().find((a) => a.name === name)!.live;

describe('a fleet in one supervisor', () => {
  it('gives each agent its own token; both reach the socket; an unknown token is refused', async () => {
    const { sup, envA, envB } = await twoAgents();
    expect(envA.ROZ_TOKEN).not.toBe(envB.ROZ_TOKEN);
    expect(envB.ROZ_SOCKET).toBe(sup.socketPath);
    expect(sup.agents().map((a) => a.name)).toEqual(['main', 'b']);

    const ok = await sendRaw(sup.socketPath, frame(envB.ROZ_TOKEN!, 'UserPromptSubmit', { session_id: 'sb', prompt: 'go' }));
    expect(JSON.parse(ok[0]!).type).toBe('ack');
    expect(stateOf(sup, 'b').status.kind).toBe('working');
    expect(stateOf(sup, 'main').status.kind).toBe('starting');

    const forged = await sendRaw(sup.socketPath, frame('f'.repeat(64), 'UserPromptSubmit', { session_id: 'sb', prompt: 'x' }), { untilClose: true });
    expect(JSON.parse(forged[0]!)).toMatchObject({ type: 'error', code: 'BAD_TOKEN' });
    expect(sup.snapshot().refused).toBe(1);
  });

  it("a frame naming another agent's session moves only the sender's state", async () => {
    const { sup, envA, envB } = await twoAgents();
    // b is seen in session sb, then main sends frames claiming to be sb (and b's cwd).
    await sendRaw(sup.socketPath, frame(envB.ROZ_TOKEN!, 'Notification', { session_id: 'sb', notification_type: 'idle_prompt', message: '' }));
    expect(stateOf(sup, 'b').status.kind).toBe('idle');
    await sendRaw(sup.socketPath, frame(envA.ROZ_TOKEN!, 'UserPromptSubmit', { session_id: 'sb', cwd: '/b/worktree', agent: 'b', prompt: 'x' }));
    await sendRaw(
      sup.socketPath,
      frame(envA.ROZ_TOKEN!, 'Notification', { session_id: 'sb', notification_type: 'permission_prompt', message: 'Claude needs your permission' }),
    );
    expect(stateOf(sup, 'b').status.kind).toBe('idle');
    expect(stateOf(sup, 'main').status).toEqual({ kind: 'client-prompt', message: 'Claude needs your permission' });
    expect(sup.agents().find((a) => a.name === 'b')!.sessionId).toBe('sb');
  });

  it("queues asks from two agents in arrival order, each naming its agent; answers clear only that agent's wait", async () => {
    const { sup, envA, envB } = await twoAgents();
    const fromB = relay(envB, ASK, preToolUse('rm -rf b-build', { session_id: 'sb' }));
    await until(() => sup.queue().length === 1, 'b to wait');
    const fromA = relay(envA, ASK, preToolUse('rm -rf a-build', { session_id: 'sb' }));
    await until(() => sup.queue().length === 2, 'main to wait');
    const q = sup.queue();
    expect(q.map((r) => r.agent)).toEqual(['b', 'main']);
    expect(
      sup
        .snapshot()
        .pending.map((p) => p.agent_name)
        .sort(),
    ).toEqual(['b', 'main']);
    expect(stateOf(sup, 'b').status).toMatchObject({ kind: 'waiting', pending: 1 });
    expect(stateOf(sup, 'main').status).toMatchObject({ kind: 'waiting', pending: 1 });

    expect(sup.answer(q[0]!.id, { action: 'block', reason: 'no' })).toBe(true);
    expect((await fromB).outcome).toBe('answered');
    expect(stateOf(sup, 'b').status.kind).not.toBe('waiting');
    expect(stateOf(sup, 'main').status.kind).toBe('waiting');
    expect(sup.answer(q[1]!.id, { action: 'approve-once' })).toBe(true);
    expect((await fromA).outcome).toBe('answered');
    expect(stateOf(sup, 'main').status.kind).not.toBe('waiting');
  });

  it("one agent's approve-for-session does not cover another agent naming the same session", async () => {
    const { sup, envA, envB } = await twoAgents();
    const first = relay(envA, ASK, preToolUse('rm -rf build', { session_id: 'shared' }));
    await until(() => sup.queue().length === 1, 'main to wait');
    sup.answer(sup.queue()[0]!.id, { action: 'approve-session' });
    await first;
    // main's rule answers main's repeat at once...
    expect((await relay(envA, ASK, preToolUse('rm -rf build', { session_id: 'shared' }))).outcome).toBe('answered');
    // ...but b, claiming the same session, still waits for the human.
    const fromB = relay(envB, ASK, preToolUse('rm -rf build', { session_id: 'shared' }));
    await until(() => sup.queue().length === 1, 'b to wait');
    expect(sup.queue()[0]!.agent).toBe('b');
    sup.answer(sup.queue()[0]!.id, { action: 'block', reason: 'no' });
    await fromB;
  });

  it("a frame reusing a waiting request's frame id cannot replace it; the id the human types is the supervisor's own, short", async () => {
    const { sup, envA, envB } = await twoAgents();
    const raw = (token: string, cmd: string) =>
      `${JSON.stringify({ v: PROTOCOL_VERSION, id: 'same-frame-id', token, event: 'PreToolUse', input: JSON.parse(preToolUse(cmd, { session_id: 'sb' })), verdict: ASK })}\n`;
    const fromB = sendRaw(sup.socketPath, raw(envB.ROZ_TOKEN!, 'rm -rf b'), { untilReplies: 2 });
    await until(() => sup.queue().length === 1, 'b to wait');
    const id = sup.queue()[0]!.id;
    // Typed by the human (roz approve ID): 4 characters, no look-alikes; not the hook's frame id.
    expect(id).toMatch(/^[2-9a-hjkmnp-z]{4}$/);
    const r = await sendRaw(sup.socketPath, raw(envA.ROZ_TOKEN!, 'rm -rf a'));
    expect(JSON.parse(r[0]!)).toMatchObject({ type: 'error', code: 'DUPLICATE_ID' });
    expect(sup.queue()).toHaveLength(1);
    expect(sup.queue()[0]).toMatchObject({ id, agent: 'b' });
    // A frame that names the short id is a request of its own, never b's.
    const named = `${JSON.stringify({ v: PROTOCOL_VERSION, id, token: envA.ROZ_TOKEN, event: 'PreToolUse', input: JSON.parse(preToolUse('rm -rf a')), verdict: ASK })}\n`;
    expect(JSON.parse((await sendRaw(sup.socketPath, named))[0]!)).toMatchObject({ id, type: 'pending' });
    expect(sup.queue().find((q) => q.id === id)).toMatchObject({ agent: 'b' });
    sup.answer(id, { action: 'block', reason: 'no' });
    const replies = (await fromB).map((l) => JSON.parse(l) as { id: string; type: string });
    expect(replies[0]).toMatchObject({ id: 'same-frame-id', type: 'pending' });
    await until(() => sup.queue().length === 0, "b's request answered (and a's abandoned)");
  });

  it("every live event names the agent whose token sent it, and each session's stats the agent that had it", async () => {
    const { sup, envA, envB, store } = await twoAgents();
    await sendRaw(sup.socketPath, frame(envB.ROZ_TOKEN!, 'UserPromptSubmit', { session_id: 'sb', prompt: 'go' }));
    await sendRaw(sup.socketPath, frame(envA.ROZ_TOKEN!, 'UserPromptSubmit', { session_id: 'sa', prompt: 'go' }));
    expect(sup.events.tail(2).map((e) => [e.session_id, e.agent])).toEqual([
      ['sb', 'b'],
      ['sa', 'main'],
    ]);
    for (const sid of ['sa', 'sb']) await new FileSessionStore(store).update(sid, new Date(), () => ({ value: null, trace: [] }));
    expect(sup.stats('sb')).toMatchObject({ session_id: 'sb', agent: 'b' });
    expect(sup.stats('sa')).toMatchObject({ session_id: 'sa', agent: 'main' });
    // What the end of the run prints for each session: its agent first.
    expect(renderSessionStats(sup.stats('sb'), 100)).toMatch(/^agent b · session sb/);
  });

  it('an exited agent stays exited and its token is refused', async () => {
    const { sup, envB } = await twoAgents();
    sup.agentExited('b', 3, null);
    expect(stateOf(sup, 'b').status).toEqual({ kind: 'exited', code: 3, signal: null });
    const r = await sendRaw(sup.socketPath, frame(envB.ROZ_TOKEN!, 'UserPromptSubmit', { session_id: 'sb' }), { untilClose: true });
    expect(JSON.parse(r[0]!)).toMatchObject({ type: 'error', code: 'BAD_TOKEN' });
    expect(stateOf(sup, 'b').status.kind).toBe('exited');
  });
});

describe('a fleet over http hooks', () => {
  it('attributes each request by its bearer token; an unknown or revoked token gets 401', async () => {
    const { env } = sandboxEnv();
    const sup = await SupervisorClass.start({
      env: { ...env, CLAUDE_PLUGIN_ROOT: join(repoRoot, 'plugin') },
      approvalTimeoutMs: 10_000,
      httpHooks: true,
      log: () => {},
    });
    current = sup;
    const b = sup.addAgent('b');
    const post = async (token: string, event: string, body: Record<string, unknown>) =>
      (await fetch(`${sup.httpUrl}/hook/${event}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).status;
    const prompt = { session_id: 'sa', cwd: env.HOME, hook_event_name: 'UserPromptSubmit', prompt: 'hello' };
    expect(await post(b.token, 'UserPromptSubmit', prompt)).toBe(200);
    expect(stateOf(sup, 'b').status.kind).toBe('working');
    expect(stateOf(sup, 'main').status.kind).toBe('starting');
    expect(await post('0'.repeat(64), 'UserPromptSubmit', prompt)).toBe(401);
    sup.agentExited('b', 0, null);
    expect(await post(b.token, 'UserPromptSubmit', prompt)).toBe(401);
    expect(await post(sup.token, 'UserPromptSubmit', prompt)).toBe(200);
    expect(stateOf(sup, 'main').status.kind).toBe('working');
  });
});
