// Paints the real terminal: the virtual screens on show (Claude's pane, roz's
// views, or both side by side / one above the other), roz's status line on
// the last row, the cursor, and the child's input modes. Only rows that
// changed are rewritten, inside one synchronized update.
import type { Layout, Rect } from './layout.js';
import type { InputModes, VirtualScreen } from './virtual-screen.js';

export interface Region {
  screen: VirtualScreen;
  rect: Rect;
}

export interface Frame {
  /** The screens on show and where; a region's screen is sized to its rect. */
  regions: Region[];
  /** Lines between regions. */
  dividers?: Array<Rect & { char: string; label?: string }>;
  status: string;
  /** Draw the status line as an alert (a human is needed). */
  alert: boolean;
  /** Where the cursor is on the terminal, or null to hide it (the roz views). */
  cursor: { x: number; y: number } | null;
  /** The child's input modes, mirrored so keys and pastes reach it as it asked; null = all off. */
  modes: InputModes | null;
}

/** What shows where: both screens when split, else the focused one over the whole pane. */
export function paneRegions(layout: Layout, focus: 'child' | 'roz', child: VirtualScreen, roz: VirtualScreen): Pick<Frame, 'regions' | 'dividers'> {
  const childRegion = { screen: child, rect: layout.child };
  const rozRegion = { screen: roz, rect: layout.roz };
  return {
    regions: layout.split ? [childRegion, rozRegion] : [focus === 'child' ? childRegion : rozRegion],
    dividers: layout.divider ? [layout.divider] : [],
  };
}

const OFF: InputModes = { applicationCursor: false, bracketedPaste: false, mouse: 'none', sgrMouse: false, focusEvents: false };
const MOUSE: Record<InputModes['mouse'], number | null> = { none: null, x10: 9, vt200: 1000, drag: 1002, any: 1003 };

export function modeSequence(m: InputModes): string {
  const set = (n: number, on: boolean): string => `\x1b[?${n}${on ? 'h' : 'l'}`;
  let s = set(1, m.applicationCursor) + set(2004, m.bracketedPaste) + set(1004, m.focusEvents) + set(1006, m.sgrMouse);
  s += '\x1b[?9l\x1b[?1000l\x1b[?1002l\x1b[?1003l';
  const mouse = MOUSE[m.mouse];
  if (mouse) s += set(mouse, true);
  return s;
}

/** How long a screen inside a synchronized update (DEC mode 2026) may hold the paint back. */
const SYNC_HOLD_MS = 100;
const SYNC_RECHECK_MS = 4;
/** After a key went to the pane in view, how long the next changes (its echo) paint without waiting for the interval… */
const ECHO_WINDOW_MS = 100;
/** …and how many of them. */
const ECHO_PAINTS = 2;

export class Compositor {
  private painted: string[] = [];
  private disposed = false;
  private modes = '';
  private timer: NodeJS.Timeout | null = null;
  /** When the last paint ran (performance.now()), and since when a synchronized update holds the next one. */
  private lastPaint = Number.NEGATIVE_INFINITY;
  private heldSince: number | null = null;
  /** When a key last went to the pane in view, and how many paints may still skip the interval for its echo. */
  private keyAt = Number.NEGATIVE_INFINITY;
  private echoPaints = 0;

  constructor(
    private readonly out: (s: string) => void,
    private cols: number,
    private rows: number,
    private readonly frame: () => Frame,
    /** At most one paint per this many ms: a burst of child output costs a paint at its start and one per interval after. */
    private readonly intervalMs = 16,
  ) {}

  get paneRows(): number {
    return Math.max(1, this.rows - 1);
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    this.invalidate();
  }

  /** Forget what is on the real screen: the next paint redraws everything. */
  invalidate(): void {
    if (this.disposed) return;
    this.painted = [];
    this.out('\x1b[0m\x1b[2J');
    this.schedule();
  }

