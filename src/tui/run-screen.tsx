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

/**
 * `roz run`'s screen for one connection, from open() to close(). A class
 * because its parts share one mutable state (the agent in view, the layout,
 * focus, every agent's screen) and hand each other callbacks: the compositor
 * draws from it, the Ink app and the fleet view act on it, input and resizes
 * change it. Each method is one of those jobs.
 */
class RunScreen {
  private readonly stdin: NodeJS.ReadStream;
  private readonly stdout: NodeJS.WriteStream;
  private cols: number;
  private rows: number;
  private readonly focus = new FocusState();
  private layout: Layout;
  private readonly guard: TerminalGuard;
  private readonly rozScreen: VirtualScreen;
  /** The agent in the main pane. */
  private view = FIRST_AGENT;
  /** Each agent's own screen (scrollback, modes): its pty writes there whether or not it is in view. */
  private readonly screens = new Map<string, VirtualScreen>();
  /** How each agent's output reaches its screen: parsed while in view, kept raw (bounded) while not (screen/pane-feed.ts). */
  private readonly feeds = new Map<string, PaneFeed>();
  private readonly work: NonNullable<RunScreenOptions['work']>;
  /** Agents this window removed (`r`): off the list while they stay exited. */
  private readonly removed = new Set<string>();
  private readonly compositor: Compositor;
  // Made by open(): the Ink app draws into rozScreen through these.
  private fleet!: FleetUi;
  private source!: SupervisorSource;
  private inkOut!: InkStdout;
  private inkIn!: InkStdin;
  private ink!: ReturnType<typeof render>;
  /** The focus the screen was last laid out and drawn for (update() re-renders when it changes). */
  private focusDrawn = this.focus.focus;
  /** Requests already rung for (a bell and a desktop notification once each). */
  private readonly told = new Set<string>();
  /** A multi-byte character can be split across reads: decode across chunks. */
  private readonly decoder = new StringDecoder('utf8');
  // What open() listens to, undone by close().
  private unwatchPty = (): void => {};
  private unsubscribe = (): void => {};
  private unwatchHost = (): void => {};

  constructor(
    private readonly conn: FleetConnection,
    private readonly opts: RunScreenOptions,
  ) {
    this.stdin = opts.stdin ?? process.stdin;
    this.stdout = opts.stdout ?? process.stdout;
    this.cols = this.stdout.columns || 80;
    this.rows = Math.max(3, this.stdout.rows || 24);
    this.layout = computeLayout(this.cols, this.rows, this.focus.split);
    this.guard = new TerminalGuard({ stdin: this.stdin, stdout: this.stdout });
    this.rozScreen = new VirtualScreen(this.layout.roz.cols, this.layout.roz.rows, 0);
    this.work = opts.work ?? cliWorkSource();
    conn.view(this.view);
    this.compositor = new Compositor(
      (s) => this.stdout.write(s),
      this.cols,
      this.rows,
      () => this.frame(),
    );
  }

