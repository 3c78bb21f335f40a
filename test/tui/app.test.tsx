// The roz views through ink-testing-library: what they draw and what the
// keys do. The keyboard is the only way an approval happens.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/tui/App.js';
import { FakeSource, frameUntil } from './fake-source.js';

// biome-ignore lint/correctness/noUnusedVariables: the arrow keys, kept together for the tests that move the cursor
const DOWN = '\x1b[B';
const UP = '\x1b[A';
let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

function app(source: FakeSource, height = 20) {
  const r = render(<App source={source} width={100} height={height} />);
  unmount = r.unmount;
  return r;
}

describe('roz views', () => {
  it('the live trace follows new events, shows verdicts and codes, and opens the detail of a selected event', async () => {
    const s = new FakeSource();
    s.push({ event: 'PreToolUse', tool_name: 'Bash', summary: 'git status' });
    s.push({
      event: 'PreToolUse',
      tool_name: 'Bash',
      summary: 'rm -rf /',
      verdict: { kind: 'deny', code: 'DESTRUCTIVE_BLOCKED', reason: 'no' },
      code: 'DESTRUCTIVE_BLOCKED',
      input: { tool_input: { command: 'rm -rf /' } },
    });
    const { lastFrame, stdin } = app(s);
    let f = await frameUntil(lastFrame, (x) => x.includes('rm -rf /'), 'events');
    expect(f).toContain('following');
    expect(f).toMatch(/PreToolUse\s+Bash rm -rf \/ → deny DESTRUCTIVE_BLOCKED/);
    s.push({ event: 'Stop', summary: 'done' });
    s.changed();
    await frameUntil(lastFrame, (x) => /Stop\s+done/.test(x), 'a new event while following');
    stdin.write(UP);
    await frameUntil(lastFrame, (x) => x.includes('paused'), 'selection pauses following');
    stdin.write('\r');
    f = await frameUntil(lastFrame, (x) => x.includes('event #2'), 'detail view');
    expect(f).toContain('"command": "rm -rf /"');
    stdin.write('\x1b');
    await frameUntil(lastFrame, (x) => x.includes('paused') && !x.includes('event #2'), 'back to the list');
  });

  it('filters by event type and by denial code', async () => {
    const s = new FakeSource();
    s.push({ event: 'PreToolUse', tool_name: 'Bash', summary: 'ls', verdict: { kind: 'deny', code: 'SCOPE_VIOLATION', reason: 'x' }, code: 'SCOPE_VIOLATION' });
    s.push({ event: 'PostToolUse', tool_name: 'Bash', summary: 'ls-after' });
    s.push({ event: 'PreToolUse', tool_name: 'Write', summary: 'a.txt', verdict: { kind: 'deny', code: 'STALE_FILE', reason: 'x' }, code: 'STALE_FILE' });
    const { lastFrame, stdin } = app(s);
    await frameUntil(lastFrame, (x) => x.includes('a.txt'), 'events');
    stdin.write('e'); // first event type, alphabetically: PostToolUse
    let f = await frameUntil(lastFrame, (x) => x.includes('event=PostToolUse'), 'event filter');
    expect(f).toContain('ls-after');
    expect(f).not.toContain('a.txt');
    stdin.write('x');
    stdin.write('c');
    stdin.write('c'); // SCOPE_VIOLATION, then STALE_FILE
    f = await frameUntil(lastFrame, (x) => x.includes('code=STALE_FILE'), 'code filter');
    expect(f).toContain('a.txt');
    expect(f).not.toContain('ls-after');
  });

  it('keeps up with 1,000 events: shows the newest, holds a bounded window', async () => {
    const s = new FakeSource();
    const { lastFrame } = app(s, 12);
    for (let i = 1; i <= 1000; i++) s.push({ event: 'PreToolUse', tool_name: 'Bash', summary: `echo ${i}` });
    s.changed();
    const f = await frameUntil(lastFrame, (x) => x.includes('echo 1000'), 'the newest event');
    expect(f).toContain('1000 events');
    expect(f).not.toContain('echo 990\n');
    expect(f.split('\n').length).toBeLessThanOrEqual(12);
    expect(s.events.size).toBe(200);
  });

  it('a pending approval comes to the front with the full input and answers only from keys', async () => {
    const s = new FakeSource();
    const { lastFrame, stdin } = app(s);
    s.ask();
    let f = await frameUntil(lastFrame, (x) => x.includes('[a] approve once'), 'the prompt, its keys armed');
    expect(f).toContain('APPROVAL NEEDED');
    expect(f).toContain('$ rm -rf build');
    expect(f).toContain('approvals (1)');
    stdin.write('i');
    f = await frameUntil(lastFrame, (x) => x.includes('"tool_input"'), 'inspect');
    stdin.write('a');
    // Answered: the view the human was in comes back.
    await frameUntil(lastFrame, (x) => x.includes('trace · following'), 'answered, back to the trace');
    expect(s.answers).toEqual([['a1', { action: 'approve-once' }]]);

    s.ask({ id: 'a2' });
    await frameUntil(lastFrame, (x) => x.includes('[a] approve once'), 'second prompt');
    stdin.write('s');
    await frameUntil(lastFrame, () => s.answers.length === 2, 'session approval');
    expect(s.answers[1]).toEqual(['a2', { action: 'approve-session' }]);
  });

  it('block asks for a typed reason; Enter sends it, Esc goes back', async () => {
    const s = new FakeSource();
    const { lastFrame, stdin } = app(s);
    s.ask();
    await frameUntil(lastFrame, (x) => x.includes('[a] approve once'), 'the prompt');
    stdin.write('b');
    await frameUntil(lastFrame, (x) => x.includes('block reason:'), 'reason field');
    for (const ch of 'use git clean') stdin.write(ch);
    stdin.write('\x7f');
    stdin.write('n');
    await frameUntil(lastFrame, (x) => x.includes('block reason: use git clean'), 'typed reason');
    // Keys typed into the reason never approve.
    stdin.write('a');
    stdin.write('\x7f');
    stdin.write('\r');
    await frameUntil(lastFrame, () => s.answers.length === 1, 'the block');
    expect(s.answers[0]).toEqual(['a1', { action: 'block', reason: 'use git clean' }]);
  });

  it('keys faster than rendering act on what is on screen: a double press answers one request, b then s types a reason', async () => {
    const s = new FakeSource();
    const { lastFrame, stdin } = app(s);
    s.ask({ id: 'first' });
    s.ask({ id: 'second' });
    await frameUntil(lastFrame, (x) => x.includes('1 more queued') && x.includes('[a] approve once'), 'two queued');
    stdin.write('a');
    stdin.write('a');
    await frameUntil(lastFrame, (x) => x.includes('[a] approve once') && !x.includes('more queued'), 'the second request on screen, armed');
    expect(s.answers.map(([id]) => id)).toEqual(['first']);
    stdin.write('b');
    stdin.write('s');
    await frameUntil(lastFrame, (x) => x.includes('block reason: s'), 'the s typed into the reason');
    expect(s.answers).toHaveLength(1);
  });

  it('a key typed as the prompt takes the keyboard does nothing: answer keys work once it has been on screen a moment', async () => {
    const s = new FakeSource();
    const { lastFrame, stdin } = app(s);
    s.ask();
    await frameUntil(lastFrame, (x) => x.includes('APPROVAL NEEDED') && x.includes('keys work in a moment'), 'the prompt, not armed yet');
    stdin.write('a'); // the human was typing for Claude
    stdin.write('s');
    stdin.write('b');
    await frameUntil(lastFrame, (x) => x.includes('[a] approve once'), 'armed');
    expect(s.answers).toEqual([]);
    expect(lastFrame()).not.toContain('block reason');
    stdin.write('a');
    await frameUntil(lastFrame, () => s.answers.length === 1, 'answered once armed');
  });

  it('Edit and Write show a diff preview', async () => {
    const s = new FakeSource();
    const { lastFrame } = app(s);
    s.ask({ tool_name: 'Edit', code: 'SCOPE_VIOLATION', tool_input: { file_path: '/repo/src/a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' } });
    const f = await frameUntil(lastFrame, (x) => x.includes('APPROVAL NEEDED'), 'the prompt');
    expect(f).toContain('@@ /repo/src/a.ts');
    expect(f).toContain('- const a = 1;');
    expect(f).toContain('+ const a = 2;');
  });

  it('reviews, intents and stats views render from the session state', async () => {
    const s = new FakeSource();
    s.state!.review.status = 'approved';
    s.state!.review.decision_history.push({
      kind: 'complete',
      summary: 'tests pass, diff matches the ask',
      opinions: ['codex'],
      decided_at: '2026-01-01T10:00:00Z',
      agent_id: 'ag1',
      valid: true,
    });
    s.state!.governance = { intent_id: 'INT-1' };
    s.intents = {
      file: '/repo/.orchestration/active_intents.yaml',
      problems: [],
      intents: [
        { id: 'INT-1', name: 'fix login', status: 'IN_PROGRESS', owned_scope: ['src/auth/**'] },
        { id: 'INT-2', name: 'docs', status: 'DRAFT', owned_scope: [] },
      ] as never,
    };
    s.statsValue = {
      session_id: 's1',
      created_at: '',
      ended_at: null,
      tool_calls: 7,
      tool_failures: 1,
      denials: { SCOPE_VIOLATION: 2 },
      reviews: 1,
      decisions: { complete: 1, issues: 0, invalid: 0 },
      breaker_trips: 0,
      human: { decisions: 1, approved: 1, denied: 0, timed_out: 0, wait_ms_total: 4200, wait_ms_max: 4200 },
      templates: [],
    };
    const { lastFrame, stdin } = app(s);
    stdin.write('3');
    let f = await frameUntil(lastFrame, (x) => x.includes('second opinions'), 'reviews');
    expect(f).toContain('COMPLETE — tests pass, diff matches the ask');
    expect(f).toContain('status approved');
    stdin.write('4');
    f = await frameUntil(lastFrame, (x) => x.includes('selected intent: INT-1'), 'intents');
    expect(f).toContain('▶ INT-1 fix login [IN_PROGRESS] · scope src/auth/**');
    expect(f).toContain('INT-2 docs [DRAFT] · scope -');
    stdin.write('5');
    f = await frameUntil(lastFrame, (x) => x.includes('tool calls'), 'stats');
    expect(f).toContain('SCOPE_VIOLATION=2');
    expect(f).toContain('waited 4.2s total');
  });

  it('q and Esc leave the roz views', async () => {
    const s = new FakeSource();
    let left = 0;
    const r = render(<App source={s} width={100} height={20} onLeave={() => (left += 1)} />);
    unmount = r.unmount;
    await frameUntil(r.lastFrame, (x) => x.includes('trace'), 'first frame');
    r.stdin.write('q');
    await frameUntil(r.lastFrame, () => left === 1, 'leave');
  });
});
