// The screen plumbing: a child's output through a virtual screen and the
// compositor lands on a real terminal (another xterm) with text, colours,
// cursor and the status line intact; the hotkey splits input.
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { newSession } from '../../src/core/session-state.js';
import { Compositor, modeSequence } from '../../src/tui/screen/compositor.js';
import { HOTKEY, routeInput } from '../../src/tui/screen/input-router.js';
import { VirtualScreen } from '../../src/tui/screen/virtual-screen.js';
import { selectedIntent, statusLine } from '../../src/tui/status-line.js';
import type { SupervisorSnapshot } from '../../src/supervisor/view.js';

const { Terminal } = xtermHeadless;
const flush = (t: InstanceType<typeof Terminal>, data: string) => new Promise<void>((r) => t.write(data, r));
const parsed = (v: VirtualScreen, data: string) => new Promise<void>((r) => v.term.write(data, r));

describe('compositor', () => {
  it("copies the child's screen, colours and cursor into the pane and puts the status line on the last row", async () => {
    const child = new VirtualScreen(40, 5);
    await parsed(child, '\x1b[1;31mred bold\x1b[0m plain\r\n\x1b[44mblue bg\x1b[0m\r\nwide 日本\r\n> ');
    const real = new Terminal({ cols: 40, rows: 6, allowProposedApi: true });
    let out = '';
    const comp = new Compositor(
      (s) => (out += s),
      40,
      6,
      () => ({
        regions: [{ screen: child, rect: { x: 0, y: 0, cols: 40, rows: 5 } }],
        status: 'roz │ status',
        alert: false,
        cursor: child.cursor(),
        modes: child.inputModes(),
      }),
    );
    comp.paint();
    await flush(real, out);
    const row = (y: number) => real.buffer.active.getLine(y)!.translateToString(true);
    expect(row(0)).toBe('red bold plain');
    expect(row(1)).toBe('blue bg');
    expect(row(2)).toBe('wide 日本');
    expect(row(3)).toBe('>');
    expect(row(5).trimEnd()).toBe('roz │ status');
    const cell = real.buffer.active.getLine(0)!.getCell(0)!;
    expect(cell.isBold()).toBeTruthy();
    expect(cell.getFgColor()).toBe(1);
    expect(real.buffer.active.getLine(1)!.getCell(0)!.getBgColor()).toBe(4);
    expect(real.buffer.active.getLine(5)!.getCell(0)!.isInverse()).toBeTruthy();
    expect([real.buffer.active.cursorX, real.buffer.active.cursorY]).toEqual([2, 3]);
  });

  it('repaints only rows that changed', async () => {
    const child = new VirtualScreen(20, 3);
    await parsed(child, 'one\r\ntwo\r\nthree');
    let out = '';
    const comp = new Compositor(
      (s) => (out += s),
      20,
      4,
      () => ({ regions: [{ screen: child, rect: { x: 0, y: 0, cols: 20, rows: 3 } }], status: 's', alert: false, cursor: null, modes: null }),
    );
    comp.paint();
    out = '';
    await parsed(child, '\x1b[2;1HTWO');
    comp.paint();
    expect(out).toContain('TWO');
    expect(out).not.toContain('one');
    expect(out).not.toContain('three');
  });

  it("mirrors the child's input modes (bracketed paste, app cursor keys) to the real terminal", async () => {
    const child = new VirtualScreen(20, 3);
    await parsed(child, '\x1b[?2004h\x1b[?1h\x1b[?25l');
    expect(child.inputModes()).toMatchObject({ bracketedPaste: true, applicationCursor: true });
    expect(child.cursorVisible).toBe(false);
    expect(modeSequence(child.inputModes())).toContain('\x1b[?2004h');
  });

  it('answers terminal queries for the child (cursor position report)', async () => {
    const child = new VirtualScreen(20, 3);
    const replies: string[] = [];
    child.onReply((d) => replies.push(d));
    await parsed(child, 'ab\x1b[6n');
    expect(replies.join('')).toBe('\x1b[1;3R');
  });

  it('does not answer the queries of a replay (old output), and answers the live output after it', async () => {
    const child = new VirtualScreen(20, 3);
    const replies: string[] = [];
    child.onReply((d) => replies.push(d));
    child.write('ab\x1b[6n\r\n', true);
    child.write('x\x1b[6n');
    await parsed(child, '');
    expect(replies).toEqual(['\x1b[2;2R']);
  });
});

describe('input routing', () => {
  it('splits a read at the hotkey: keys before go to the child, after to roz', () => {
    let focus: 'child' | 'roz' = 'child';
    const got: string[] = [];
    routeInput(`ab${HOTKEY}cd${HOTKEY}e`, {
      focus: () => focus,
      toChild: (d) => got.push(`child:${d}`),
      toRoz: (d) => got.push(`roz:${d}`),
      onHotkey: () => (focus = focus === 'child' ? 'roz' : 'child'),
    });
    expect(got).toEqual(['child:ab', 'roz:cd', 'child:e']);
  });
});

