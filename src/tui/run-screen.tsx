// `roz run` on screen: the agent in view's pty in a pane, roz's status line
// under it, the Ink views behind the hotkey, and human gates brought to the
// front. Every agent of the fleet keeps its own virtual screen (scrollback,
// modes) and its own input; the main pane shows one at a time. A request of an
// agent not in view notifies (bell + OSC 9) and waits for the jump key. The
// run itself (supervisor, children, signals, settings) is the supervisor's
// supervisor's, reached through a FleetConnection (in this process, or the
// background supervisor over its control socket); this only draws it, and
// always restores the terminal.
import { render } from 'ink';
import { StringDecoder } from 'node:string_decoder';
import { needsHuman } from '../core/fleet/agent-state.js';
import { nextNeedingYou } from '../core/fleet/queue.js';
import { FIRST_AGENT } from '../core/fleet/agent-name.js';
import type { ConnectionEnd, FleetConnection } from '../supervisor/attach/fleet-connection.js';
import { TerminalGuard } from './terminal-guard.js';
import { App } from './App.js';
import type { AgentRow } from './fleet/AgentsView.js';
import { cliWorkSource, registeredAgent, type WorkSource } from './fleet/agent-work.js';
import type { FleetUi } from './fleet/fleet-ui.js';
import { fleetNotification } from './fleet/notify.js';
import type { SupervisorSource } from './source.js';
import { Compositor, paneRegions } from './screen/compositor.js';
import { InkStdin, InkStdout } from './screen/ink-surface.js';
import { FocusState } from './screen/focus.js';
import { routeInput } from './screen/input-router.js';
import { computeLayout, type Layout } from './screen/layout.js';
import { VirtualScreen } from './screen/virtual-screen.js';
import { PaneFeed } from './screen/pane-feed.js';
import { statusLine } from './status-line.js';

export interface RunScreenOptions {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** Whether roz's registry has an agent of this name (default: read from the store). */
  registered?: (name: string) => boolean;
  /** Each agent's work and its removal (default: roz's own CLI, run from this window). */
  work?: WorkSource & { remove(name: string): Promise<{ ok: boolean; message: string }> };
}

/** The pty size the agents start with in a terminal of this size (the main pane's). */
export function initialPaneSize(stdout: NodeJS.WriteStream = process.stdout): { cols: number; rows: number } {
  const layout = computeLayout(stdout.columns || 80, Math.max(3, stdout.rows || 24), new FocusState().split);
  return { cols: layout.child.cols, rows: layout.child.rows };
}

