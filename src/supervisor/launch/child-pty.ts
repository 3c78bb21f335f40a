// The supervised child (claude) in a pseudo-terminal: spawn, resize, signals,
// and its exit code (128+N when a signal ended it, as a shell reports it).
import { loadPty } from './pty-module.js';

export interface ChildPty {
  readonly pid: number;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  onData(fn: (data: string) => void): void;
  kill(signal?: NodeJS.Signals): void;
  /** Resolves with the exit code once the child is gone. */
  readonly exited: Promise<number>;
  /** The signal that ended it, once it is gone (null: it exited, or not yet). */
  readonly exitSignal: NodeJS.Signals | null;
}

export interface SpawnOptions {
  cols: number;
  rows: number;
  cwd: string;
  env: Record<string, string>;
}

const SIGNALS: Record<number, NodeJS.Signals> = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 9: 'SIGKILL', 15: 'SIGTERM' };

export async function spawnChild(file: string, args: string[], opts: SpawnOptions): Promise<ChildPty> {
  // The pty module is native and external to the bundle: loaded only when `roz run` runs
  // (runCommand checks it first, so this fails only when a caller skipped that).
  const loaded = await loadPty();
  if (!loaded.ok) throw new Error(loaded.message);
  const proc = loaded.pty.spawn(file, args, { name: 'xterm-256color', cols: opts.cols, rows: opts.rows, cwd: opts.cwd, env: opts.env });
  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((r) => (resolveExit = r));
  let done = false;
  let exitSignal: NodeJS.Signals | null = null;
  proc.onExit(({ exitCode, signal }) => {
    done = true;
    if (signal) exitSignal = signalName(signal) ?? (`SIG${signal}` as NodeJS.Signals);
    resolveExit(signal ? 128 + signal : exitCode);
  });
  return {
    pid: proc.pid,
    write: (d) => {
      if (!done) proc.write(d);
    },
    resize: (c, r) => {
      if (!done) proc.resize(Math.max(1, c), Math.max(1, r));
    },
    onData: (fn) => void proc.onData(fn),
    kill: (signal = 'SIGTERM') => {
      if (done) return;
      try {
        process.kill(proc.pid, signal);
      } catch {
        /* already gone */
      }
    },
    exited,
    get exitSignal() {
      return exitSignal;
    },
  };
}

export function signalName(n: number): NodeJS.Signals | undefined {
  return SIGNALS[n];
}
