// What decides keypress-to-screen latency in `roz run` (npm run bench --fleet,
// the keypress rows): when the compositor paints after a change, and what a
// paint costs. A change after a quiet spell (a key's echo) paints at once,
// not an interval later; streaming output still paints at most once per
// interval; a key's echo into a streaming pane does not wait for the next
// frame; a program's synchronized update (DEC 2026) is not shown half drawn. The one-pass `rowAnsi` writes exactly what the former two-pass one
// did, on rows with colours, attributes, wide characters and trailing blanks.
import type { IBufferCell } from '@xterm/headless';
import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Compositor, type Frame } from '../../src/tui/screen/compositor.js';
import { VirtualScreen } from '../../src/tui/screen/virtual-screen.js';

const { Terminal } = xtermHeadless;
const parsed = (v: VirtualScreen, data: string) => new Promise<void>((r) => v.term.write(data, r));

/** The compositor over one screen, counting its paints (each paint is one synchronized update). */
function counting(screen: VirtualScreen, intervalMs = 16) {
  let paints = 0;
  const frame = (): Frame => ({
    regions: [{ screen, rect: { x: 0, y: 0, cols: screen.cols, rows: screen.rows } }],
    status: 's',
    alert: false,
    cursor: null,
    modes: null,
  });
  const comp = new Compositor(
    (s) => {
      if (s.includes('\x1b[?2026h')) paints += 1;
    },
    screen.cols,
    screen.rows + 1,
    frame,
    intervalMs,
  );
  return { comp, paints: () => paints };
}

describe('when the compositor paints', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a change after a quiet spell (a key echoed) paints at once, not an interval later', () => {
    const screen = new VirtualScreen(20, 3);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { comp, paints } = counting(screen, 16);
    comp.paint();
    vi.advanceTimersByTime(500);
    comp.schedule();
    vi.advanceTimersByTime(1);
    // The former compositor painted 16 ms after every first change.
    expect(paints()).toBe(2);
    comp.dispose();
  });

  it('streaming output paints at most once per interval', () => {
    const screen = new VirtualScreen(20, 3);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { comp, paints } = counting(screen, 16);
    comp.paint();
    // A change every millisecond for 320 ms: 20 intervals.
    for (let i = 0; i < 320; i++) {
      comp.schedule();
      vi.advanceTimersByTime(1);
    }
    const n = paints() - 1;
    expect(n).toBeGreaterThanOrEqual(18);
    expect(n).toBeLessThanOrEqual(21);
    comp.dispose();
  });

  it("a key's echo into a streaming pane paints at once, inside the interval; then the interval again", () => {
    const screen = new VirtualScreen(20, 3);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { comp, paints } = counting(screen, 16);
    comp.paint();
    // The pane streams: a change every 2 ms keeps a paint pending.
    vi.advanceTimersByTime(4);
    comp.schedule();
    vi.advanceTimersByTime(2);
    expect(paints()).toBe(1);
    // A key goes to the pane; its echo (the next change) paints at once, not at the 16 ms mark.
    comp.inputSent();
    comp.schedule();
    vi.advanceTimersByTime(1);
    expect(paints()).toBe(2);
    // One more change may follow it at once (a program may draw its echo in two writes)…
    comp.schedule();
    vi.advanceTimersByTime(1);
    expect(paints()).toBe(3);
    // …then output waits for the interval again.
    comp.schedule();
    vi.advanceTimersByTime(10);
    expect(paints()).toBe(3);
    vi.advanceTimersByTime(10);
    expect(paints()).toBe(4);
    // A key long ago does not speed up output.
    comp.inputSent();
    vi.advanceTimersByTime(200);
    comp.paint();
    comp.schedule();
    vi.advanceTimersByTime(10);
    expect(paints()).toBe(5);
    comp.dispose();
  });

  it("holds the paint while the program's synchronized update is open, paints when it closes, and gives up waiting after 100 ms", async () => {
    const screen = new VirtualScreen(20, 3);
    // xterm tracks the mode from what the program writes.
    await parsed(screen, '\x1b[?2026hhalf a frame');
    expect(screen.synchronizing()).toBe(true);
    await parsed(screen, ' and the rest\x1b[?2026l');
    expect(screen.synchronizing()).toBe(false);

    let syncing = true;
    screen.synchronizing = () => syncing;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { comp, paints } = counting(screen, 16);
    comp.paint();
    vi.advanceTimersByTime(500);
    comp.schedule();
    vi.advanceTimersByTime(50);
    expect(paints()).toBe(1);
    syncing = false;
    vi.advanceTimersByTime(5);
    expect(paints()).toBe(2);

    // A program that never closes its update is shown anyway, 100 ms on.
    syncing = true;
    vi.advanceTimersByTime(500);
    comp.schedule();
    vi.advanceTimersByTime(90);
    expect(paints()).toBe(2);
    vi.advanceTimersByTime(20);
    expect(paints()).toBe(3);
    comp.dispose();
  });
});

