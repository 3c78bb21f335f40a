// Where each part of `roz run` goes on the terminal: Claude's pane, roz's
// panel (beside it on a wide terminal, under it otherwise) and the status
// line on the last row. Pure: sizes in, rectangles out.

export interface Rect {
  x: number;
  y: number;
  cols: number;
  rows: number;
}

export interface Layout {
  /** Claude's pane. */
  child: Rect;
  /** roz's views: the whole pane area when not split. */
  roz: Rect;
  /** Both on screen at once. */
  split: boolean;
  /** The line between them when split. */
  divider: (Rect & { char: '│' | '─'; label?: string }) | null;
}

/** From this width on the panel sits beside Claude (which keeps at least 100 columns), under it below. */
export const SIDE_BY_SIDE_COLS = 150;

export function computeLayout(cols: number, rows: number, split: boolean): Layout {
  const paneRows = Math.max(1, rows - 1);
  const whole: Rect = { x: 0, y: 0, cols, rows: paneRows };
  // Too small to share: each side would be unusable.
  if (!split || paneRows < 10 || cols < 40) return { child: whole, roz: whole, split: false, divider: null };
  if (cols >= SIDE_BY_SIDE_COLS) {
    const panel = Math.max(40, Math.floor(cols * 0.34));
    const childCols = cols - panel - 1;
    return {
      child: { x: 0, y: 0, cols: childCols, rows: paneRows },
      roz: { x: childCols + 1, y: 0, cols: panel, rows: paneRows },
      split: true,
      divider: { x: childCols, y: 0, cols: 1, rows: paneRows, char: '│' },
    };
  }
  // Under Claude: roz gets about two fifths, Claude keeps the rest (and its input box).
  const panel = Math.max(8, Math.floor(paneRows * 0.42));
  const childRows = paneRows - panel - 1;
  return {
    child: { x: 0, y: 0, cols, rows: childRows },
    roz: { x: 0, y: childRows + 1, cols, rows: panel },
    split: true,
    divider: { x: 0, y: childRows, cols, rows: 1, char: '─', label: 'roz' },
  };
}
