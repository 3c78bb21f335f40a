// Runs the real Claude Code client interactively in a pseudo-terminal against
// the fake API, and reads its screen through a headless xterm, so tests can
// type like a human and wait for what a human would see.
import * as pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';
import { killTree } from './kill-tree.js';
import { startFakeApi, summarize, type FakeApi, type FakeApiOptions, type Scenario } from './fake-api.js';
import { assertClientInstalled, clientEnv } from './run-print.js';
import { ROZ_PLUGIN_DIR, createWorkspace, seedClaudeJson, type ClientVersion, type Workspace } from './workspace.js';

const { Terminal } = xtermHeadless;

export const KEYS = {
  enter: '\r',
  escape: '\x1b',
  tab: '\t',
  backspace: '\x7f',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  'ctrl-c': '\x03',
  'ctrl-d': '\x04',
} as const;
export type Key = keyof typeof KEYS;

export type ScreenCondition = RegExp | string | ((screen: string) => boolean);

/** A permission dialog of the client itself, and the key that answers it "yes". */
export interface DialogRule {
  name: string;
  match: RegExp;
  answer: string;
}

/** The client's own permission dialogs (observed in 2.1.x): option 1 is always "Yes". */
export const DEFAULT_DIALOGS: DialogRule[] = [
  { name: 'permission', match: /Do you want to (proceed|create|make this edit|allow)|requires approval/i, answer: '1' },
  // After /exit while a background agent still runs: "1. Exit and stop tasks".
  { name: 'exit-with-background-work', match: /Background work is running[\s\S]*1\. Exit and stop tasks/, answer: '1' },
];

export interface PtyOptions {
  /** Which pinned client to run (default: the newest). */
  client?: ClientVersion;
  scenario: Scenario;
  pluginDir?: string;
  workspace?: Workspace;
  env?: Record<string, string>;
  /** Extra client arguments (default: none, i.e. the default permission mode). */
  args?: string[];
  cols?: number;
  rows?: number;
  /** Dialogs answered automatically while the session runs; [] to answer none. */
  dialogs?: DialogRule[];
  api?: FakeApiOptions;
}

export interface PtySession {
  api: FakeApi;
  workspace: Workspace;
  /** The visible screen, one line per row, trailing blanks trimmed. */
  screenText(): string;
  /** Everything the client printed, scrollback included. */
  fullText(): string;
  /** Raw bytes (as a string) received from the pty. */
  raw(): string;
  /** Resolves with the screen once `cond` holds; rejects with the screen and request log after `timeoutMs`. */
  waitForScreen(cond: ScreenCondition, timeoutMs?: number, what?: string): Promise<string>;
  type(text: string): void;
  press(key: Key): void;
  /** Names of the dialogs answered so far, in order. */
  answeredDialogs: string[];
  /** Type `/exit`, wait for the process to end; kills it after `timeoutMs`. */
  exit(timeoutMs?: number): Promise<number>;
  exitCode: number | null;
  /** Kill the client (idempotent) and stop the fake API. */
  dispose(): Promise<void>;
}

const DIALOG_RETRY_MS = 700;

const matches = (cond: ScreenCondition, screen: string): boolean =>
  typeof cond === 'string' ? screen.includes(cond) : cond instanceof RegExp ? cond.test(screen) : cond(screen);

