// An agent's output in a screen (issue 31, part 6): parsed while in view,
// kept raw and bounded while not, parsed when it comes into view; a terminal
// query is answered at once even out of view; a stream that overflowed the
// bound is rebuilt from a clean screen. Real virtual screens (@xterm/headless).
import { describe, expect, it } from 'vitest';
import { PaneFeed, type PaneSink } from '../../src/tui/screen/pane-feed.js';
import { VirtualScreen } from '../../src/tui/screen/virtual-screen.js';

/** Wait until xterm parsed what was written (its writes are parsed asynchronously). */
const parsed = (s: VirtualScreen) => new Promise<void>((r) => s.term.write('', r));

function recording(): PaneSink & { calls: Array<[string, boolean] | 'reset'> } {
  const calls: Array<[string, boolean] | 'reset'> = [];
  return { calls, write: (d, q = false) => calls.push([d, q]), reset: () => calls.push('reset') };
}

describe('PaneFeed', () => {
  it('the agent in view is parsed as it comes; one out of view is not, until it comes into view', async () => {
    const screen = new VirtualScreen(40, 5, 0);
    const feed = new PaneFeed(screen, false);
    feed.write('hidden line one\r\n');
    feed.write('hidden line two');
    await parsed(screen);
    expect(screen.term.buffer.active.getLine(0)?.translateToString(true)).toBe('');
    expect(feed.pendingChars).toBe('hidden line one\r\nhidden line two'.length);
    feed.show(true);
    await parsed(screen);
    expect(screen.term.buffer.active.getLine(0)?.translateToString(true)).toBe('hidden line one');
    expect(screen.term.buffer.active.getLine(1)?.translateToString(true)).toBe('hidden line two');
    expect(feed.pendingChars).toBe(0);
    feed.write('\r\nlive');
    await parsed(screen);
    expect(screen.term.buffer.active.getLine(2)?.translateToString(true)).toBe('live');
    feed.show(false);
    feed.write('\r\nnot yet');
    await parsed(screen);
    expect(screen.term.buffer.active.getLine(3)?.translateToString(true)).toBe('');
  });

  it('a query out of view is answered at once, after what was kept before it; a replay’s is not', async () => {
    const screen = new VirtualScreen(40, 5, 0);
    const replies: string[] = [];
    screen.onReply((d) => replies.push(d));
    const feed = new PaneFeed(screen, false);
    feed.write('abc');
    feed.write('\x1b[6n');
    await parsed(screen);
    // The cursor was after "abc" when it asked: row 1, column 4.
    expect(replies).toEqual(['\x1b[1;4R']);
    expect(feed.pendingChars).toBe(0);
    feed.write('\x1b[c', true);
    await parsed(screen);
    expect(replies).toHaveLength(1);
    // Control: plain output out of view is not parsed, so answers nothing.
    feed.write('plain');
    await parsed(screen);
    expect(replies).toHaveLength(1);
  });

  it('keeps at most its bound: past it, the oldest output goes, and coming into view starts from a clean screen', () => {
    const sink = recording();
    const feed = new PaneFeed(sink, false, 10);
    feed.write('12345');
    feed.write('67890');
    expect(sink.calls).toEqual([]);
    feed.write('abc');
    expect(feed.pendingChars).toBe(8);
    feed.write('x'.repeat(25));
    expect(feed.pendingChars).toBe(10);
    feed.show(true);
    expect(sink.calls).toEqual(['reset', ['x'.repeat(10), true]]);
    // In view: straight through.
    feed.write('y');
    expect(sink.calls.at(-1)).toEqual(['y', false]);
  });

  it('without an overflow, coming into view continues the screen (no reset)', () => {
    const sink = recording();
    const feed = new PaneFeed(sink, false, 100);
    feed.write('a');
    feed.write('b');
    feed.show(true);
    expect(sink.calls).toEqual([['ab', true]]);
  });

  it('resync: the supervisor’s tail replaces what the screen had, from a clean screen; out of view it waits for show', () => {
    const sink = recording();
    const feed = new PaneFeed(sink, true, 100);
    feed.resync('TAIL');
    expect(sink.calls).toEqual(['reset', ['TAIL', true]]);
    feed.show(false);
    feed.resync('LATER');
    expect(sink.calls).toHaveLength(2);
    feed.show(true);
    expect(sink.calls.slice(2)).toEqual(['reset', ['LATER', true]]);
  });
});
