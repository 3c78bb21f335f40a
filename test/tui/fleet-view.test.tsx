// The fleet view at 80×24 and 120×40 with several agents waiting: every
// agent's row, the one queue in arrival order naming each agent, nothing wider
// or taller than the pane; and the notification for an agent not in view.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, type AgentLive, initialAgent, nextAgent } from '../../src/core/fleet/agent-state.js';
import { fleetQueue, nextNeedingYou } from '../../src/core/fleet/queue.js';
import { type AgentRow, AgentsView } from '../../src/tui/fleet/AgentsView.js';
import { fleetNotification } from '../../src/tui/fleet/notify.js';
import type { FleetUi } from '../../src/tui/fleet/fleet-ui.js';
import { App } from '../../src/tui/App.js';
import { statusLine } from '../../src/tui/status-line.js';
import { FakeSource, frameUntil } from './fake-source.js';

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
    // As Supervisor.agents() gives them from each launch: eps shares the directory, unconfined.
    where: name === 'main' ? '(base checkout)' : name === 'eps' ? '(shared)' : `roz/${name}`,
    status: l.status,
    pending: l.pending.length,
    review: l.review,
    enforcement: name === 'eps' ? 'advisory' : 'enforced',
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
    // Every row its own launch's enforcement (not only the agent in view's), and where it works.
    if (cols >= 100) {
      for (const a of ['main', 'alpha', 'beta', 'gamma', 'delta']) expect(lines.find((l) => l.includes(` ${a} `))).toMatch(/\senforced\s*$/);
      expect(lines.find((l) => l.includes(' eps '))).toMatch(/^\s+eps\s+\(shared\)\s.*\sadvisory\s*$/);
      expect(lines.find((l) => l.includes(' main '))).toMatch(/main\s+\(base checkout\)\s/);
    }
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

/** The agents tab's fleet, as the run screen gives it, over the fixture: actions recorded. */
function fakeFleet(calls: string[], source: FakeSource): FleetUi & { view: string } {
  const { rows, queue } = fleet();
  const f = {
    view: 'main',
    rows: () => rows,
    queue: () => queue,
    current: () => f.view,
    select: (n: string) => {
      calls.push(`select ${n}`);
      f.view = n;
      source.changed();
    },
    jump: () => {
      calls.push('jump');
      f.select('beta');
      return 'beta';
    },
    open: () => void calls.push('open'),
    add: async (n: string, prompt?: string) => (
      calls.push(`add ${n}${prompt ? ` ${JSON.stringify(prompt)}` : ''}`), { ok: true, message: `started ${n} in /w/proj.roz/${n}` }
    ),
    merge: async (n: string) => (calls.push(`merge ${n}`), { ok: false, message: `refused (exit 5): ${n}'s work was never reviewed` }),
    stop: async (n: string) => (calls.push(`stop ${n}`), { ok: true, message: `stopped ${n} (exit 143)` }),
  };
  return f;
}

