// `roz run` on screen: the child's pty in a pane, roz's status line under it,
// the Ink views behind the hotkey, and human gates brought to the front.
// The run itself (supervisor, child, signals, settings) is the supervisor's
// RunService; this only draws it, and always restores the terminal.
import { render } from 'ink';
import { StringDecoder } from 'node:string_decoder';
import { RunService, type RunRequest, type RunResult } from '../supervisor/run-service.js';
import { TerminalGuard } from '../supervisor/terminal-guard.js';
import { App } from './App.js';
import { Compositor } from './screen/compositor.js';
import { InkStdin, InkStdout } from './screen/ink-surface.js';
import { routeInput, type Focus } from './screen/input-router.js';
import { VirtualScreen } from './screen/virtual-screen.js';
import { statusLine } from './status-line.js';

export interface RunScreenOptions extends Omit<RunRequest, 'pty' | 'supervisor'> {
  approvalTimeoutMs: number;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

export type { RunResult };

export async function runScreen(opts: RunScreenOptions): Promise<RunResult> {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  let cols = stdout.columns || 80;
  let rows = Math.max(3, stdout.rows || 24);
  const { stdin: _i, stdout: _o, approvalTimeoutMs, ...req } = opts;
  const run = await RunService.start({ ...req, supervisor: { approvalTimeoutMs }, pty: { cols, rows: rows - 1 } });
  const supervisor = run.supervisor!;
  const child = run.child;
  for (const n of run.notes) process.stderr.write(`roz run: ${n}\n`);
  const guard = new TerminalGuard({ stdin, stdout });
  const childScreen = new VirtualScreen(cols, rows - 1);
  const rozScreen = new VirtualScreen(cols, rows - 1, 0);

  let focus: Focus = 'child';
  // Focus moved to roz by an approval (not by the human): give it back when answered.
  let autoFocused = false;
  const compositor = new Compositor((s) => stdout.write(s), cols, rows, () => {
    const pane = focus === 'child' ? childScreen : rozScreen;
    const snap = supervisor.snapshot();
    return {
      pane,
      status: statusLine(snap, focus, cols),
      alert: snap.pending.length > 0,
      cursor: focus === 'child' && childScreen.cursorVisible ? childScreen.cursor() : null,
      modes: focus === 'child' ? childScreen.inputModes() : null,
    };
  });
  const setFocus = (f: Focus): void => {
    if (f === focus) return;
    focus = f;
    autoFocused = false;
    compositor.invalidate();
  };

  guard.enter();
  child.onData((d) => childScreen.write(d));
  childScreen.onReply((d) => child.write(d));
  childScreen.onChange(() => focus === 'child' && compositor.schedule());
  rozScreen.onChange(() => focus === 'roz' && compositor.schedule());

  const inkOut = new InkStdout(rozScreen, cols, rows - 1);
  const inkIn = new InkStdin();
  const app = () => <App source={supervisor} width={cols} height={rows - 1} onLeave={() => setFocus('child')} />;
  const ink = render(app(), {
    stdout: inkOut as unknown as NodeJS.WriteStream,
    stdin: inkIn as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });

  let pendingBefore = 0;
  const unsubscribe = supervisor.subscribe(() => {
    const pending = supervisor.snapshot().pending.length;
    if (pending > pendingBefore && focus === 'child') {
      setFocus('roz');
      autoFocused = true;
    } else if (pending === 0 && pendingBefore > 0 && autoFocused) {
      setFocus('child');
    }
    pendingBefore = pending;
    compositor.schedule();
  });

  // A multi-byte character can be split across reads: decode across chunks.
  const decoder = new StringDecoder('utf8');
  const onInput = (data: Buffer | string): void =>
    routeInput(typeof data === 'string' ? data : decoder.write(data), {
      focus: () => focus,
      toChild: (d) => child.write(d),
      toRoz: (d) => inkIn.push(d),
      onHotkey: () => setFocus(focus === 'child' ? 'roz' : 'child'),
    });
  stdin.on('data', onInput);

  const onResize = (): void => {
    cols = stdout.columns || cols;
    rows = Math.max(3, stdout.rows || rows);
    child.resize(cols, rows - 1);
    childScreen.resize(cols, rows - 1);
    rozScreen.resize(cols, rows - 1);
    inkOut.resize(cols, rows - 1);
    ink.rerender(app());
    compositor.resize(cols, rows);
  };
  stdout.on('resize', onResize);

  compositor.invalidate();
  try {
    await child.exited;
  } finally {
    stdin.off('data', onInput);
    stdout.off('resize', onResize);
    unsubscribe();
    ink.unmount();
    compositor.dispose();
    guard.restore();
    childScreen.dispose();
    rozScreen.dispose();
  }
  return run.finish();
}
