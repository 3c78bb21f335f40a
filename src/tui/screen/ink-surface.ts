// Streams that let Ink draw into a virtual screen and read keys we route to
// it, instead of owning the real terminal (which the compositor owns).
import { EventEmitter } from 'node:events';
import type { VirtualScreen } from './virtual-screen.js';

/** Ink renders in debug mode here: every write is a whole frame, so it replaces the screen. */
export class InkStdout extends EventEmitter {
  readonly isTTY = true;
  constructor(
    private readonly screen: VirtualScreen,
    public columns: number,
    public rows: number,
  ) {
    super();
  }

  write = (frame: string): boolean => {
    this.screen.write(`\x1b[H\x1b[2J\x1b[0m${frame.replace(/\r?\n/g, '\r\n')}`);
    return true;
  };

  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

export class InkStdin extends EventEmitter {
  readonly isTTY = true;
  private queue: string[] = [];

  push(data: string): void {
    this.queue.push(data);
    this.emit('readable');
  }

  read = (): string | null => this.queue.shift() ?? null;
  setEncoding(): this {
    return this;
  }
  setRawMode(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
}
