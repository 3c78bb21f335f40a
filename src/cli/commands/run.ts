// `roz run [options] [--] claude [args...]`: start the agent under roz's
// supervisor (pty pane, status line, live views, human gates), then show the
// session's stats. Also `roz stats --tui [SESSION]`. The TUI is imported
// lazily so other commands never load ink or react.
import { resolve } from 'node:path';
import { type AgentStatus, detachLine } from '../../core/fleet/agent-state.js';
import { loadConfig } from '../../engine/config-loader.js';
import type { FoundRecord } from '../../store/control-record.js';
import { FIRST_AGENT } from '../../core/fleet/agent-name.js';
import { liveSupervisors } from '../../supervisor/control/control-client.js';
import { FileSessionStore } from '../../store/file-store.js';
import type { ConnectionEnd } from '../../supervisor/attach/fleet-connection.js';
import { loadPty } from '../../supervisor/launch/pty-module.js';
import { RunError } from '../../supervisor/host/run-service.js';
import { sessionStats } from '../../supervisor/session-stats.js';
import { requireSessionId, UsageError } from '../context.js';
import { askResume, findInterrupted, resumeChosen } from './resume-offer.js';

export interface RunCommandOptions {
  /** Seconds a human gate waits before it denies (default 120, at most 580). */
  approvalTimeout?: string;
  /** commander's `--no-stats` sets this to false. */
  stats?: boolean;
  /** Load roz's plugin from here (default: the plugin this roz runs from). */
  pluginDir?: string;
}

export const DEFAULT_APPROVAL_TIMEOUT_S = 120;
/** The hook waits the approval timeout plus 5 s, inside hooks.json's 600 s PreToolUse timeout. */
export const MAX_APPROVAL_TIMEOUT_S = 580;

export function parseTimeout(text: string | undefined): number {
  if (text === undefined) return DEFAULT_APPROVAL_TIMEOUT_S * 1000;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || n > MAX_APPROVAL_TIMEOUT_S)
    throw new UsageError(`--approval-timeout must be a number of seconds between 0 and ${MAX_APPROVAL_TIMEOUT_S}, got ${JSON.stringify(text)}`);
  return Math.round(n * 1000);
}

export async function runCommand(argv: string[], opts: RunCommandOptions = {}): Promise<number> {
  const [command = 'claude', ...args] = argv;
  const timeoutMs = parseTimeout(opts.approvalTimeout);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write('roz run: needs an interactive terminal (stdin and stdout must be a TTY); run claude directly, roz hooks still apply\n');
    return 2;
  }
  const env = processEnv();
  // Before the screen is taken over: a missing pty module is one line, not a stack trace.
  const pty = await loadPty(env);
  if (!pty.ok) {
    process.stderr.write(`${pty.message}\n`);
    return 1;
  }
  const cwd = process.cwd();
  const store = resolve(cwd, loadConfig(env, { cwd }).config.storage.path);
  const { initialPaneSize } = await import('../../tui/run-screen.js');

  // A supervisor already runs this project's fleet: this window attaches to it instead of starting another.
  const { live } = await liveSupervisors(store, cwd);
  // Agents a supervisor that is gone was running (killed, a reboot): offered for resuming before the screen starts.
  const interrupted = findInterrupted(store, cwd, new Set(live.map((l) => l.record.pid)));
  const resume = interrupted ? await askResume('roz run', store, interrupted) : [];
  const running = live.filter((l) => l.record.enforcement.mode === 'enforced').at(-1);
  if (running) {
    process.stderr.write(
      `roz run: a roz supervisor already runs this project's agents (pid ${running.record.pid}): attaching to it; ` +
        `${[command, ...args].join(' ')} is not started (roz agent add NAME starts another agent under it)\n`,
    );
    await resumeChosen('roz run', running, resume);
    return attachScreen('roz run', running, opts.stats !== false);
  }

  const request = {
    command,
    args,
    cwd,
    env,
    approvalTimeoutMs: timeoutMs,
    pty: initialPaneSize(),
    ...(opts.pluginDir !== undefined ? { pluginDir: opts.pluginDir } : {}),
  };
  const { launchWillConfine, startBackground } = await import('../../supervisor/host/background.js');
  const mode = await launchWillConfine(request);
  if (mode.mode === 'enforced') {
    // Enforced: the supervisor runs in the background and owns the ptys; this window is a screen attached to it.
    const started = await startBackground(request, store);
    if (!started.ok) {
      process.stderr.write(`roz run: ${started.message}\n`);
      return started.exitCode;
    }
    for (const n of started.notes) process.stderr.write(`roz run: ${n}\n`);
    const rec = (await liveSupervisors(store, cwd)).live.find((l) => l.file === started.record);
    if (!rec) {
      process.stderr.write(`roz run: the background supervisor (pid ${started.pid}) runs but its control record ${started.record} is gone\n`);
      return 1;
    }
    await resumeChosen('roz run', rec, resume);
    return attachScreen('roz run', rec, opts.stats !== false, command, true);
  }

  // Advisory: an agent could reach the control socket, so answers come only from this window: the supervisor stays here.
  const { runScreen } = await import('../../tui/run-screen.js');
  const { LocalConnection } = await import('../../supervisor/host/local-connection.js');
  let conn;
  try {
    conn = await LocalConnection.start(request);
  } catch (err) {
    if (!(err instanceof RunError)) throw err;
    process.stderr.write(`roz run: ${err.message}\n`);
    return err.exitCode;
  }
  for (const n of conn.notes) process.stderr.write(`roz run: ${n}\n`);
  for (const name of resume) process.stderr.write(`roz run: ${(await conn.host.startAgent(name)).message}\n`);
  process.stderr.write(`roz run: advisory (${mode.reasons.join('; ')}): the supervisor runs in this window; closing it ends the agents\n`);
  return screenEnd('roz run', command, await runScreen(conn), opts.stats !== false);
}