  /** Take the terminal, draw every agent's screen and roz's views, and start listening. */
  open(): void {
    const { conn } = this;
    this.guard.enter();
    this.attach();
    // The replay is old output: its queries were answered when they were new (virtual-screen.ts drops them).
    this.unwatchPty = conn.onPty((name, d, replay) => {
      this.screenFor(name);
      if (replay === 'resync') this.feeds.get(name)!.resync(d);
      else this.feeds.get(name)!.write(d, replay === true);
    });
    this.rozScreen.onChange(() => (this.layout.split || this.focus.focus === 'roz') && this.compositor.schedule());
    this.fleet = this.fleetUi();
    this.source = this.supervisorSource();
    this.inkOut = new InkStdout(this.rozScreen, this.layout.roz.cols, this.layout.roz.rows);
    this.inkIn = new InkStdin();
    this.ink = render(this.app(), {
      stdout: this.inkOut as unknown as NodeJS.WriteStream,
      stdin: this.inkIn as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    this.focusDrawn = this.focus.focus;
    this.unsubscribe = conn.subscribe(() => this.onSupervisorChange());
    this.unwatchHost = conn.onAgents(() => {
      this.attach();
      this.compositor.schedule();
    });
    this.stdin.on('data', this.onInput);
    this.stdout.on('resize', this.onResize);
    this.compositor.invalidate();
  }

  /** Give the terminal back as it was, whatever the run's end. */
  close(): void {
    this.unwatchPty();
    this.stdin.off('data', this.onInput);
    this.stdout.off('resize', this.onResize);
    this.unsubscribe();
    this.unwatchHost();
    this.ink.unmount();
    this.compositor.dispose();
    this.guard.restore();
    for (const sc of this.screens.values()) sc.dispose();
    this.rozScreen.dispose();
  }

  /** What the compositor draws: the panes, the status line, and where the cursor and input modes are. */
  private frame() {
    const { layout, focus } = this;
    const snap = this.snapshot();
    const onChild = focus.focus === 'child';
    const childScreen = this.screenOf(this.view);
    const c = childScreen.cursor();
    return {
      ...paneRegions(layout, focus.focus, childScreen, this.rozScreen),
      status: statusLine(snap, focus.focus, this.cols),
      alert: snap.pending.length > 0 || (snap.fleet?.waitingElsewhere ?? 0) > 0,
      cursor: onChild && childScreen.cursorVisible ? { x: layout.child.x + c.x, y: layout.child.y + c.y } : null,
      modes: onChild ? childScreen.inputModes() : null,
    };
  }

  private snapshot() {
    return this.conn.snapshot(this.view);
  }

  private screenOf(name: string): VirtualScreen {
    return this.screens.get(name) ?? this.screens.get(FIRST_AGENT)!;
  }

  /** A screen for each agent the host started (once: an agent started again keeps its screen and scrollback). */
  private screenFor(name: string): VirtualScreen {
    let screen = this.screens.get(name);
    if (screen) return screen;
    screen = new VirtualScreen(this.layout.child.cols, this.layout.child.rows);
    this.screens.set(name, screen);
    this.feeds.set(name, new PaneFeed(screen, name === this.view));
    screen.onReply((d) => this.conn.reply(name, d));
    screen.onChange(() => this.view === name && (this.layout.split || this.focus.focus === 'child') && this.compositor.schedule());
    return screen;
  }

  private attach(): void {
    for (const a of this.conn.list()) this.screenFor(a.name);
  }

  /** The agent in view changes: its screen in the pane, its requests in the panel. */
  private select(name: string): void {
    if (!this.screens.has(name) || name === this.view) return;
    this.feeds.get(this.view)?.show(false);
    this.feeds.get(name)?.show(true);
    this.view = name;
    this.conn.view(name);
    this.update(() => this.focus.setPending(this.snapshot().pending.map((p) => p.id)));
    this.ink.rerender(this.app());
    this.compositor.invalidate();
  }

  /** What the fleet view (the agents tab) reads and does. */
  private fleetUi(): FleetUi {
    const { conn } = this;
    return {
      rows: () => this.agentRows(),
      queue: () => conn.queue(),
      current: () => this.view,
      select: (name) => this.select(name),
      jump: () => this.jump(),
      open: () => this.update(() => this.focus.leave()),
      add: (name, prompt) => this.add(name, prompt),
      merge: async (name) => {
        if (name === FIRST_AGENT) return { ok: false, message: `${FIRST_AGENT} works in this checkout: there is no branch of its own to merge` };
        return conn.merge(name);
      },
      humanMerge: (name, head) => conn.humanMerge(name, head),
      stop: (name) => conn.stop(name),
      registered: this.opts.registered ?? ((name) => registeredAgent(name)),
      remove: (name) => this.remove(name),
      work: this.work,
    };
  }

  /**
   * Where and enforcement: each agent's launch, as the supervisor holds it for every client. An exited agent this
   * window removed (`r`) is no longer listed here (the supervisor keeps its exit; it comes back if started again).
   */
  private agentRows(): AgentRow[] {
    return this.conn
      .agents()
      .filter((a) => !(this.removed.has(a.name) && a.live.status.kind === 'exited'))
      .map((a) => ({
        name: a.name,
        where: a.where ?? '-',
        status: a.live.status,
        pending: a.live.pending.length,
        review: a.live.review,
        enforcement: a.enforcement ?? '-',
      }));
  }

  /** The next agent that needs you, brought into view. */
  private jump(): string | null {
    const agents = this.conn.agents().map((a) => ({ name: a.name, status: a.live.status, oldestSince: a.live.pending[0]?.since }));
    const to = nextNeedingYou(agents, this.view);
    if (!to) return null;
    this.select(to);
    // Its own client's prompt waits in its pane: the keyboard goes there; a roz request comes up in the panel.
    const st = agents.find((a) => a.name === to)!.status;
    if (needsHuman(st) && st.kind === 'client-prompt') this.update(() => this.focus.leave());
    return to;
  }

  private async add(name: string, prompt: string | undefined): Promise<{ ok: boolean; message: string }> {
    this.removed.delete(name);
    const r = await this.conn.add(name, prompt);
    if (r.ok) {
      this.attach();
      this.select(name);
    }
    return r;
  }

  /** `r`: an exited agent's worktree and branch, through roz's own CLI; it leaves the list. */
  private async remove(name: string): Promise<{ ok: boolean; message: string }> {
    if (name === FIRST_AGENT) return { ok: false, message: `${FIRST_AGENT} works in this checkout: there is nothing of its own to remove` };
    const a = this.conn.agents().find((x) => x.name === name);
    if (a && a.live.status.kind !== 'exited') return { ok: false, message: `${name} is running: stop it first (x), then r` };
    const r = await this.work.remove(name);
    if (r.ok) {
      this.removed.add(name);
      if (this.view === name) this.select(FIRST_AGENT);
      this.compositor.schedule();
    }
    return r;
  }

  /** The App reads the agent in view's snapshot; answers and events are the supervisor's. */
  private supervisorSource(): SupervisorSource {
    const { conn } = this;
    return {
      subscribe: (fn) => conn.subscribe(fn),
      snapshot: () => this.snapshot(),
      events: conn.events,
      answer: (id, a) => conn.answer(id, a),
      stats: (sid) => conn.stats(sid),
      selectIntent: (id) => conn.selectIntent(id, this.view),
    };
  }

  private app() {
    const { layout, conn } = this;
    return (
      <App
        view={this.view}
        source={this.source}
        fleet={this.fleet}
        width={layout.roz.cols}
        height={layout.roz.rows}
        split={layout.split}
        focused={this.focus.focus === 'roz'}
        onLeave={() => this.update(() => this.focus.leave())}
        onToggleSplit={() => this.update(() => this.focus.toggleSplit())}
        {...(conn.detach ? { onDetach: conn.detach } : {})}
      />
    );
  }

  /** Apply a focus change: re-lay the screen when the panel comes or goes, ring the bell when owed. */
  private update(change: () => void): void {
    const { focus } = this;
    change();
    const next = computeLayout(this.cols, this.rows, focus.split);
    if (!sameLayout(next, this.layout)) {
      this.layout = next;
      this.applySizes();
    } else if (focus.focus !== this.focusDrawn) {
      this.ink.rerender(this.app());
      this.compositor.invalidate();
    }
    this.focusDrawn = focus.focus;
    if (focus.takeBell()) this.stdout.write('\x07');
    this.compositor.schedule();
  }

  private applySizes(): void {
    const { layout } = this;
    this.conn.resize(layout.child.cols, layout.child.rows);
    for (const sc of this.screens.values()) sc.resize(layout.child.cols, layout.child.rows);
    this.rozScreen.resize(layout.roz.cols, layout.roz.rows);
    this.inkOut.resize(layout.roz.cols, layout.roz.rows);
    this.ink.rerender(this.app());
    this.compositor.resize(this.cols, this.rows);
  }

  /** Requests of agents not in view: the bell and a desktop notification, once each; the panel's pending list. */
  private onSupervisorChange(): void {
    const queue = this.conn.queue();
    const note = fleetNotification(queue, this.told, this.view);
    for (const q of queue) this.told.add(q.id);
    for (const id of this.told) if (!queue.some((q) => q.id === id)) this.told.delete(id);
    if (note) this.stdout.write(note);
    this.update(() => this.focus.setPending(this.snapshot().pending.map((p) => p.id)));
  }

  private readonly onInput = (data: Buffer | string): void =>
    routeInput(typeof data === 'string' ? data : this.decoder.write(data), {
      focus: () => this.focus.focus,
      toChild: (d) => {
        this.conn.write(this.view, d);
        this.compositor.inputSent();
      },
      toRoz: (d) => this.inkIn.push(d),
      onHotkey: () => this.update(() => this.focus.toggle()),
    });

  private readonly onResize = (): void => {
    this.cols = this.stdout.columns || this.cols;
    this.rows = Math.max(3, this.stdout.rows || this.rows);
    this.layout = computeLayout(this.cols, this.rows, this.focus.split);
    this.applySizes();
  };
}

/** Draw the connection's run until it ends; the terminal is restored however it ends. */
export async function runScreen(conn: FleetConnection, opts: RunScreenOptions = {}): Promise<ConnectionEnd> {
  const screen = new RunScreen(conn, opts);
  screen.open();
  try {
    return await conn.ended;
  } finally {
    screen.close();
  }
}
