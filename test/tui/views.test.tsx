// The roz views at the sizes people use (80×24, 120×40): the split panel,
// the `?` overlay, the approvals history, the full reason, the scrolling
// detail, selecting an intent as the human.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/tui/App.js';
import { keysFor } from '../../src/tui/keys.js';
import { computeLayout } from '../../src/tui/screen/layout.js';
import { FakeSource, frameUntil } from './fake-source.js';

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

function app(source: FakeSource, width: number, height: number, split = false) {
  const r = render(<App source={source} width={width} height={height} split={split} now={() => Date.now()} />);
  unmount = r.unmount;
  return r;
}

const LONG_REASON =
  'DESTRUCTIVE_BLOCKED: `rm -rf build` deletes a directory recursively and cannot be undone; the selected intent INT-042 owns src/** only. Approve only if you asked for a clean build, otherwise block and tell the agent to use the build script.';

const SIZES = [
  [80, 24],
  [120, 40],
] as const;

describe.each(SIZES)('at %i×%i', (cols, rows) => {
  it("the split layout: Claude keeps most of the screen, the panel fits every tab, the human's reason and the keys", async () => {
    const l = computeLayout(cols, rows, true);
    expect(l.split).toBe(true);
    expect(l.child.cols * l.child.rows + l.roz.cols * l.roz.rows + (l.divider ? l.divider.cols * l.divider.rows : 0)).toBe(cols * (rows - 1));
    expect(l.child.rows).toBeGreaterThan(l.roz.rows);
    const s = new FakeSource();
    const { lastFrame } = app(s, l.roz.cols, l.roz.rows, true);
    s.ask({ reason: LONG_REASON, human: "build/ is outside INT-042's scope: src/**; deletes the tree build/" });
    const f = await frameUntil(lastFrame, (x) => x.includes('APPROVAL NEEDED') && x.includes('[a]'), 'the prompt in the panel');
    const lines = f.split('\n');
    expect(lines.length).toBeLessThanOrEqual(l.roz.rows);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(l.roz.cols);
    expect(lines[0]).toMatch(/1 trace.*2 appro.*3 revie.*4 inten.*5 stats/);
    // Why in one line, what, and the keys; the agent's text is for the agent (under i).
    expect(f).toContain("why: build/ is outside INT-042's scope: src/**; deletes the tree build/");
    expect(f.replace(/\s+/g, ' ')).not.toContain('Approve only if you asked');
    expect(f).toContain('[a]');
    expect(f).toContain('$ rm -rf build');
  });

  it('? lists every key of the current view, and scrolls when the pane is short', async () => {
    const s = new FakeSource();
    const { lastFrame, stdin } = app(s, cols, rows - 1);
    await frameUntil(lastFrame, (x) => x.includes('trace ·'), 'the trace view');
    stdin.write('?');
    let f = await frameUntil(lastFrame, (x) => x.includes('keys: trace'), 'the overlay');
    for (const [k] of [...keysFor('trace').view, ...keysFor('trace').global]) expect(f).toContain(k);
    stdin.write('?');
    await frameUntil(lastFrame, (x) => x.includes('trace ·') && !x.includes('keys: trace'), 'closed');
    stdin.write('4');
    stdin.write('?');
    f = await frameUntil(lastFrame, (x) => x.includes('keys: intents'), 'the overlay of the intents view');
    expect(f).toContain('select the intent under the cursor');
    stdin.write('\x1b');
    await frameUntil(lastFrame, (x) => !x.includes('keys: intents'), 'closed with Esc');
  });

  it('the approvals history says who decided, when, after how long, and why', async () => {
    const s = new FakeSource();
    const base = Date.UTC(2026, 0, 1, 12, 0, 0);
    const approval = {
      id: 'x',
      agent_name: 'main',
      session_id: 's1',
      event: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build' },
      code: 'DESTRUCTIVE_BLOCKED',
      reason: 'r',
      human: 'h',
      received_at: base,
      deadline_at: base + 1,
    };
    s.decided = [
      { approval, decided_by: 'human', decision: 'allow', scope: 'once', reason: 'roz: approved by the human', wait_ms: 3200, decided_at: base + 3200 },
      {
        approval: { ...approval, id: 'y', tool_input: { command: 'git push --force' } },
        decided_by: 'human',
        decision: 'deny',
        scope: 'once',
        reason: 'never force-push main',
        wait_ms: 12_400,
        decided_at: base + 60_000,
      },
      {
        approval: { ...approval, id: 'z' },
        decided_by: 'timeout',
        decision: 'deny',
        scope: 'once',
        reason: 'roz: no human answered within 120 s',
        wait_ms: 120_000,
        decided_at: base + 300_000,
      },
    ];
    const { lastFrame, stdin } = app(s, cols, rows - 1);
    stdin.write('2');
    const f = await frameUntil(lastFrame, (x) => x.includes('history: 3 decided'), 'the history');
    const at = (t: string) => f.indexOf(t);
    // Newest first.
    expect(at('12:05:00 deny by timeout after 120.0s')).toBeGreaterThan(0);
    expect(at('12:01:00 deny by human after 12.4s · Bash DESTRUCTIVE_BLOCKED')).toBeGreaterThan(at('12:05:00'));
    expect(at('12:00:03 allow by human after 3.2s')).toBeGreaterThan(at('12:01:00'));
    expect(f).toContain('git push --force — never force-push main');
  });
});

