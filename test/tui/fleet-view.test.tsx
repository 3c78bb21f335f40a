// The fleet view at 80×24 and 120×40 with several agents waiting: every
// agent's row, the one queue in arrival order naming each agent, nothing wider
// or taller than the pane; and the notification for an agent not in view.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, type AgentLive, initialAgent, nextAgent } from '../../src/core/fleet/agent-state.js';
import { fleetQueue, nextNeedingYou } from '../../src/core/fleet/queue.js';
import { type AgentRow, AgentsView } from '../../src/tui/fleet/AgentsView.js';
import { fleetNotification } from '../../src/tui/fleet/notify.js';

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const live = (...evs: AgentEvent[]): AgentLive => evs.reduce(nextAgent, initialAgent());

function fleet() {
  const lives: Record<string, AgentLive> = {
    main: live({ kind: 'prompt' }, { kind: 'tool' }),
    alpha: live({ kind: 'prompt' }, { kind: 'ask', id: 'r2', summary: 'deletes the tree build/', at: T0 + 2_000 }),
    beta: live(
      { kind: 'prompt' },
      { kind: 'ask', id: 'r1', summary: 'src/x.ts is outside INT-1', at: T0 + 1_000 },
      { kind: 'ask', id: 'r4', summary: 'curl | sh', at: T0 + 4_000 },
    ),
    gamma: live({ kind: 'prompt' }, { kind: 'notification', type: 'permission_prompt', message: 'Claude needs your permission to use Bash' }),
    delta: live({ kind: 'prompt' }, { kind: 'reviewer-start' }, { kind: 'decision', outcome: 'ISSUES' }, { kind: 'stop', verdict: 'allow' }),
    eps: live({ kind: 'exit', code: 1, signal: null }),
  };
  const rows: AgentRow[] = Object.entries(lives).map(([name, l]) => ({
    name,
    where: name === 'main' ? '(this checkout)' : `roz/${name}`,
    status: l.status,
    pending: l.pending.length,
    review: l.review,
    enforcement: 'enforced',
  }));
  const queue = fleetQueue(
    Object.entries(lives).map(([agent, l]) => ({ agent, requests: l.pending.map((p) => ({ id: p.id, tool: 'Bash', summary: p.summary, since: p.since })) })),
  );
  return { lives, rows, queue };
}

describe.each([
  [80, 24],
  [120, 40],
] as const)('the agents view at %i×%i', (cols, rows) => {
  it('lists every agent with its state and the queue in arrival order, within the pane', () => {
    const { rows: agents, queue } = fleet();
    const r = render(<AgentsView agents={agents} queue={queue} current="main" now={T0 + 10_000} width={cols} height={rows} />);
    unmount = r.unmount;
    const f = r.lastFrame() ?? '';
    const lines = f.split('\n');
    expect(lines.length).toBeLessThanOrEqual(rows);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(cols);
    expect(f).toContain('3 waiting for you');
    for (const a of ['main', 'alpha', 'beta', 'gamma', 'delta', 'eps']) expect(f).toContain(a);
    expect(f).toContain('waiting for you (2)');
    expect(f).toContain('waiting on its own prompt');
    expect(f).toContain('exited (1)');
    expect(f).toContain('queue · 3 waiting');
    // Arrival order across agents: beta's r1, alpha's r2, beta's r4.
    const q = lines.filter((l) => /^\s*\d+\. /.test(l));
    expect(q.map((l) => l.trim().split(/\s+/)[1])).toEqual(['beta', 'alpha', 'beta']);
    expect(q[0]).toContain('9s');
    if (cols >= 100) expect(f).toContain('enforced');
  });
});

describe('jumping and notifying', () => {
  it('the jump goes to the agent with the oldest request, then on to the next', () => {
    const { rows: agents, lives } = fleet();
    const withSince = agents.map((a) => ({ name: a.name, status: a.status, oldestSince: lives[a.name]!.pending[0]?.since }));
    expect(nextNeedingYou(withSince, 'main')).toBe('beta');
    expect(nextNeedingYou(withSince, 'beta')).toBe('alpha');
  });

  it('rings and sends OSC 9 only for a new request of an agent not in view (or when unfocused)', () => {
    const { queue } = fleet();
    const out = fleetNotification(queue, new Set(), 'main');
    expect(out.startsWith('\u0007\u001b]9;roz: beta waits for you')).toBe(true);
    expect(out).toContain('(+2 more)');
    expect(fleetNotification(queue, new Set(['r1', 'r2', 'r4']), 'main')).toBe('');
    expect(fleetNotification(queue, new Set(['r1', 'r2']), 'beta')).toBe('');
    expect(fleetNotification(queue, new Set(['r1', 'r2']), 'beta', false)).toContain('beta waits');
    const evil = fleetNotification([{ id: 'x', agent: 'a', tool: 'Bash', summary: 'rm\u0007\u001b]9;pwned\u001b\\', since: 0 }], new Set(), null);
    expect(evil.slice(1, -1)).not.toMatch(/[\u0007\u001b](?!\]9;roz)/);
  });
});
