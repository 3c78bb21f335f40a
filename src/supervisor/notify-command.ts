// `[notify] command`: a program of the human's the supervisor runs for each
// new approval request, so a request reaches them when no roz window is open
// or looked at (notify-send, a chat webhook script). It lives in the
// supervisor, not the TUI: the supervisor may run with no TUI attached.
//
// Trust: the supervisor is trusted, so it runs only what the user's own
// config names (the sandbox keeps that file read-only to enforced agents);
// the project's .roz/config.toml cannot set it (core/project-config.ts), and a
// value from anywhere but the user's file is not run. Everything the agent
// shapes (its tool's summary) reaches the program in its environment only,
// never as an argument (an argument starting with `-` would be read as an
// option), and argv[0] is looked up on PATH without the project's folders.
//
// Off the request path: started after the request is queued, never awaited;
// bounded in time (SIGTERM to its process group, SIGKILL 1 s later) and in
// number (at most MAX_RUNNING at once; more requests are skipped and logged).
// A failure is logged and shown as a notice; it never throws.
import { spawn, type ChildProcess } from 'node:child_process';
import { pathOutsideProject, resolveExecutable } from '../store/executable-path.js';

/** Commands running at once; a request beyond that is not notified (logged), it is not queued. */
export const MAX_RUNNING = 4;
/** After the timeout's SIGTERM, how long before SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** The summary is the agent's text: bounded before it becomes an environment variable. */
const MAX_SUMMARY = 1_000;
/** How much of the command's stderr a failure quotes. */
const MAX_STDERR = 300;

export interface NotifyRequest {
  id: string;
  agent: string;
  tool: string;
  summary: string;
}

export interface NotifySettings {
  /** argv; empty: off. */
  command: string[];
  timeoutMs: number;
  /** Where the value came from (`file:<path>` = the user's file): anything else is not run. */
  source: string;
}

export interface NotifyCommandOptions {
  /** The human's environment the command inherits (roz's own variables added, nothing of an agent's). */
  env: Record<string, string | undefined>;
  /** The run's project: its folders are left out of PATH when argv[0] is looked up. */
  cwd: string;
  /** The current settings (the config may be reloaded between requests). */
  settings: () => NotifySettings;
  log: (line: string) => void;
  /** A failure the human should see (the supervisor's notice). */
  notice: (summary: string) => void;
}

/** Environment variable values cannot hold NUL; control characters are kept out of the summary too. */
const clean = (s: string, max: number): string => s.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ').slice(0, max);

export class NotifyCommand {
  private readonly running = new Set<ChildProcess>();
  private closed = false;

  constructor(private readonly opts: NotifyCommandOptions) {}

  /** How many commands run now (tests). */
  get active(): number {
    return this.running.size;
  }

  /** A new request: the command starts on the next tick; this returns at once and never throws. */
  request(req: NotifyRequest): void {
    if (this.closed) return;
    setImmediate(() => {
      try {
        this.run(req);
      } catch (err) {
        this.fail(req, `could not start: ${(err as Error).message}`);
      }
    });
  }

  private run(req: NotifyRequest): void {
    if (this.closed) return;
    const s = this.opts.settings();
    if (s.command.length === 0) return;
    if (!s.source.startsWith('file:')) {
      this.fail(req, `not run: it was set by ${s.source}, and only your own config file may name a program roz runs`);
      return;
    }
    if (this.running.size >= MAX_RUNNING) {
      this.opts.log(`notify command skipped for request ${req.id} (${req.agent}): ${MAX_RUNNING} still running`);
      return;
    }
    const [cmd, ...args] = s.command as [string, ...string[]];
    if (cmd.includes('/') && !cmd.startsWith('/')) {
      this.fail(req, `${JSON.stringify(cmd)}: expected an absolute path or a name on PATH`);
      return;
    }
    const env = this.opts.env;
    const file = resolveExecutable(cmd, pathOutsideProject(env.PATH, this.opts.cwd));
    if (!file) {
      this.fail(req, `cannot find ${JSON.stringify(cmd)} on PATH`);
      return;
    }
    const child = spawn(file, args, {
      env: {
        ...env,
        ROZ_AGENT: clean(req.agent, 200),
        ROZ_TOOL: clean(req.tool, 200),
        ROZ_SUMMARY: clean(req.summary, MAX_SUMMARY),
        ROZ_REQUEST_ID: clean(req.id, 200),
      },
      cwd: env.HOME || '/',
      // Its own process group, so a timeout kills what it started too (a `sh -c` and its children).
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.running.add(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < MAX_STDERR) stderr += d.toString('utf8');
    });
    let timedOut = false;
    let killTimer: NodeJS.Timeout | null = null;
    const timer = setTimeout(() => {
      timedOut = true;
      this.killGroup(child, 'SIGTERM');
      killTimer = setTimeout(() => this.killGroup(child, 'SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    }, s.timeoutMs);
    timer.unref();
    // 'error' (it could not start) may be followed by 'close': one report per run.
    let ended = false;
    child.once('error', (err) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      this.running.delete(child);
      this.fail(req, `could not start ${file}: ${err.message}`);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      this.running.delete(child);
      if (ended) return;
      ended = true;
      if (timedOut) this.fail(req, `killed after ${Math.round(s.timeoutMs / 1000)} s (timeout_seconds)`);
      else if (code !== 0) this.fail(req, `exited ${signal ?? code}${stderr.trim() ? `: ${clean(stderr.trim(), MAX_STDERR)}` : ''}`);
    });
  }

  private killGroup(child: ChildProcess, sig: NodeJS.Signals): void {
    try {
      if (child.pid) process.kill(-child.pid, sig);
    } catch {
      // gone already
    }
  }

  private fail(req: NotifyRequest, why: string): void {
    this.opts.log(`notify command for request ${req.id} (${req.agent}): ${why}`);
    this.opts.notice(`[notify] command: ${why}`);
  }

  /** Kill whatever still runs (the supervisor is closing). */
  close(): void {
    this.closed = true;
    for (const c of this.running) this.killGroup(c, 'SIGKILL');
    this.running.clear();
  }
}
