// What an agent's pty output does in a screen (issue 31, part 6): the agent in
// view is parsed into its virtual screen as it comes; every other agent's
// output is kept as raw bytes (its newest `bound` characters) and parsed only
// when it comes into view. With 8 agents streaming, parsing all of them (and
// growing their scrollback) kept an attached screen's core busy, and a
// keypress waited behind that work.
//
// Two things cannot wait for the agent to come into view: a terminal query
// (device attributes, cursor position, a mode report) is answered by the
// virtual screen as it parses, and a client waits for that answer; so output
// holding one is parsed at once, with everything kept before it. And a hidden
// agent whose kept bytes overflowed the bound has lost part of its stream:
// its screen is cleared and rebuilt from what was kept (as a screen that
// attaches late is built from the supervisor's replay).

import { asksTerminal } from '../../core/terminal-query.js';

/** Where the output goes: an agent's virtual screen (virtual-screen.ts). */
export interface PaneSink {
  write(data: string, quiet?: boolean): void;
  /** Clear the screen and its state, as a terminal reset does. */
  reset(): void;
}

/** The raw bytes kept of an agent out of view: about a few screens of output, as the supervisor's replay. */
export const HIDDEN_BOUND_CHARS = 256 * 1024;

export class PaneFeed {
  private visible: boolean;
  private kept: string[] = [];
  private keptChars = 0;
  /** Part of the stream was dropped while hidden: the screen no longer continues from its state. */
  private broken = false;

  constructor(
    private readonly sink: PaneSink,
    visible: boolean,
    private readonly bound = HIDDEN_BOUND_CHARS,
  ) {
    this.visible = visible;
  }

  /** New output (`quiet`: a replay, whose queries were answered when they were new). */
  write(data: string, quiet = false): void {
    if (this.visible) {
      this.sink.write(data, quiet);
      return;
    }
    if (!quiet && asksTerminal(data)) {
      // A question the client waits on: everything kept first, then this, parsed now.
      this.flush();
      this.sink.write(data, false);
      return;
    }
    this.kept.push(data);
    this.keptChars += data.length;
    while (this.keptChars > this.bound && this.kept.length > 1) {
      this.keptChars -= this.kept.shift()!.length;
      this.broken = true;
    }
    if (this.keptChars > this.bound) {
      // One chunk larger than the bound: its newest part.
      const only = this.kept[0]!;
      this.kept[0] = only.slice(only.length - this.bound);
      this.keptChars = this.kept[0].length;
      this.broken = true;
    }
  }

  /** Into view: what was kept is parsed, and output is parsed as it comes. Out of view: kept from now on. */
  show(visible: boolean): void {
    if (visible) this.flush();
    this.visible = visible;
  }

  /**
   * The agent's newest output as the supervisor kept it, replacing what this screen had (an attached screen is sent
   * only the agent in view: coming into view, it gets the supervisor's tail). Old output: its queries are not answered.
   */
  resync(tail: string): void {
    this.kept = tail ? [tail] : [];
    this.keptChars = tail.length;
    this.broken = true;
    if (this.visible) this.flush();
  }

  /** The raw characters waiting to be parsed (for tests and the bench). */
  get pendingChars(): number {
    return this.keptChars;
  }

  private flush(): void {
    if (this.broken) {
      // The stream has a gap: start from a clean screen with what is left (old output, queries not answered again).
      this.sink.reset();
      this.broken = false;
    }
    if (this.kept.length) {
      const text = this.kept.join('');
      this.kept = [];
      this.keptChars = 0;
      this.sink.write(text, true);
    }
  }
}
