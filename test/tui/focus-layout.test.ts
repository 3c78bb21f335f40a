// Who has the keyboard as human gates come and go, and where the panel goes.
import { describe, expect, it } from 'vitest';
import { FocusState } from '../../src/tui/screen/focus.js';
import { computeLayout, SIDE_BY_SIDE_COLS } from '../../src/tui/screen/layout.js';

describe('focus rules', () => {
  it("a request takes the keyboard from Claude's pane, rings once, and gives it back when answered", () => {
    const f = new FocusState();
    f.setPending(['r1']);
    expect(f.focus).toBe('roz');
    expect(f.takeBell()).toBe(true);
    expect(f.takeBell()).toBe(false);
    f.setPending([]);
    expect(f.focus).toBe('child');
    expect(f.split).toBe(false);
  });

  it('leaving a waiting request for Claude keeps the panel on screen without the keyboard; answering from a view you reopened returns to Claude', () => {
    const f = new FocusState();
    f.setPending(['r1']);
    f.takeBell();
    f.toggle(); // Ctrl-]: to Claude
    expect(f.focus).toBe('child');
    expect(f.split).toBe(true);
    expect(f.takeBell()).toBe(false); // already rung for r1
    f.toggle(); // Ctrl-]: back to roz to answer
    expect(f.focus).toBe('roz');
    f.setPending([]);
    expect(f.focus).toBe('child');
    expect(f.split).toBe(false);
  });

  it('a request arriving while the human is in a roz view: no bell, and they stay in roz after answering', () => {
    const f = new FocusState();
    f.toggle();
    f.setPending(['r1']);
    expect(f.takeBell()).toBe(false);
    f.setPending([]);
    expect(f.focus).toBe('roz');
    // Then leaving for Claude while another waits rings for that one.
    f.setPending(['r2']);
    f.leave();
    expect(f.takeBell()).toBe(true);
  });

  it('the chosen split stays after the queue empties', () => {
    const f = new FocusState();
    f.toggleSplit();
    f.setPending(['r1']);
    f.setPending([]);
    expect(f.split).toBe(true);
  });
});

describe('layout', () => {
  it('panel under Claude on ordinary terminals, beside it on wide ones, none when too small', () => {
    const bottom = computeLayout(80, 24, true);
    expect(bottom.child).toEqual({ x: 0, y: 0, cols: 80, rows: 13 });
    expect(bottom.roz).toEqual({ x: 0, y: 14, cols: 80, rows: 9 });
    const side = computeLayout(SIDE_BY_SIDE_COLS + 50, 50, true);
    expect(side.child.cols).toBeGreaterThanOrEqual(100);
    expect(side.child.cols + 1 + side.roz.cols).toBe(200);
    expect(side.divider?.char).toBe('│');
    expect(computeLayout(80, 8, true).split).toBe(false);
    expect(computeLayout(80, 24, false)).toMatchObject({ split: false, child: { cols: 80, rows: 23 } });
  });
});
