// `roz run` on screen: the child's pty in a pane, roz's status line under it,
// the Ink views behind the hotkey, and human gates brought to the front.
// The run itself (supervisor, child, signals, settings) is the supervisor's
// RunService; this only draws it, and always restores the terminal.
import { render } from 'ink';
import { StringDecoder } from 'node:string_decoder';
import { RunService, type RunRequest, type RunResult } from '../supervisor/run-service.js';
import { TerminalGuard } from '../supervisor/terminal-guard.js';
import { App } from './App.js';
import { Compositor, paneRegions } from './screen/compositor.js';
import { InkStdin, InkStdout } from './screen/ink-surface.js';
import { FocusState } from './screen/focus.js';
import { routeInput } from './screen/input-router.js';
import { computeLayout, type Layout } from './screen/layout.js';
import { VirtualScreen } from './screen/virtual-screen.js';
import { statusLine } from './status-line.js';

export interface RunScreenOptions extends Omit<RunRequest, 'pty' | 'supervisor'> {
  approvalTimeoutMs: number;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

export type { RunResult };

function sameLayout(a: Layout, b: Layout): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function runScreen(opts: RunScreenOptions): Promise<RunResult> {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  let cols = stdout.columns || 80;
  let rows = Math.max(3, stdout.rows || 24);
  const focus = new FocusState();
  let layout = computeLayout(cols, rows, focus.split);
  const { stdin: _i, stdout: _o, approvalTimeoutMs, ...req } = opts;
  const run = await RunService.start({ ...req, supervisor: { approvalTimeoutMs }, pty: { cols: layout.child.cols, rows: layout.child.rows } });
  const supervisor = run.supervisor!;
  const child = run.child;
  for (const n of run.notes) process.stderr.write(`roz run: ${n}\n`);
  const guard = new TerminalGuard({ stdin, stdout });
  const childScreen = new VirtualScreen(layout.child.cols, layout.child.rows);
  const rozScreen = new VirtualScreen(layout.roz.cols, layout.roz.rows, 0);

  const compositor = new Compositor(
    (s) => stdout.write(s),
    cols,
    rows,
    () => {
      const snap = supervisor.snapshot();
      const onChild = focus.focus === 'child';
      const c = childScreen.cursor();
      return {
        ...paneRegions(layout, focus.focus, childScreen, rozScreen),
        status: statusLine(snap, focus.focus, cols),
        alert: snap.pending.length > 0,
        cursor: onChild && childScreen.cursorVisible ? { x: layout.child.x + c.x, y: layout.child.y + c.y } : null,
        modes: onChild ? childScreen.inputModes() : null,
      };
    },
  );

  guard.enter();
  child.onData((d) => childScreen.write(d));
  childScreen.onReply((d) => child.write(d));
  childScreen.onChange(() => (layout.split || focus.focus === 'child') && compositor.schedule());
  rozScreen.onChange(() => (layout.split || focus.focus === 'roz') && compositor.schedule());

  const inkOut = new InkStdout(rozScreen, layout.roz.cols, layout.roz.rows);
  const inkIn = new InkStdin();
  const app = () => (
    <App
      source={supervisor}
      width={layout.roz.cols}
      height={layout.roz.rows}
      split={layout.split}
      focused={focus.focus === 'roz'}
      onLeave={() => update(() => focus.leave())}
      onToggleSplit={() => update(() => focus.toggleSplit())}
    />
  );
  const ink = render(app(), {
    stdout: inkOut as unknown as NodeJS.WriteStream,
    stdin: inkIn as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });

  // Apply a focus change: re-lay the screen when the panel comes or goes, ring the bell when owed.
  let focusDrawn = focus.focus;
  function update(change: () => void): void {
    change();
    const next = computeLayout(cols, rows, focus.split);
    if (!sameLayout(next, layout)) {
      layout = next;
      applySizes();
    } else if (focus.focus !== focusDrawn) {
      ink.rerender(app());
      compositor.invalidate();
    }
    focusDrawn = focus.focus;
    if (focus.takeBell()) stdout.write('\x07');
    compositor.schedule();
  }
  function applySizes(): void {
    child.resize(layout.child.cols, layout.child.rows);
    childScreen.resize(layout.child.cols, layout.child.rows);
    rozScreen.resize(layout.roz.cols, layout.roz.rows);
    inkOut.resize(layout.roz.cols, layout.roz.rows);
    ink.rerender(app());
    compositor.resize(cols, rows);
  }

  const unsubscribe = supervisor.subscribe(() => update(() => focus.setPending(supervisor.snapshot().pending.map((p) => p.id))));

  // A multi-byte character can be split across reads: decode across chunks.
  const decoder = new StringDecoder('utf8');
  const onInput = (data: Buffer | string): void =>
    routeInput(typeof data === 'string' ? data : decoder.write(data), {
      focus: () => focus.focus,
      toChild: (d) => child.write(d),
      toRoz: (d) => inkIn.push(d),
      onHotkey: () => update(() => focus.toggle()),
    });
  stdin.on('data', onInput);

  const onResize = (): void => {
    cols = stdout.columns || cols;
    rows = Math.max(3, stdout.rows || rows);
    layout = computeLayout(cols, rows, focus.split);
    applySizes();
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