/**
 * This window as a screen of a background supervisor until the run ends (main's code, the stats), the
 * human detaches (`D`, or the terminal closes: SIGHUP), or the supervisor dies.
 */
export async function attachScreen(who: string, rec: FoundRecord, stats: boolean, command = FIRST_AGENT, startedHere = false): Promise<number> {
  const { runScreen, initialPaneSize } = await import('../../tui/run-screen.js');
  const { RemoteConnection, AttachRefused } = await import('../../supervisor/attach/attach-client.js');
  let conn;
  try {
    conn = await RemoteConnection.connect(rec, { view: FIRST_AGENT, ...initialPaneSize() });
  } catch (err) {
    if (!(err instanceof AttachRefused)) throw err;
    process.stderr.write(`${who}: cannot attach to the supervisor (pid ${rec.record.pid}): ${err.message}\n`);
    if (startedHere) {
      // Just started for this window and no window can drive it (it found its launch advisory after all): stop it
      // rather than leave agents running that nobody can reach.
      const { sendControl } = await import('../../supervisor/control/control-client.js');
      const stopped = await sendControl(rec, { op: 'stop-all' });
      process.stderr.write(`${who}: ${stopped.reached ? stopped.reply.message : stopped.error}\n`);
    }
    return err.code === 'advisory' || err.code === 'auth' ? 5 : 1;
  }
  // The window closing (SIGHUP) or a polite kill only detaches this screen: the agents are the supervisor's.
  const detach = (): void => conn.detach();
  const signals: NodeJS.Signals[] = ['SIGHUP', 'SIGTERM', 'SIGINT'];
  for (const sig of signals) process.on(sig, detach);
  let end;
  try {
    end = await runScreen(conn);
  } finally {
    for (const sig of signals) process.off(sig, detach);
  }
  return screenEnd(who, command, end, stats, () => conn.agents().map((a) => a.live.status));
}

/** After the screen closed: the stats and main's exit code, or why the window closed with the agents still running. */
export async function screenEnd(who: string, command: string, end: ConnectionEnd, stats: boolean, statuses?: () => AgentStatus[]): Promise<number> {
  if (end.kind === 'detached') {
    // One line, after the terminal is back (the screen restored it before returning): what goes on without this window.
    process.stderr.write(
      `${statuses ? detachLine(statuses()) : `${who}: detached; the agents keep running in the background — \`roz attach\` to come back`}\n`,
    );
    return 0;
  }
  if (end.kind === 'lost') {
    process.stderr.write(`roz: the supervisor exited (${end.reason}); its agents ended with it\n`);
    return 1;
  }
  if (stats && end.stats.length > 0) {
    const { renderSessionStats } = await import('../../tui/stats-screen.js');
    for (const s of end.stats) process.stdout.write(`${renderSessionStats(s, process.stdout.columns || 100)}\n`);
  }
  if (end.code !== 0) process.stderr.write(`${who}: ${command} exited with code ${end.code}\n`);
  return end.code;
}

/** The environment as a plain record (no undefined values), for a child. */
export function processEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

/** `roz stats --tui [SESSION]`: one session's stats view (q to quit); printed once off a terminal. */
export async function statsTuiCommand(session: string | undefined): Promise<number> {
  const sid = requireSessionId(session);
  const config = loadConfig(process.env).config;
  const store = new FileSessionStore(config.storage.path, (m) => process.stderr.write(`${m}\n`));
  const state = store.read(sid);
  if (!state) throw new UsageError(`unknown session ${sid} (no state in ${config.storage.path})`, 3);
  const { showSessionStats } = await import('../../tui/stats-screen.js');
  await showSessionStats(sessionStats(state, store.readTrace(sid)));
  return 0;
}
