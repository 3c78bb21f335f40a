import { describe, expect, test } from 'vitest';
import { type AgentEvent, type AgentLive, detachLine, initialAgent, needsHuman, nextAgent, statusLabel } from '../../../src/core/fleet/agent-state.js';
import { agentEventOf } from '../../../src/core/fleet/hook-event.js';

function run(...events: AgentEvent[]): AgentLive {
  return events.reduce(nextAgent, initialAgent());
}

describe('an agent state fed by hook events', () => {
  test('starting until the client says it is up: SessionStart makes it idle (waiting for input), not working', () => {
    expect(initialAgent().status).toEqual({ kind: 'starting' });
    const up = agentEventOf('SessionStart', { source: 'startup' }, { kind: 'none' });
    expect(up).toEqual({ kind: 'session-start' });
    expect(run(up!).status).toEqual({ kind: 'idle' });
    // After /compact the SessionStart comes mid-turn: it stays working.
    expect(run({ kind: 'prompt' }, up!).status).toEqual({ kind: 'working' });
  });

  test('a prompt makes it work; a let-through stop says the turn finished', () => {
    expect(run({ kind: 'prompt' }).status).toEqual({ kind: 'working' });
    expect(run({ kind: 'prompt' }, { kind: 'stop', verdict: 'allow' }).status).toEqual({ kind: 'finished' });
    // A blocked stop keeps it working: the agent has been sent back to work.
    expect(run({ kind: 'prompt' }, { kind: 'stop', verdict: 'block' }).status).toEqual({ kind: 'working' });
  });

  test('a roz ask puts it in "waiting for you", naming the oldest request and how many wait', () => {
    const s = run({ kind: 'prompt' }, { kind: 'ask', id: 'a1', summary: 'rm -rf build', at: 1 }, { kind: 'ask', id: 'a2', summary: 'Write /x', at: 2 });
    expect(s.status).toEqual({ kind: 'waiting', what: 'rm -rf build', pending: 2 });
    expect(needsHuman(s.status)).toBe(true);
    expect(statusLabel(s.status)).toBe('waiting for you (2)');
    const one = nextAgent(s, { kind: 'answered', id: 'a1' });
    expect(one.status).toEqual({ kind: 'waiting', what: 'Write /x', pending: 1 });
    expect(nextAgent(one, { kind: 'answered', id: 'a2' }).status).toEqual({ kind: 'working' });
  });

  test('the same ask twice counts once; answering an unknown id changes nothing', () => {
    const s = run({ kind: 'ask', id: 'a1', summary: 'x', at: 1 }, { kind: 'ask', id: 'a1', summary: 'x', at: 1 }, { kind: 'answered', id: 'zz' });
    expect(s.pending).toHaveLength(1);
  });

  test("the client's own permission prompt is its own state, cleared when a tool runs; idle_prompt means idle", () => {
    const s = run({ kind: 'prompt' }, { kind: 'notification', type: 'permission_prompt', message: 'Claude needs your permission' });
    expect(s.status).toEqual({ kind: 'client-prompt', message: 'Claude needs your permission' });
    expect(needsHuman(s.status)).toBe(true);
    expect(nextAgent(s, { kind: 'tool' }).status).toEqual({ kind: 'working' });
    expect(nextAgent(s, { kind: 'notification', type: 'idle_prompt', message: 'waiting' }).status).toEqual({ kind: 'idle' });
  });

  test('a roz request outranks the client prompt, the review and work', () => {
    const s = run(
      { kind: 'prompt' },
      { kind: 'reviewer-start' },
      { kind: 'notification', type: 'permission_prompt', message: 'p' },
      { kind: 'ask', id: 'a', summary: 's', at: 1 },
    );
    expect(s.status.kind).toBe('waiting');
  });

  test('review: reviewing while the reviewer runs, then approved or ISSUES open once the turn ends', () => {
    const reviewing = run({ kind: 'prompt' }, { kind: 'stop', verdict: 'block' }, { kind: 'reviewer-start' });
    expect(reviewing.status).toEqual({ kind: 'reviewing' });
    const approved = nextAgent(nextAgent(reviewing, { kind: 'decision', outcome: 'COMPLETE' }), { kind: 'stop', verdict: 'allow' });
    expect(approved.status).toEqual({ kind: 'approved' });
    const issues = nextAgent(nextAgent(reviewing, { kind: 'decision', outcome: 'ISSUES' }), { kind: 'stop', verdict: 'allow' });
    expect(statusLabel(issues.status)).toBe('ISSUES open');
    // A new prompt after the approval is work again; an armed review forgets the old outcome.
    expect(nextAgent(approved, { kind: 'prompt' }).status).toEqual({ kind: 'working' });
    expect(nextAgent(nextAgent(approved, { kind: 'review-armed' }), { kind: 'stop', verdict: 'allow' }).status).toEqual({ kind: 'finished' });
  });

  test('after a turn, the list says how it ended: blocked by you, refused by roz, finished; the next prompt forgets it', () => {
    const ask = { kind: 'ask', id: 'a1', summary: 'Write x', at: 1 } as const;
    const blocked = run({ kind: 'prompt' }, ask, { kind: 'answered', id: 'a1', blocked: true }, { kind: 'stop', verdict: 'allow' });
    expect(statusLabel(blocked.status)).toBe('blocked by you');
    // A request that left the queue otherwise (approved, timed out, answered in the pane) is no block.
    expect(run({ kind: 'prompt' }, ask, { kind: 'answered', id: 'a1' }, { kind: 'stop', verdict: 'allow' }).status).toEqual({ kind: 'finished' });
    const denyFrame = agentEventOf('PreToolUse', {}, { kind: 'deny' });
    expect(denyFrame).toEqual({ kind: 'refused' });
    const refused = run({ kind: 'prompt' }, denyFrame!, { kind: 'stop', verdict: 'allow' });
    expect(statusLabel(refused.status)).toBe('refused by roz');
    expect(nextAgent(refused, { kind: 'prompt' }).status).toEqual({ kind: 'working' });
    expect(nextAgent(nextAgent(refused, { kind: 'prompt' }), { kind: 'stop', verdict: 'allow' }).status).toEqual({ kind: 'finished' });
    // A review outcome says more than how the turn ended; before any turn it is idle.
    const reviewed = run({ kind: 'prompt' }, { kind: 'decision', outcome: 'COMPLETE' }, { kind: 'stop', verdict: 'allow' });
    expect(reviewed.status).toEqual({ kind: 'approved' });
    expect(run({ kind: 'session-start' }).status).toEqual({ kind: 'idle' });
  });

  test('a PostToolUseFailure is a tool that ran (the client dialog was answered)', () => {
    const s = run({ kind: 'prompt' }, { kind: 'notification', type: 'permission_prompt', message: 'Claude needs your permission' });
    expect(s.status.kind).toBe('client-prompt');
    expect(nextAgent(s, agentEventOf('PostToolUseFailure', {}, { kind: 'none' })!).status).toEqual({ kind: 'working' });
  });

  test('a tripped breaker shows as such once the agent stops', () => {
    const s = run({ kind: 'prompt' }, { kind: 'stop', verdict: 'allow', tripped: true });
    expect(s.status).toEqual({ kind: 'breaker' });
    expect(statusLabel(s.status)).toBe('breaker tripped');
  });

  test('exit wins over everything, drops its requests, and late events cannot revive it', () => {
    const s = run({ kind: 'prompt' }, { kind: 'ask', id: 'a', summary: 's', at: 1 }, { kind: 'exit', code: 3, signal: null });
    expect(s.status).toEqual({ kind: 'exited', code: 3, signal: null });
    expect(s.pending).toEqual([]);
    expect(statusLabel(s.status)).toBe('exited (3)');
    expect(nextAgent(s, { kind: 'prompt' })).toBe(s);
    expect(statusLabel(run({ kind: 'exit', code: null, signal: 'SIGKILL' }).status)).toBe('exited (SIGKILL)');
  });

  test('the transition never mutates the state it was given', () => {
    const before = run({ kind: 'prompt' }, { kind: 'ask', id: 'a', summary: 's', at: 1 });
    const copy = structuredClone(before);
    nextAgent(before, { kind: 'answered', id: 'a' });
    nextAgent(before, { kind: 'exit', code: 0, signal: null });
    expect(before).toEqual(copy);
  });
});