describe.each([
  [80, 24],
  [120, 40],
] as const)('the agents tab in the App at %i×%i', (cols, rows) => {
  it('shows every agent, the queue, how to act; n/m/x/w/j act on the agent in view', async () => {
    const calls: string[] = [];
    const source = new FakeSource();
    const fl = fakeFleet(calls, source);
    const r = render(<App source={source} fleet={fl} width={cols} height={rows - 1} now={() => T0 + 10_000} />);
    unmount = r.unmount;
    r.stdin.write('6');
    let f = await frameUntil(r.lastFrame, (x) => x.includes('queue · 3 waiting'), 'the agents tab');
    const lines = f.split('\n');
    expect(lines.length).toBeLessThanOrEqual(rows - 1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(cols);
    expect(f).toMatch(/6 agents/);
    expect(f).toContain('3 waiting for you');
    expect(f).toMatch(/› main/);
    expect(f).toContain('w waiting');

    r.stdin.write('j');
    await frameUntil(r.lastFrame, (x) => /› alpha/.test(x), 'the next agent in view');
    r.stdin.write('w');
    f = await frameUntil(r.lastFrame, (x) => x.includes('jumped to beta'), 'the jump');
    expect(calls).toEqual(['select alpha', 'jump', 'select beta']);
    expect(f).toMatch(/› beta/);

    r.stdin.write('m');
    f = await frameUntil(r.lastFrame, (x) => x.includes('never reviewed'), 'the merge refusal');
    expect(f).toContain("refused (exit 5): beta's work was never reviewed");

    r.stdin.write('x');
    await frameUntil(r.lastFrame, (x) => x.includes('stop beta? y stops it'), 'the stop confirmation');
    r.stdin.write('n');
    await frameUntil(r.lastFrame, (x) => !x.includes('stop beta?'), 'kept');
    expect(calls).not.toContain('stop beta');
    r.stdin.write('x');
    await frameUntil(r.lastFrame, (x) => x.includes('stop beta?'), 'asked again');
    r.stdin.write('y');
    await frameUntil(r.lastFrame, (x) => x.includes('stopped beta (exit 143)'), 'stopped');

    r.stdin.write('n');
    await frameUntil(r.lastFrame, (x) => x.includes("new agent's name:"), 'the name prompt');
    for (const ch of 'ze/ta') r.stdin.write(ch); // a slash cannot be part of a name
    await frameUntil(r.lastFrame, (x) => x.includes("new agent's name: zeta▏"), 'the typed name');
    r.stdin.write('\r');
    // Then its first prompt.
    await frameUntil(r.lastFrame, (x) => x.includes("zeta's first prompt: ▏"), 'the first prompt asked');
    for (const ch of 'fix the flaky test') r.stdin.write(ch);
    await frameUntil(r.lastFrame, (x) => x.includes('fix the flaky test▏'), 'the typed prompt');
    r.stdin.write('\r');
    await frameUntil(r.lastFrame, (x) => x.includes('started zeta in /w/proj.roz/zeta'), 'added');
    expect(calls.slice(-3)).toEqual(['merge beta', 'stop beta', 'add zeta "fix the flaky test"']);

    // The help overlay lists the agents keys and the jump key.
    r.stdin.write('?');
    f = await frameUntil(r.lastFrame, (x) => x.includes('keys: agents'), 'the help');
    expect(f).toMatch(/\bn\s+new agent/);
    expect(f).toMatch(/\bm\s+merge the agent in view/);
  });
});

describe('the approvals view in a fleet', () => {
  it('with nothing pending for the agent in view, says where requests wait and how to get there', async () => {
    const source = new FakeSource();
    const snap = source.snapshot();
    source.snapshot = () => ({ ...snap, fleet: { agent: 'main', agents: 3, waitingElsewhere: 2, elsewhere: ['beta', 'alpha'] } });
    const r = render(<App source={source} width={80} height={12} />);
    unmount = r.unmount;
    r.stdin.write('2');
    await frameUntil(r.lastFrame, (x) => x.includes('Nothing pending for this agent; 2 waiting in beta, alpha: w jumps there.'), 'the empty state');
  });
});

describe('the status line in a fleet', () => {
  it('names the agent in view and says how many requests wait in which other agents', () => {
    const snap = new FakeSource().snapshot();
    const inFleet = { ...snap, fleet: { agent: 'main', agents: 3, waitingElsewhere: 2, elsewhere: ['beta', 'alpha'] } };
    for (const cols of [80, 120]) {
      const line = statusLine(inFleet, 'child', cols);
      expect(line).toHaveLength(cols);
      expect(line).toMatch(/^!! 2 waiting in beta,alpha · Ctrl-\] w to jump │ (roz │ )?agent main │ review/);
    }
    expect(statusLine(inFleet, 'roz', 80)).toContain('· w to jump');
    // One agent alone: as before, no agent named.
    expect(statusLine({ ...snap, fleet: { agent: 'main', agents: 1, waitingElsewhere: 0, elsewhere: [] } }, 'child', 80)).toMatch(/^roz │ review/);
  });
});

describe('the trace view in a fleet', () => {
  it("names each event's agent in a column of its own; a run of one agent has none", async () => {
    const source = new FakeSource();
    source.push({ event: 'PreToolUse', tool_name: 'Bash', summary: 'ls', agent: 'beta' });
    source.push({ event: 'UserPromptSubmit', summary: 'go on', agent: 'main' });
    const snap = source.snapshot.bind(source);
    source.snapshot = () => ({ ...snap(), fleet: { agent: 'main', agents: 2, waitingElsewhere: 0, elsewhere: [] } });
    const r = render(<App source={source} width={80} height={12} />);
    unmount = r.unmount;
    const f = await frameUntil(r.lastFrame, (x) => x.includes('go on'), 'the trace');
    expect(f).toMatch(/\d\d\.\d{3} beta\s+PreToolUse\s+Bash ls/);
    expect(f).toMatch(/\d\d\.\d{3} main\s+UserPromptSubmit\s+go on/);
    r.unmount();

    const alone = new FakeSource();
    alone.push({ event: 'PreToolUse', tool_name: 'Bash', summary: 'ls', agent: 'main' });
    const r2 = render(<App source={alone} width={80} height={12} />);
    unmount = r2.unmount;
    const f2 = await frameUntil(r2.lastFrame, (x) => x.includes('Bash ls'), 'the trace of one agent');
    expect(f2).toMatch(/\d\d\.\d{3} PreToolUse\s+Bash ls/);
  });
});