/** The former rowAnsi (two passes, SGR worked out for every cell): the reference the one-pass version must match. */
function referenceRowAnsi(v: VirtualScreen, y: number): string {
  const b = v.term.buffer.active;
  const line = b.getLine(b.baseY + y);
  if (!line) return '';
  const cell = b.getNullCell();
  let end = 0;
  for (let x = 0; x < v.cols; x++) {
    line.getCell(x, cell);
    if ((cell.getChars() && cell.getChars() !== ' ') || !cell.isBgDefault() || cell.isInverse()) end = x + 1;
  }
  let out = '';
  let prev = '0';
  for (let x = 0; x < end; x++) {
    line.getCell(x, cell);
    if (cell.getWidth() === 0) continue;
    const sgr = refSgr(cell);
    if (sgr !== prev) {
      out += `\x1b[${sgr}m`;
      prev = sgr;
    }
    out += cell.getChars() || ' ';
  }
  return prev === '0' ? out : `${out}\x1b[0m`;
}

function refColour(mode: 'fg' | 'bg', cell: IBufferCell): string | null {
  if (mode === 'fg' ? cell.isFgDefault() : cell.isBgDefault()) return null;
  const c = mode === 'fg' ? cell.getFgColor() : cell.getBgColor();
  if (mode === 'fg' ? cell.isFgRGB() : cell.isBgRGB()) return `${mode === 'fg' ? 38 : 48};2;${(c >> 16) & 255};${(c >> 8) & 255};${c & 255}`;
  const base = mode === 'fg' ? 30 : 40;
  if (c < 8) return String(base + c);
  if (c < 16) return String(base + 60 + c - 8);
  return `${mode === 'fg' ? 38 : 48};5;${c}`;
}

function refSgr(cell: IBufferCell): string {
  const p: string[] = ['0'];
  if (cell.isBold()) p.push('1');
  if (cell.isDim()) p.push('2');
  if (cell.isItalic()) p.push('3');
  if (cell.isUnderline()) p.push('4');
  if (cell.isBlink()) p.push('5');
  if (cell.isInverse()) p.push('7');
  if (cell.isInvisible()) p.push('8');
  if (cell.isStrikethrough()) p.push('9');
  const fg = refColour('fg', cell);
  const bg = refColour('bg', cell);
  if (fg) p.push(fg);
  if (bg) p.push(bg);
  return p.join(';');
}

describe('rowAnsi in one pass', () => {
  it('writes what the two-pass version wrote, on rows of every kind', async () => {
    const cols = 60;
    const rows = 30;
    const v = new VirtualScreen(cols, rows);
    const SGR = [
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '7',
      '8',
      '9',
      '31',
      '42',
      '95',
      '104',
      '38;5;200',
      '48;5;17',
      '38;2;10;200;30',
      '48;2;1;2;3',
      '1;7',
      '39',
      '49',
      '22',
      '27',
    ];
    const TEXT = ['word', ' ', '   ', '日本', '😀', 'é', '─', 'x'];
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return Math.floor((seed / 2 ** 32) * n);
    };
    let data = '';
    for (let y = 0; y < rows; y++) {
      data += `\x1b[${y + 1};1H`;
      for (let k = 0; k < 14; k++) data += `\x1b[${SGR[rnd(SGR.length)]}m${TEXT[rnd(TEXT.length)]}`;
      // Some rows end in coloured blanks, inverse blanks, or erased to the end in a colour.
      const tail = rnd(4);
      if (tail === 1) data += '\x1b[0;44m     ';
      else if (tail === 2) data += '\x1b[0;7m   \x1b[0m   ';
      else if (tail === 3) data += '\x1b[0;1m    \x1b[43m\x1b[K';
      data += '\x1b[0m';
    }
    await parsed(v, data);
    for (let y = 0; y < rows; y++) expect(v.rowAnsi(y), `row ${y}`).toBe(referenceRowAnsi(v, y));

    // And what it writes draws the same row on a real terminal (blanks at the end are left to the erase).
    const real = new Terminal({ cols, rows, allowProposedApi: true });
    let out = '';
    for (let y = 0; y < rows; y++) out += `\x1b[${y + 1};1H\x1b[0m\x1b[2K${v.rowAnsi(y)}`;
    await new Promise<void>((r) => real.write(out, r));
    for (let y = 0; y < rows; y++) expect(real.buffer.active.getLine(y)!.translateToString(true).trimEnd()).toBe(v.rowText(y).trimEnd());
  });
});