describe('status line', () => {
  const snap = (over: Partial<SupervisorSnapshot> = {}): SupervisorSnapshot => ({
    sessionId: 's',
    sessions: ['s'],
    state: newSession('s', new Date()),
    intents: null,
    pending: [],
    decided: [],
    config: { path: 'c', problems: [] },
    lastEvent: null,
    totalEvents: 0,
    refused: 0,
    ...over,
  });

  const lastDeny = {
    seq: 1,
    at: 0,
    event: 'PreToolUse',
    session_id: 's',
    tool_name: 'Bash',
    summary: '',
    verdict: { kind: 'deny' as const, code: 'SCOPE_VIOLATION', reason: '' },
    code: 'SCOPE_VIOLATION',
    input: null,
  };
  const pendingAsk = (command: string) => ({
    id: 'p1',
    agent_name: 'main',
    session_id: 's',
    event: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    code: 'DESTRUCTIVE_BLOCKED',
    reason: 'r',
    human: 'deletes the tree build/',
    received_at: 0,
    deadline_at: 1,
  });

  it('shows review, breaker, intent and the last event in exactly the terminal width', () => {
    const state = newSession('s', new Date());
    state.review.status = 'blocked';
    state.review.block_count = 2;
    state.governance = { intent_id: 'INT-7' };
    const line = statusLine(snap({ state, lastEvent: lastDeny }), 'child', 160);
    expect(line).toHaveLength(160);
    expect(line).toMatch(/roz │ review blocked │ breaker closed 2 blk\/0 trips │ intent INT-7 │ last PreToolUse Bash → deny SCOPE_VIOLATION/);
    expect(line.trimEnd()).toMatch(/Ctrl-\]: roz$/);
  });

  it('drops the least important parts on a narrow terminal but keeps the hotkey hint', () => {
    const line = statusLine(snap({ lastEvent: lastDeny }), 'roz', 40);
    expect(line).toHaveLength(40);
    expect(line).toMatch(/^review idle │ intent -\s+Ctrl-\]: claude$/);
  });

  it.each(['codex', 'gemini'] as const)('names the pane the hotkey leads to by its client: %s', (client) => {
    const line = statusLine(snap({ lastEvent: lastDeny, client }), 'roz', 80);
    expect(line.trimEnd()).toMatch(new RegExp(`Ctrl-\\]: ${client}$`));
    expect(line).not.toMatch(/claude/);
  });

  it.each([80, 120])("at %i columns a pending approval comes first, whole, with the human's reason and how to answer it", (cols) => {
    const state = newSession('s', new Date());
    state.governance = { intent_id: 'INT-7' };
    const line = statusLine(snap({ state, pending: [pendingAsk('rm -rf build')], lastEvent: lastDeny }), 'child', cols);
    expect(line).toHaveLength(cols);
    expect(line).toMatch(/^!! APPROVAL: Bash rm -rf build — deletes the tree build\/ · Ctrl-\] to answer/);
    if (cols >= 120) expect(line).toContain('intent INT-7');
  });

  it('a long pending command is shortened, never the request itself, its reason nor how to answer', () => {
    const line = statusLine(snap({ pending: [pendingAsk(`rm -rf ${'x'.repeat(200)}`), pendingAsk('ls')] }), 'roz', 80);
    expect(line).toHaveLength(80);
    expect(line).toMatch(/^!! 2 APPROVALS: Bash rm -rf x+… — deletes the tree build\/ · a\/s\/b to answer$/);
  });

  it('a long reason and a long command share the line, the reason keeping half', () => {
    const ask = { ...pendingAsk(`rm -rf ${'x'.repeat(200)}`), human: `deletes the tree ${'y'.repeat(200)}/` };
    const line = statusLine(snap({ pending: [ask] }), 'roz', 80);
    expect(line).toHaveLength(80);
    expect(line).toMatch(/^!! APPROVAL: Bash rm -rf x+… — deletes the tree y+… · a\/s\/b to answer$/);
    expect(line.indexOf('—')).toBeGreaterThan(12 + 20);
    expect(line.indexOf('—')).toBeLessThan(40);
  });

  it("the agent's command cannot reach the real terminal as escape sequences through the status line", () => {
    const state = newSession('s', new Date());
    state.governance = { intent_id: 'INT-1' };
    const intents = { file: 'f', problems: [], intents: [{ id: 'INT-1', name: 'x\x1b[2J', status: 'IN_PROGRESS', owned_scope: [] }] } as never;
    const attack = 'rm -rf build\x1b]52;c;cHduZWQ=\x07\x1b[1;1H\x1b[2JAPPROVED\x9b2J';
    const line = statusLine(snap({ state, intents, pending: [pendingAsk(attack)] }), 'child', 200);
    expect(line).toHaveLength(200);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(line).toContain('rm -rf build?]52;c;cHduZWQ=??[1;1H?[2JAPPROVED?2J');
  });

  it('says ADVISORY out loud, and the review verdict with what it covers when known', () => {
    const state = newSession('s', new Date()) as ReturnType<typeof newSession> & { enforcement?: { mode: string } };
    state.enforcement = { mode: 'advisory', reasons: [] };
    state.review.status = 'approved';
    state.review.decision = { kind: 'complete', summary: 'ok', decided_at: '2026-01-01T00:00:00Z', valid: true, covers: 'abc123..def456' } as never;
    const line = statusLine(snap({ state, lastEvent: lastDeny }), 'child', 80);
    expect(line).toMatch(/^ADVISORY │ review approved \(COMPLETE covers abc123..def456\)/);
    state.enforcement = { mode: 'enforced', reasons: [] };
    expect(statusLine(snap({ state }), 'child', 120)).toContain('│ enforced │');
  });

  it("names the selected intent from governance state and the project's intents", () => {
    const s = newSession('s', new Date());
    expect(selectedIntent(s)).toBeNull();
    s.governance = { intent_id: 'INT-1' };
    expect(selectedIntent(s)).toBe('INT-1');
    const intents = {
      file: 'f',
      problems: [],
      intents: [{ id: 'INT-1', name: 'JWT migration', status: 'IN_PROGRESS', owned_scope: ['src/auth/**'] }],
    } as never;
    expect(selectedIntent(s, intents)).toBe('INT-1 JWT migration');
  });
});
