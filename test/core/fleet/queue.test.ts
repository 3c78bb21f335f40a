import { describe, expect, test } from 'vitest';
import type { AgentStatus } from '../../../src/core/fleet/agent-state.js';
import { fleetQueue, nextNeedingYou, resolveRequestId } from '../../../src/core/fleet/queue.js';

const waiting: AgentStatus = { kind: 'waiting', what: 'x', pending: 1 };
const working: AgentStatus = { kind: 'working' };
const prompt: AgentStatus = { kind: 'client-prompt', message: 'p' };

describe('one approval queue across agents', () => {
  test('requests from all agents in arrival order, each naming its agent', () => {
    const q = fleetQueue([
      { agent: 'api', requests: [{ id: 'r3', tool: 'Bash', summary: 'rm -rf dist', since: 30 }] },
      {
        agent: 'web',
        requests: [
          { id: 'r1', tool: 'Write', summary: 'src/a.ts', since: 10 },
          { id: 'r4', tool: 'Bash', summary: 'git push -f', since: 40 },
        ],
      },
      { agent: 'docs', requests: [] },
    ]);
    expect(q.map((r) => `${r.agent}:${r.id}`)).toEqual(['web:r1', 'api:r3', 'web:r4']);
  });

  test('the jump key goes to the agent with the oldest request, never staying put while another waits', () => {
    const agents = [
      { name: 'a', status: waiting, oldestSince: 50 },
      { name: 'b', status: working },
      { name: 'c', status: waiting, oldestSince: 20 },
    ];
    expect(nextNeedingYou(agents, 'b')).toBe('c');
    expect(nextNeedingYou(agents, 'c')).toBe('a');
    expect(nextNeedingYou([{ name: 'a', status: waiting, oldestSince: 1 }], 'a')).toBe('a');
  });

  test("an agent at its client's own prompt is found in list order after the current one", () => {
    const agents = [
      { name: 'a', status: prompt },
      { name: 'b', status: working },
      { name: 'c', status: prompt },
    ];
    expect(nextNeedingYou(agents, 'a')).toBe('c');
    expect(nextNeedingYou(agents, 'c')).toBe('a');
    expect(nextNeedingYou([{ name: 'a', status: working }], null)).toBeNull();
  });

  test('a typed id: exact, or a unique prefix; ambiguity and absence are clear errors', () => {
    const q = fleetQueue([
      {
        agent: 'a',
        requests: [
          { id: 'abc1', tool: 'Bash', summary: '', since: 1 },
          { id: 'abd2', tool: 'Bash', summary: '', since: 2 },
        ],
      },
    ]);
    expect(resolveRequestId(q, 'abc1')).toEqual({ ok: true, id: 'abc1' });
    expect(resolveRequestId(q, 'abd')).toEqual({ ok: true, id: 'abd2' });
    expect(resolveRequestId(q, 'ab')).toMatchObject({ ok: false, error: expect.stringContaining('matches 2 requests') });
    expect(resolveRequestId(q, 'zz')).toMatchObject({ ok: false, error: expect.stringContaining('no pending request zz') });
    expect(resolveRequestId(q, ' ')).toMatchObject({ ok: false });
  });
});