describe('roz views, details', () => {
  it('i shows what roz tells the agent and the raw input; i again goes back', async () => {
    const s = new FakeSource();
    const { lastFrame, stdin } = app(s, 80, 23);
    s.ask({ reason: LONG_REASON, tool_use_id: 'toolu_9' });
    await frameUntil(lastFrame, (x) => x.includes('APPROVAL NEEDED'), 'the prompt');
    stdin.write('i');
    const f = await frameUntil(lastFrame, (x) => x.includes('what roz tells the agent'), 'inspect');
    expect(f.replace(/\s+/g, ' ')).toContain(LONG_REASON);
    expect(f).toContain('"tool_use_id": "toolu_9"');
    expect(f).toContain('"command": "rm -rf build"');
    stdin.write('i');
    await frameUntil(lastFrame, (x) => !x.includes('what roz tells the agent') && x.includes('$ rm -rf build'), 'back to the prompt');
  });

  it('a command crafted with escape sequences cannot repaint the prompt to hide what it does', async () => {
    const s = new FakeSource();
    const { lastFrame } = app(s, 80, 23);
    s.ask({ tool_input: { command: 'rm -rf ~ \x1b[2K\x1b[1G$ ls -la\r$ git status' }, human: 'deletes the tree ~\x1b[8m hidden' });
    const f = await frameUntil(lastFrame, (x) => x.includes('APPROVAL NEEDED'), 'the prompt');
    expect(f).toContain('$ rm -rf ~ \\x1b[2K\\x1b[1G$ ls -la');
    expect(f).toContain('$ git status');
    expect(f).toContain('deletes the tree ~\\x1b[8m hidden');
    expect(f).not.toContain('\x1b[2K');
  });

  it("in a short panel, the agent's text under i scrolls instead of being cut; the why line and keys stay", async () => {
    const s = new FakeSource();
    const { lastFrame, stdin } = app(s, 60, 8, true);
    s.ask({ reason: `${LONG_REASON} ${LONG_REASON}` });
    let f = await frameUntil(lastFrame, (x) => x.includes('[a] once'), 'the prompt in a small panel');
    expect(f).toContain('why: deletes the tree build/');
    expect(f).toContain('$ rm -rf build');
    stdin.write('i');
    f = await frameUntil(lastFrame, (x) => x.includes('what roz tells the agent'), 'inspect in a small panel');
    expect(f).toMatch(/more lines \(↑↓\)/);
    expect(f).not.toContain('"command"');
    for (let i = 0; i < 6; i++) stdin.write('\x1b[6~'); // PgDn
    f = await frameUntil(lastFrame, (x) => x.includes('"command": "rm -rf build"'), 'the raw input after the agent text');
    expect(f).toContain('[a] once');
  });

  it('a long input in the prompt scrolls with the arrows, the keys line stays', async () => {
    const s = new FakeSource();
    const { lastFrame, stdin } = app(s, 80, 23);
    s.ask({
      tool_name: 'Write',
      code: 'SCOPE_VIOLATION',
      tool_input: { file_path: '/repo/gen.txt', content: Array.from({ length: 40 }, (_, i) => `row-${i}`).join('\n') },
    });
    let f = await frameUntil(lastFrame, (x) => x.includes('[a] once'), 'the prompt');
    expect(f).toContain('+ row-0');
    expect(f).not.toContain('+ row-39');
    expect(f).toMatch(/more lines \(↑↓\)/);
    stdin.write('\x1b[6~'); // PgDn
    stdin.write('\x1b[6~');
    stdin.write('\x1b[6~');
    f = await frameUntil(lastFrame, (x) => x.includes('+ row-39'), 'scrolled to the end');
    expect(f).not.toContain('+ row-0\n');
    expect(f).toContain('[a] once');
  });

  it('the trace detail wraps long values and scrolls', async () => {
    const s = new FakeSource();
    const long = `echo ${'word '.repeat(60)}END`;
    const lines = Array.from({ length: 40 }, (_, i) => `line-${i}`).join('\n');
    s.push({ event: 'PreToolUse', tool_name: 'Bash', summary: 'x', input: { tool_input: { command: long, content: lines } } });
    const { lastFrame, stdin } = app(s, 80, 12);
    await frameUntil(lastFrame, (x) => x.includes('PreToolUse'), 'the event');
    stdin.write('\r');
    let f = await frameUntil(lastFrame, (x) => x.includes('event #1'), 'the detail');
    for (const l of f.split('\n')) expect(l.length).toBeLessThanOrEqual(80);
    expect(f.replace(/\s+/g, ' ')).toContain('word word');
    expect(f).not.toContain('line-39');
    expect(f).toMatch(/lines 1-\d+ of \d+/);
    stdin.write('\x1b[F'); // End
    f = await frameUntil(lastFrame, (x) => x.includes('line-39'), 'scrolled to the end');
    expect(f).not.toContain('"event": "PreToolUse"');
    stdin.write('\x1b[H'); // Home
    await frameUntil(lastFrame, (x) => x.includes('"event": "PreToolUse"'), 'back at the top');
  });

  it('the intents view selects and clears an intent through the supervisor', async () => {
    const s = new FakeSource();
    s.intents = {
      file: '/repo/.orchestration/active_intents.yaml',
      problems: [],
      intents: [
        { id: 'INT-1', name: 'fix login', status: 'IN_PROGRESS', owned_scope: ['src/auth/**'] },
        { id: 'INT-2', name: 'docs', status: 'IN_PROGRESS', owned_scope: ['docs/**'] },
      ] as never,
    };
    const { lastFrame, stdin } = app(s, 80, 23);
    stdin.write('4');
    await frameUntil(lastFrame, (x) => x.includes('selected intent: -'), 'intents');
    stdin.write('\x1b[B');
    stdin.write('\r');
    await frameUntil(lastFrame, (x) => x.includes('selected INT-2') && x.includes('selected intent: INT-2'), 'selected');
    stdin.write('x');
    await frameUntil(lastFrame, (x) => x.includes('selected intent: -') && x.includes('cleared'), 'cleared');
    expect(s.selections).toEqual(['INT-2', null]);
  });
});
