// Puts the user's terminal into the supervisor's mode (raw keys, alternate
// screen) and guarantees it comes back on every way out: normal exit, a
// thrown error, an unhandled rejection, a signal.

/** Modes the child may have switched on through us; all switched off on restore. */
const RESET_MODES = '\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[?1l\x1b>';

export interface GuardedStreams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

export class TerminalGuard {
  private active = false;
  private readonly onExit = (): void => this.restore();
  private readonly onCrash = (err: unknown): void => {
    this.restore();
    process.stderr.write(`roz run: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(70);
  };

  constructor(private readonly io: GuardedStreams) {}

  enter(): void {
    if (this.active) return;
    this.active = true;
    process.on('exit', this.onExit);
    process.on('uncaughtException', this.onCrash);
    process.on('unhandledRejection', this.onCrash);
    if (this.io.stdin.isTTY) this.io.stdin.setRawMode(true);
    this.io.stdin.resume();
    this.io.stdout.write('\x1b[?1049h\x1b[H\x1b[2J');
  }

  /** Idempotent and synchronous: safe inside an 'exit' handler. */
  restore(): void {
    if (!this.active) return;
    this.active = false;
    process.off('exit', this.onExit);
    process.off('uncaughtException', this.onCrash);
    process.off('unhandledRejection', this.onCrash);
    try {
      this.io.stdout.write(`\x1b[?2026l\x1b[0m\x1b[r${RESET_MODES}\x1b[?25h\x1b[?1049l`);
    } catch {
      /* stdout closed: nothing left to restore */
    }
    try {
      if (this.io.stdin.isTTY) this.io.stdin.setRawMode(false);
      this.io.stdin.pause();
    } catch {
      /* stdin closed */
    }
  }
}
