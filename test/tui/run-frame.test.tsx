// The whole `roz run` frame without a pty: Claude's screen and the Ink views
// (through the same InkStdout the run screen uses) composed onto a terminal
// of 80×24 and 120×40, status line included, read back through xterm.
import xtermHeadless from '@xterm/headless';
import { render } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/tui/App.js';
import { Compositor, paneRegions } from '../../src/tui/screen/compositor.js';
import { FocusState } from '../../src/tui/screen/focus.js';
import { InkStdin, InkStdout } from '../../src/tui/screen/ink-surface.js';
import { computeLayout } from '../../src/tui/screen/layout.js';
import { VirtualScreen } from '../../src/tui/screen/virtual-screen.js';
import { statusLine } from '../../src/tui/status-line.js';
import { FakeSource } from './fake-source.js';

const { Terminal } = xtermHeadless;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function until(cond: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > 3_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The run screen's drawing, fed by a fake supervisor: returns the real terminal's text after a paint. */
async function runFrame(cols: number, rows: number, focus: FocusState, source: FakeSource) {
  const layout = computeLayout(cols, rows, focus.split);
  const child = new VirtualScreen(layout.child.cols, layout.child.rows);
  const roz = new VirtualScreen(layout.roz.cols, layout.roz.rows, 0);
  await new Promise<void>((r) => child.term.write('\x1b[1mClaude Code\x1b[0m\r\n✽ Thinking… (running PreToolUse hook · 9s)\r\n> ', r));
  const ink = render(<App source={source} width={layout.roz.cols} height={layout.roz.rows} split={layout.split} focused={focus.focus === 'roz'} />, {
    stdout: new InkStdout(roz, layout.roz.cols, layout.roz.rows) as unknown as NodeJS.WriteStream,
    stdin: new InkStdin() as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  cleanups.push(() => ink.unmount());
  await until(() => roz.text().includes('APPROVAL NEEDED'), 'the prompt drawn');
  const real = new Terminal({ cols, rows, allowProposedApi: true });
  let out = '';
  const comp = new Compositor(
    (s) => (out += s),
    cols,
    rows,
    () => ({
      ...paneRegions(layout, focus.focus, child, roz),
      status: statusLine(source.snapshot(), focus.focus, cols),
      alert: true,
      cursor: null,
      modes: null,
    }),
  );
  comp.paint();
  await new Promise<void>((r) => real.write(out, r));
  return Array.from({ length: rows }, (_, y) => real.buffer.active.getLine(y)!.translateToString(true));
}

describe.each([
  [80, 24],
  [120, 40],
])('the roz run frame at %i×%i', (cols, rows) => {
  it('a pending approval: the prompt has the keyboard, the status line leads with it', async () => {
    const s = new FakeSource();
    s.ask();
    const focus = new FocusState();
    focus.setPending(['a1']);
    const lines = await runFrame(cols, rows, focus, s);
    expect(lines[1]).toMatch(/^APPROVAL NEEDED · Bash · DESTRUCTIVE_BLOCKED/);
    expect(lines[rows - 1]).toMatch(/^!! APPROVAL: Bash rm -rf build — deletes the tree build\/ · a\/s\/b to answer/);
  });

  it("back in Claude's pane while it waits: Claude above, the request in the panel, how to answer on the status line", async () => {
    const s = new FakeSource();
    s.ask();
    const focus = new FocusState();
    focus.setPending(['a1']);
    focus.toggle();
    const lines = await runFrame(cols, rows, focus, s);
    const l = computeLayout(cols, rows, true);
    expect(lines[0]).toBe('Claude Code');
    expect(lines[1]).toContain('running PreToolUse hook');
    expect(lines[l.divider!.y]).toMatch(/^── roz ─+$/);
    const panel = lines.slice(l.roz.y, l.roz.y + l.roz.rows).join('\n');
    expect(panel).toContain('APPROVAL NEEDED');
    expect(panel).toContain('$ rm -rf build');
    expect(panel).toContain('Ctrl-] to answer here');
    expect(lines[rows - 1]).toMatch(/^!! APPROVAL: Bash rm -rf build — deletes the tree build\/ · Ctrl-\] to answer/);
  });
});

describe('the roz run frame on a wide terminal (200×50)', () => {
  it("puts the panel beside Claude's pane, each in its own columns", async () => {
    const s = new FakeSource();
    s.ask();
    const focus = new FocusState();
    focus.setPending(['a1']);
    focus.toggle();
    const lines = await runFrame(200, 50, focus, s);
    const l = computeLayout(200, 50, true);
    expect(l.divider?.char).toBe('│');
    expect(lines[0]!.startsWith('Claude Code')).toBe(true);
    for (let y = 0; y < 49; y++) expect(lines[y]![l.divider!.x], `row ${y}`).toBe('│');
    const panel = lines
      .slice(0, 49)
      .map((row) => row.slice(l.roz.x))
      .join('\n');
    expect(panel).toContain('APPROVAL NEEDED');
    expect(panel).toContain('Ctrl-] to answer here');
    expect(
      lines
        .slice(0, 49)
        .map((row) => row.slice(0, l.child.cols))
        .join('\n'),
    ).not.toContain('APPROVAL NEEDED');
  });
});