function sameLayout(a: Layout, b: Layout): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function runScreen(conn: FleetConnection, opts: RunScreenOptions = {}): Promise<ConnectionEnd> {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  let cols = stdout.columns || 80;
  let rows = Math.max(3, stdout.rows || 24);
  const focus = new FocusState();
  let layout = computeLayout(cols, rows, focus.split);
  const supervisor = conn;
  const guard = new TerminalGuard({ stdin, stdout });
  const rozScreen = new VirtualScreen(layout.roz.cols, layout.roz.rows, 0);
  /** The agent in the main pane. */
  let view = FIRST_AGENT;
  /** Each agent's own screen (scrollback, modes): its pty writes there whether or not it is in view. */
  const screens = new Map<string, VirtualScreen>();
  /** How each agent's output reaches its screen: parsed while in view, kept raw (bounded) while not (screen/pane-feed.ts). */
  const feeds = new Map<string, PaneFeed>();
  const screenOf = (name: string): VirtualScreen => screens.get(name) ?? screens.get(FIRST_AGENT)!;
  const snapshot = () => supervisor.snapshot(view);
  const work = opts.work ?? cliWorkSource();
  /** Agents this window removed (`r`): off the list while they stay exited. */
  const removed = new Set<string>();
  conn.view(view);

  const compositor = new Compositor(
    (s) => stdout.write(s),
    cols,
    rows,
    () => {
      const snap = snapshot();
      const onChild = focus.focus === 'child';
      const childScreen = screenOf(view);
      const c = childScreen.cursor();
      return {
        ...paneRegions(layout, focus.focus, childScreen, rozScreen),
        status: statusLine(snap, focus.focus, cols),
        alert: snap.pending.length > 0 || (snap.fleet?.waitingElsewhere ?? 0) > 0,
        cursor: onChild && childScreen.cursorVisible ? { x: layout.child.x + c.x, y: layout.child.y + c.y } : null,
        modes: onChild ? childScreen.inputModes() : null,
      };
    },
  );

  /** A screen for each agent the host started (once: an agent started again keeps its screen and scrollback). */
  function screenFor(name: string): VirtualScreen {
    let screen = screens.get(name);
    if (screen) return screen;
    screen = new VirtualScreen(layout.child.cols, layout.child.rows);
    screens.set(name, screen);
    feeds.set(name, new PaneFeed(screen, name === view));
    screen.onReply((d) => conn.reply(name, d));
    screen.onChange(() => view === name && (layout.split || focus.focus === 'child') && compositor.schedule());
    return screen;
  }
  function attach(): void {
    for (const a of conn.list()) screenFor(a.name);
  }

  guard.enter();
  attach();
  // The replay is old output: its queries were answered when they were new (virtual-screen.ts drops them).
  const unwatchPty = conn.onPty((name, d, replay) => {
    screenFor(name);
    if (replay === 'resync') feeds.get(name)!.resync(d);
    else feeds.get(name)!.write(d, replay === true);
  });
  rozScreen.onChange(() => (layout.split || focus.focus === 'roz') && compositor.schedule());

  /** The agent in view changes: its screen in the pane, its requests in the panel. */
  function select(name: string): void {
    if (!screens.has(name) || name === view) return;
    feeds.get(view)?.show(false);
    feeds.get(name)?.show(true);
    view = name;
    conn.view(name);
    update(() => focus.setPending(snapshot().pending.map((p) => p.id)));
    ink.rerender(app());
    compositor.invalidate();
  }
  const fleet: FleetUi = {
    rows: (): AgentRow[] =>
      // Where and enforcement: each agent's launch, as the supervisor holds it for every client. An exited agent this
      // window removed (`r`) is no longer listed here (the supervisor keeps its exit; it comes back if started again).
      supervisor
        .agents()
        .filter((a) => !(removed.has(a.name) && a.live.status.kind === 'exited'))
        .map((a) => ({
          name: a.name,
          where: a.where ?? '-',
          status: a.live.status,
          pending: a.live.pending.length,
          review: a.live.review,
          enforcement: a.enforcement ?? '-',
        })),
    queue: () => supervisor.queue(),
    current: () => view,
    select,
    jump: () => {
      const agents = supervisor.agents().map((a) => ({ name: a.name, status: a.live.status, oldestSince: a.live.pending[0]?.since }));
      const to = nextNeedingYou(agents, view);
      if (!to) return null;
      select(to);
      // Its own client's prompt waits in its pane: the keyboard goes there; a roz request comes up in the panel.
      const st = agents.find((a) => a.name === to)!.status;
      if (needsHuman(st) && st.kind === 'client-prompt') update(() => focus.leave());
      return to;
    },
    open: () => update(() => focus.leave()),
    add: async (name, prompt) => {
      removed.delete(name);
      const r = await conn.add(name, prompt);
      if (r.ok) {
        attach();
        select(name);
      }
      return r;
    },
    merge: async (name) => {
      if (name === FIRST_AGENT) return { ok: false, message: `${FIRST_AGENT} works in this checkout: there is no branch of its own to merge` };
      return conn.merge(name);
    },
    humanMerge: (name, head) => conn.humanMerge(name, head),
    stop: (name) => conn.stop(name),
    registered: opts.registered ?? ((name) => registeredAgent(name)),
    remove: async (name) => {
      if (name === FIRST_AGENT) return { ok: false, message: `${FIRST_AGENT} works in this checkout: there is nothing of its own to remove` };
      const a = supervisor.agents().find((x) => x.name === name);
      if (a && a.live.status.kind !== 'exited') return { ok: false, message: `${name} is running: stop it first (x), then r` };
      const r = await work.remove(name);
      if (r.ok) {
        removed.add(name);
        if (view === name) select(FIRST_AGENT);
        compositor.schedule();
      }
      return r;
    },
    work,
  };
  // The App reads the agent in view's snapshot; answers and events are the supervisor's.
  const source: SupervisorSource = {
    subscribe: (fn) => supervisor.subscribe(fn),
    snapshot,
    events: supervisor.events,
    answer: (id, a) => supervisor.answer(id, a),
    stats: (sid) => supervisor.stats(sid),
    selectIntent: (id) => supervisor.selectIntent(id, view),
  };

  const inkOut = new InkStdout(rozScreen, layout.roz.cols, layout.roz.rows);
  const inkIn = new InkStdin();
  const app = () => (
    <App
      view={view}
      source={source}
      fleet={fleet}
      width={layout.roz.cols}
      height={layout.roz.rows}
      split={layout.split}
      focused={focus.focus === 'roz'}
      onLeave={() => update(() => focus.leave())}
      onToggleSplit={() => update(() => focus.toggleSplit())}
      {...(conn.detach ? { onDetach: conn.detach } : {})}
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
    conn.resize(layout.child.cols, layout.child.rows);
    for (const sc of screens.values()) sc.resize(layout.child.cols, layout.child.rows);
    rozScreen.resize(layout.roz.cols, layout.roz.rows);
    inkOut.resize(layout.roz.cols, layout.roz.rows);
    ink.rerender(app());
    compositor.resize(cols, rows);
  }

  // Requests of agents not in view: the bell and a desktop notification, once each.
  const told = new Set<string>();
  const unsubscribe = supervisor.subscribe(() => {
    const queue = supervisor.queue();
    const note = fleetNotification(queue, told, view);
    for (const q of queue) told.add(q.id);
    for (const id of told) if (!queue.some((q) => q.id === id)) told.delete(id);
    if (note) stdout.write(note);
    update(() => focus.setPending(snapshot().pending.map((p) => p.id)));
  });
  const unwatchHost = conn.onAgents(() => {
    attach();
    compositor.schedule();
  });

  // A multi-byte character can be split across reads: decode across chunks.
  const decoder = new StringDecoder('utf8');
  const onInput = (data: Buffer | string): void =>
    routeInput(typeof data === 'string' ? data : decoder.write(data), {
      focus: () => focus.focus,
      toChild: (d) => {
        conn.write(view, d);
        compositor.inputSent();
      },
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
    return await conn.ended;
  } finally {
    unwatchPty();
    stdin.off('data', onInput);
    stdout.off('resize', onResize);
    unsubscribe();
    unwatchHost();
    ink.unmount();
    compositor.dispose();
    guard.restore();
    for (const sc of screens.values()) sc.dispose();
    rozScreen.dispose();
  }
}
