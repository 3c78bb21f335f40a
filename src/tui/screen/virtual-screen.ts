// A terminal that exists only in memory (@xterm/headless): the child's pty
// and the Ink views each draw into one, and the compositor copies the
// focused one to the real terminal. Also how tests read the screen back.
import xtermHeadless from '@xterm/headless';
import type { IBufferCell, Terminal as XTerm } from '@xterm/headless';

const { Terminal } = xtermHeadless;

export interface InputModes {
  applicationCursor: boolean;
  bracketedPaste: boolean;
  mouse: 'none' | 'x10' | 'vt200' | 'drag' | 'any';
  sgrMouse: boolean;
  focusEvents: boolean;
}

export class VirtualScreen {
  readonly term: XTerm;
  cursorVisible = true;
  private sgrMouse = false;
  private readonly changeListeners = new Set<() => void>();
  /** Quiet writes not parsed yet: the answers their queries produce are dropped. */
  private quiet = 0;

  constructor(cols: number, rows: number, scrollback = 1000) {
    this.term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
    // Watch DEC private modes the public API does not expose; `false` lets xterm handle them too.
    const watch = (final: 'h' | 'l') =>
      this.term.parser.registerCsiHandler({ prefix: '?', final }, (params) => {
        for (const p of params) {
          if (p === 25) this.cursorVisible = final === 'h';
          if (p === 1006) this.sgrMouse = final === 'h';
        }
        return false;
      });
    watch('h');
    watch('l');
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  /**
   * Feed output; listeners hear once xterm has parsed it. `quiet`: old output (a replay) whose queries were answered
   * when they were new: what xterm answers while parsing it is not a reply to anything live, so it is dropped.
   * xterm parses writes in order and calls each one's callback before the next, so later output answers as usual.
   */
  write(data: string, quiet = false): void {
    if (quiet) this.quiet++;
    this.term.write(data, () => {
      if (quiet) this.quiet--;
      this.changeListeners.forEach((l) => l());
    });
  }

  /** Clear the screen, its scrollback and modes (RIS, a terminal's full reset), in order after what was written before. */
  reset(): void {
    this.write('\x1bc', true);
    this.cursorVisible = true;
    this.sgrMouse = false;
  }

  onChange(fn: () => void): () => void {
    this.changeListeners.add(fn);
    return () => this.changeListeners.delete(fn);
  }

  /** Answers to the program's terminal queries (cursor position, device attributes). */
  onReply(fn: (data: string) => void): void {
    this.term.onData((d) => this.quiet === 0 && fn(d));
  }

  resize(cols: number, rows: number): void {
    this.term.resize(Math.max(1, cols), Math.max(1, rows));
  }

  /** Whether the program is inside a synchronized update (DEC mode 2026 set): its frame is not complete yet. */
  synchronizing(): boolean {
    return this.term.modes.synchronizedOutputMode;
  }

  cursor(): { x: number; y: number } {
    const b = this.term.buffer.active;
    return { x: b.cursorX, y: b.cursorY };
  }

  inputModes(): InputModes {
    const m = this.term.modes;
    return {
      applicationCursor: m.applicationCursorKeysMode,
      bracketedPaste: m.bracketedPasteMode,
      mouse: m.mouseTrackingMode,
      sgrMouse: this.sgrMouse,
      focusEvents: m.sendFocusMode,
    };
  }

  /** Visible row `y` as plain text, trailing blanks trimmed. */
  rowText(y: number): string {
    const b = this.term.buffer.active;
    return b.getLine(b.baseY + y)?.translateToString(true) ?? '';
  }

  text(): string {
    const out: string[] = [];
    for (let y = 0; y < this.rows; y++) out.push(this.rowText(y));
    return out.join('\n').replace(/\s+$/, '');
  }

  /** Visible row `y` as ANSI: characters with their colours and attributes, ending in a reset. */
  rowAnsi(y: number): string {
    const b = this.term.buffer.active;
    const line = b.getLine(b.baseY + y);
    if (!line) return '';
    const cell = b.getNullCell();
    // One pass over the cells (the compositor calls this for every changed row of every frame:
    // while an agent streams, every row, 60 times a second). Blanks after the last cell that
    // shows anything are held back and dropped at the end (erase-to-end clears them), and a
    // cell's SGR is only worked out when its attributes differ from the cell before.
    // `held` is what follows the last cell that shows; `sgrHeld` the SGR in force at its end.
    let out = '';
    let held = '';
    let sgr = '0';
    let sgrHeld = '0';
    let sgrOut = '0';
    let fgMode = 0;
    let fg = 0;
    let bgMode = 0;
    let bg = 0;
    let flags = 0;
    for (let x = 0; x < this.cols; x++) {
      line.getCell(x, cell);
      if (cell.getWidth() === 0) continue;
      const f = flagsOf(cell);
      const fm = cell.getFgColorMode();
      const fc = cell.getFgColor();
      const bm = cell.getBgColorMode();
      const bc = cell.getBgColor();
      if (f !== flags || fm !== fgMode || fc !== fg || bm !== bgMode || bc !== bg) {
        flags = f;
        fgMode = fm;
        fg = fc;
        bgMode = bm;
        bg = bc;
        sgr = sgrOf(cell);
      }
      if (sgr !== sgrHeld) {
        held += `\x1b[${sgr}m`;
        sgrHeld = sgr;
      }
      const chars = cell.getChars();
      held += chars || ' ';
      if ((chars !== '' && chars !== ' ') || !cell.isBgDefault() || (f & INVERSE) !== 0) {
        out += held;
        held = '';
        sgrOut = sgrHeld;
      }
    }
    return sgrOut === '0' ? out : `${out}\x1b[0m`;
  }

  dispose(): void {
    this.term.dispose();
  }
}

function colour(mode: 'fg' | 'bg', cell: IBufferCell): string | null {
  const isDefault = mode === 'fg' ? cell.isFgDefault() : cell.isBgDefault();
  if (isDefault) return null;
  const c = mode === 'fg' ? cell.getFgColor() : cell.getBgColor();
  const rgb = mode === 'fg' ? cell.isFgRGB() : cell.isBgRGB();
  if (rgb) return `${mode === 'fg' ? 38 : 48};2;${(c >> 16) & 255};${(c >> 8) & 255};${c & 255}`;
  const base = mode === 'fg' ? 30 : 40;
  if (c < 8) return String(base + c);
  if (c < 16) return String(base + 60 + c - 8);
  return `${mode === 'fg' ? 38 : 48};5;${c}`;
}

const INVERSE = 1 << 5;

/** A cell's attributes as bits (bold, dim, italic, underline, blink, inverse, invisible, strikethrough): compared cell to cell. */
function flagsOf(cell: IBufferCell): number {
  return (
    (cell.isBold() ? 1 : 0) |
    (cell.isDim() ? 2 : 0) |
    (cell.isItalic() ? 4 : 0) |
    (cell.isUnderline() ? 8 : 0) |
    (cell.isBlink() ? 16 : 0) |
    (cell.isInverse() ? INVERSE : 0) |
    (cell.isInvisible() ? 64 : 0) |
    (cell.isStrikethrough() ? 128 : 0)
  );
}

/** The SGR parameters that reproduce a cell's look from a reset state. */
function sgrOf(cell: IBufferCell): string {
  const p: string[] = ['0'];
  if (cell.isBold()) p.push('1');
  if (cell.isDim()) p.push('2');
  if (cell.isItalic()) p.push('3');
  if (cell.isUnderline()) p.push('4');
  if (cell.isBlink()) p.push('5');
  if (cell.isInverse()) p.push('7');
  if (cell.isInvisible()) p.push('8');
  if (cell.isStrikethrough()) p.push('9');
  const fg = colour('fg', cell);
  const bg = colour('bg', cell);
  if (fg) p.push(fg);
  if (bg) p.push(bg);
  return p.join(';');
}
