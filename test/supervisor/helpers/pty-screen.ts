// Runs a command in a real pseudo-terminal and reads its screen back through
// @xterm/headless, so tests see what a person would see.
import * as pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';

const { Terminal } = xtermHeadless;

export interface PtyScreen {
  /** The process under test's pid. */
  pid: number;
  screen(): string;
  row(y: number): string;
  raw(): string;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  waitFor(cond: RegExp | string | ((s: string) => boolean), what?: string, timeoutMs?: number): Promise<string>;
  exited: Promise<number>;
  /** Signal the process under test (not its children). */
  signal(sig: NodeJS.Signals): void;
  kill(): void;
}

export function startPtyScreen(file: string, args: string[], opts: { cols: number; rows: number; env: Record<string, string>; cwd?: string }): PtyScreen {
  const term = new Terminal({ cols: opts.cols, rows: opts.rows, allowProposedApi: true });
  const proc = pty.spawn(file, args, { name: 'xterm-256color', cols: opts.cols, rows: opts.rows, env: opts.env, cwd: opts.cwd });
  let raw = '';
  let rows = opts.rows;
  const listeners = new Set<() => void>();
  proc.onData((d) => {
    raw += d;
    term.write(d, () => listeners.forEach((l) => l()));
  });
  let done = false;
  const exited = new Promise<number>((resolve) =>
    proc.onExit(({ exitCode }) => {
      // Settled once the terminal has parsed every byte before the exit: xterm parses writes
      // later, and a screen read right after `exited` saw a blank screen (a last message lost).
      term.write('', () => {
        done = true;
        listeners.forEach((l) => l());
        resolve(exitCode);
      });
    }),
  );
  const row = (y: number): string => term.buffer.active.getLine(term.buffer.active.viewportY + y)?.translateToString(true) ?? '';
  const screen = (): string => Array.from({ length: rows }, (_, y) => row(y)).join('\n');
  return {
    pid: proc.pid,
    screen,
    row,
    raw: () => raw,
    write: (d) => proc.write(d),
    resize: (c, r) => {
      rows = r;
      term.resize(c, r);
      proc.resize(c, r);
    },
    waitFor: (cond, what, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const test = (s: string): boolean => (typeof cond === 'string' ? s.includes(cond) : cond instanceof RegExp ? cond.test(s) : cond(s));
        const check = (): void => {
          const s = screen();
          if (test(s)) {
            cleanup();
            resolve(s);
          }
        };
        const poll = setInterval(check, 50);
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${what ?? String(cond)}${done ? ' (process exited)' : ''}\n--- screen:\n${screen()}`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearInterval(poll);
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    exited,
    signal: (sig) => process.kill(proc.pid, sig),
    kill: () => {
      if (!done) proc.kill('SIGKILL');
    },
  };
}