export async function startPty(opts: PtyOptions): Promise<PtySession> {
  const bin = assertClientInstalled(opts.client);
  const ws = opts.workspace ?? createWorkspace();
  Object.assign(ws.env, opts.env ?? {});
  seedClaudeJson(ws, undefined, opts.client);
  const api = await startFakeApi(opts.scenario, opts.api);
  const cols = opts.cols ?? 120;
  const rows = opts.rows ?? 40;
  const dialogs = opts.dialogs ?? DEFAULT_DIALOGS;

  const term = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
  const env = clientEnv(ws, api, { ...(opts.env ?? {}), TERM: 'xterm-256color', COLORTERM: 'truecolor' });
  delete env.NO_COLOR;
  const proc = pty.spawn(bin, ['--plugin-dir', opts.pluginDir ?? ROZ_PLUGIN_DIR, ...(opts.args ?? [])], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: ws.repo,
    env: env as Record<string, string>,
  });

  let raw = '';
  let exitCode: number | null = null;
  let exited = false;
  const exitWaiters: Array<() => void> = [];
  const listeners = new Set<() => void>();
  const notify = (): void => listeners.forEach((l) => l());

  let disposed = false;
  proc.onData((d) => {
    if (disposed) return;
    raw += d;
    term.write(d, notify);
  });
  proc.onExit(({ exitCode: code }) => {
    exited = true;
    exitCode = code;
    exitWaiters.splice(0).forEach((w) => w());
    notify();
  });

  const lines = (from: number, to: number): string => {
    const buf = term.buffer.active;
    const out: string[] = [];
    for (let y = from; y < to; y++) out.push(buf.getLine(y)?.translateToString(true) ?? '');
    return out.join('\n').replace(/\s+$/, '');
  };
  const screenText = (): string => lines(term.buffer.active.viewportY, term.buffer.active.viewportY + rows);
  const fullText = (): string => lines(0, term.buffer.active.length);

  // Answer the client's own permission dialogs as they appear. Dialogs ignore
  // keys for a moment after they open, so re-answer one that is still showing,
  // but no more often than every DIALOG_RETRY_MS.
  const answeredDialogs: string[] = [];
  let lastAnswerAt = 0;
  const dialogWatcher = (): void => {
    if (exited || Date.now() - lastAnswerAt < DIALOG_RETRY_MS) return;
    const screen = screenText();
    const d = dialogs.find((rule) => rule.match.test(screen));
    if (!d) return;
    lastAnswerAt = Date.now();
    answeredDialogs.push(d.name);
    proc.write(d.answer);
  };
  const dialogPoll = setInterval(dialogWatcher, 150);
  listeners.add(dialogWatcher);

  const describe = (): string =>
    `\n--- screen:\n${screenText()}\n--- fake API requests:\n${summarize(api.requests) || '(none)'}\n--- dialogs answered: ${answeredDialogs.join(', ') || '(none)'}\n--- script errors: ${api.scriptErrors.join('; ') || '(none)'}\n--- other requests: ${api.other.map((o) => `${o.method} ${o.path}`).join(', ') || '(none)'}`;

  const waitForScreen = (cond: ScreenCondition, timeoutMs = 30_000, what?: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const screen = screenText();
        if (matches(cond, screen)) {
          done();
          resolve(screen);
          return true;
        }
        return false;
      };
      // Rendering is event-driven, but poll too: a condition can become true
      // through scrolling or a timer-driven repaint with no new bytes.
      const poll = setInterval(check, 100);
      const timer = setTimeout(() => {
        done();
        reject(new Error(`waitForScreen(${what ?? String(cond)}) timed out after ${timeoutMs} ms${exited ? ` (client exited ${exitCode})` : ''}${describe()}`));
      }, timeoutMs);
      const listener = (): void => void check();
      const done = (): void => {
        clearInterval(poll);
        clearTimeout(timer);
        listeners.delete(listener);
      };
      listeners.add(listener);
      check();
    });

  const kill = (): void => {
    if (!exited) killTree(proc.pid);
  };

  const session: PtySession = {
    api,
    workspace: ws,
    screenText,
    fullText,
    raw: () => raw,
    waitForScreen,
    type: (text) => proc.write(text),
    press: (key) => proc.write(KEYS[key]),
    answeredDialogs,
    get exitCode() {
      return exitCode;
    },
    exit: async (timeoutMs = 15_000) => {
      if (!exited) {
        // A stray key can sit in the input (a dialog answered again as it closed, under load): "1/exit" is a prompt.
        const input = screenText()
          .split('\n')
          .reverse()
          .find((l) => l.startsWith('❯'));
        const stray = input?.slice(1).trim() ?? '';
        if (stray) proc.write('\x7f'.repeat(stray.length));
        proc.write('/exit');
        await waitForScreen(/\/exit/, 5_000, '/exit typed').catch(() => undefined);
        proc.write(KEYS.enter);
        await new Promise<void>((resolve) => {
          if (exited) return resolve();
          const timer = setTimeout(() => {
            kill();
            resolve();
          }, timeoutMs);
          exitWaiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      if (exitCode === null) throw new Error(`client did not exit after /exit within ${timeoutMs} ms${describe()}`);
      return exitCode;
    },
    dispose: async () => {
      if (process.env.ROZ_E2E_VERBOSE) process.stderr.write(`[e2e] pty session${describe()}\n`);
      clearInterval(dialogPoll);
      kill();
      disposed = true;
      listeners.clear();
      term.dispose();
      await api.close();
    },
  };
  return session;
}