  /**
   * Paint soon: at once (next turn of the event loop) when the last paint is an
   * interval old, else when it will be. A key's echo after a quiet spell shows
   * without waiting out a whole interval (it used to wait 16 ms every time:
   * most of what roz added to keypress-to-screen latency, npm run bench
   * --fleet), and a screen streaming output still costs at most one paint per
   * interval. A screen in the middle of a synchronized update (the program
   * sent CSI ? 2026 h and not yet l) holds the paint back until it ends, for
   * at most SYNC_HOLD_MS, so a frame is never shown half drawn.
   */
  schedule(): void {
    if (this.disposed) return;
    const now = performance.now();
    const echo = this.echoPaints > 0 && now - this.keyAt < ECHO_WINDOW_MS;
    if (this.timer) {
      if (!echo) return;
      clearTimeout(this.timer);
    }
    if (echo) this.echoPaints -= 1;
    this.arm(echo ? 0 : Math.max(0, this.lastPaint + this.intervalMs - now));
  }

  /**
   * A key went to the pane in view: the next changes (its echo, at most
   * ECHO_PAINTS of them within ECHO_WINDOW_MS) paint at once even inside
   * the interval, so a key typed into a streaming pane does not wait for the
   * pane's next frame. Typing, not output, sets the pace of these paints.
   */
  inputSent(): void {
    this.keyAt = performance.now();
    this.echoPaints = ECHO_PAINTS;
  }

  private arm(wait: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      const f = this.frame();
      // The rest of the program's frame comes in its next write: look again shortly.
      if (this.holding(f)) this.arm(SYNC_RECHECK_MS);
      else this.paint(f);
    }, wait);
  }

  /** Whether a screen on show is inside a synchronized update that has not held the paint too long already. */
  private holding(f: Frame): boolean {
    const now = performance.now();
    const syncing = f.regions.some((r) => r.screen.synchronizing());
    if (!syncing) {
      this.heldSince = null;
      return false;
    }
    this.heldSince ??= now;
    return now - this.heldSince < SYNC_HOLD_MS;
  }

  paint(f: Frame = this.frame()): void {
    if (this.disposed) return;
    this.lastPaint = performance.now();
    this.heldSince = null;
    let s = '\x1b[?2026h\x1b[?25l';
    for (let y = 0; y < this.paneRows; y++) {
      const row = this.composeRow(f, y);
      if (this.painted[y] === row) continue;
      this.painted[y] = row;
      s += `\x1b[${y + 1};1H\x1b[0m\x1b[2K${row}`;
    }
    const status = `${f.alert ? '\x1b[0;30;43m' : '\x1b[0;7m'}${f.status.padEnd(this.cols).slice(0, this.cols)}\x1b[0m`;
    if (this.painted[this.paneRows] !== status) {
      this.painted[this.paneRows] = status;
      s += `\x1b[${this.rows};1H\x1b[2K${status}`;
    }
    const modes = modeSequence(f.modes ?? OFF);
    if (modes !== this.modes) {
      this.modes = modes;
      s += modes;
    }
    if (f.cursor) s += `\x1b[${f.cursor.y + 1};${f.cursor.x + 1}H\x1b[?25h`;
    this.out(`${s}\x1b[?2026l`);
  }

  /** Row `y` of the terminal: each region's part at its column (a region's row ends in a reset). */
  private composeRow(f: Frame, y: number): string {
    const parts: Array<{ x: number; text: string }> = [];
    for (const r of f.regions) {
      if (y < r.rect.y || y >= r.rect.y + r.rect.rows) continue;
      const ry = y - r.rect.y;
      parts.push({ x: r.rect.x, text: ry < r.screen.rows ? r.screen.rowAnsi(ry) : '' });
    }
    for (const d of f.dividers ?? []) {
      if (y < d.y || y >= d.y + d.rows) continue;
      // A labelled rule, so it is not mistaken for one of Claude's own.
      const text =
        d.label && d.cols > d.label.length + 4 ? `${d.char.repeat(2)} ${d.label} ${d.char.repeat(d.cols - d.label.length - 4)}` : d.char.repeat(d.cols);
      parts.push({ x: d.x, text: `\x1b[2m${text}\x1b[0m` });
    }
    parts.sort((a, b) => a.x - b.x);
    return parts.map((p) => (p.x === 0 ? p.text : `\x1b[${y + 1};${p.x + 1}H${p.text}`)).join('');
  }

  /**
   * No paint after this: a screen's parser still delivers changes after the
   * window closed (Ink's last frame on unmount), and a paint then lands on the
   * human's shell, after the terminal was restored.
   */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