describe('the line a detached window says', () => {
  test('how many agents go on, how many wait, how to come back', () => {
    const run = (...evs: AgentEvent[]) => evs.reduce(nextAgent, initialAgent()).status;
    const working = run({ kind: 'prompt' });
    const waiting = run({ kind: 'prompt' }, { kind: 'ask', id: 'r1', summary: 's', at: 1 });
    const exited = run({ kind: 'exit', code: 0, signal: null });
    expect(detachLine([working, waiting, working, exited])).toBe('roz: 3 agents go on in the background (1 waiting) — `roz attach` to come back');
    expect(detachLine([working])).toBe('roz: 1 agent goes on in the background — `roz attach` to come back');
    expect(detachLine([exited])).toBe('roz: no agent runs — `roz attach` to come back');
  });
});

describe('an agent the human stopped', () => {
  test('reads "stopped", whatever signal ended it; an exit nobody asked for still shows its code or signal', () => {
    const stopped = nextAgent(initialAgent(), { kind: 'exit', code: null, signal: 'SIGTERM', stopped: true });
    expect(stopped.status).toEqual({ kind: 'exited', code: null, signal: 'SIGTERM', stopped: true });
    expect(statusLabel(stopped.status)).toBe('stopped');
    expect(statusLabel(nextAgent(initialAgent(), { kind: 'exit', code: null, signal: 'SIGTERM' }).status)).toBe('exited (SIGTERM)');
    expect(statusLabel(nextAgent(initialAgent(), { kind: 'exit', code: 3, signal: null }).status)).toBe('exited (3)');
  });
});
