// The supervisor in the background (issue 25, "agents outlive the window"):
// `roz run claude` of an enforced launch starts the fleet host in a process
// of its own, detached from the terminal (its own session), which owns every
// agent's pty and the control socket; the window is only a screen attached
// to it (attach-client.ts). Closing or losing the window leaves the agents
// running; `roz attach` (or `roz run` again here) comes back to them.
//
// The background process is trusted, so it runs only code roz chose: the
// node roz itself runs on (process.execPath) and roz's own bundled CLI,
// found from this module's own location, never from PATH or the project.
// The launch (command, arguments, environment) goes to it on its stdin, not
// its argv (which `ps` shows to every user); it answers on a pipe of its own
// (fd 3) once its agent and control socket run, or why they could not.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import '../../core/zod-messages.js';
import type { Enforcement } from '../../core/enforce/mode.js';
import { isClaudeCommand } from '../../core/launch-plan.js';
import { clientForCommand } from '../../core/client-commands.js';
import { controlKey } from '../../store/control-record.js';
import { clientSandboxEnforcement, type LaunchRequest, prepareLaunch } from '../launch/agent-run.js';
import { FleetHost } from './fleet-host.js';
import { launchEnforcement } from './run-control.js';
import { readUserSettings, writeRunSettings } from '../launch/run-settings.js';

/** The hidden CLI command the background process runs (src/cli/main.ts). */
export const SUPERVISE_COMMAND = '__supervise';
/** How long the launcher waits for the background supervisor to say it runs (`claude --version` alone may take 15 s). */
const READY_TIMEOUT_MS = 60_000;
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

const dim = z.number().check(z.int(), z.minimum(1), z.maximum(2_000));
export const backgroundRequestSchema = z.strictObject({
  command: z.string().check(z.minLength(1)),
  args: z.array(z.string()),
  cwd: z.string().check(z.minLength(1)),
  env: z.record(z.string(), z.string()),
  approvalTimeoutMs: z.number().check(z.int(), z.minimum(1)),
  pty: z.strictObject({ cols: dim, rows: dim }),
  pluginDir: z.optional(z.string()),
});
export type BackgroundRequest = z.infer<typeof backgroundRequestSchema>;

/** What the background supervisor says on fd 3. */
export type BackgroundReady = { ok: true; pid: number; record: string; notes: string[] } | { ok: false; message: string; exitCode: number };

/**
 * Whether a launch will confine its agents, decided before it starts, from the same facts and the
 * same function the supervisor uses once it runs (run-control.ts launchEnforcement): the settings
 * file roz would write (written to a scratch run folder and removed again), the sandbox's tools,
 * managed/user/project settings. Advisory: the supervisor must stay in the window (an agent could
 * reach the control socket, so answers come only from that window's keyboard).
 */
export async function launchWillConfine(req: LaunchRequest): Promise<Enforcement> {
  const other = clientForCommand(req.command);
  if (other && other.id !== 'claude') {
    // Another client: confined when its own sandbox, as roz configures it, holds everything (client-launch.ts).
    try {
      const prepared = prepareLaunch(req);
      const { launchOtherClient } = await import('../launch/client-launch.js');
      return clientSandboxEnforcement(launchOtherClient(other, req, prepared.pluginDir, prepared.loaded.config, prepared.place).env.ROZ_CLIENT_SANDBOX);
    } catch (err) {
      return { mode: 'advisory', reasons: [`the launch cannot be planned: ${(err as Error).message}`] };
    }
  }
  if (!isClaudeCommand(req.command)) return { mode: 'advisory', reasons: ['the agent is not Claude Code launched with roz settings'] };
  try {
    const prepared = prepareLaunch(req);
    const user = prepared.plan.userSettings !== undefined ? [readUserSettings(prepared.plan.userSettings, req.cwd)] : [];
    const settings = writeRunSettings(req.env, req.cwd, user, prepared.pluginDir, prepared.loaded.config, prepared.place);
    try {
      return launchEnforcement(req.env, req.cwd, prepared.loaded.config.storage.path, settings.file);
    } finally {
      settings.dispose();
    }
  } catch (err) {
    // The launch itself will fail the same way, in the window, and say why.
    return { mode: 'advisory', reasons: [`the launch cannot be planned: ${(err as Error).message}`] };
  }
}

/** roz's own bundled CLI, next to this module in plugin/dist (or, running from the sources, the built one). */
export function rozCliFile(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // Bundled, every chunk is in plugin/dist beside cli.mjs; from the sources (tests), src/supervisor/host.
  const file = basename(here) === 'dist' ? join(here, 'cli.mjs') : join(here, '..', '..', '..', 'plugin', 'dist', 'cli.mjs');
  if (!existsSync(file)) throw new Error(`roz's CLI is not at ${file} (npm run build)`);
  return file;
}

/** `<store>/supervisor/<project key>.log`: the background supervisor's stdout and stderr, appended, private. */
export function backgroundLogFile(store: string, cwd: string): string {
  const dir = join(store, 'supervisor');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) throw new Error(`${dir} is not a directory roz made (a link?): not using it`);
  return join(dir, `${createHash('sha256').update(controlKey(cwd)).digest('hex').slice(0, 24)}.log`);
}

/** Start the background supervisor and wait until it runs (or says why not). */
export async function startBackground(req: BackgroundRequest, store: string): Promise<BackgroundReady & { log: string }> {
  const log = backgroundLogFile(store, req.cwd);
  // O_NOFOLLOW: a link planted at the log's path is refused, not followed.
  const fd = openSync(log, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o600);
  let child;
  try {
    child = spawn(process.execPath, [rozCliFile(), SUPERVISE_COMMAND], {
      cwd: req.cwd,
      env: req.env,
      detached: true,
      stdio: ['pipe', fd, fd, 'pipe'],
    });
  } finally {
    closeSync(fd);
  }
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(`could not start: ${err.message}`));
    child.once('exit', (code, signal) => resolve(signal ? `killed by ${signal}` : `exit ${code}`));
  });
  child.stdin!.on('error', () => {});
  child.stdin!.end(JSON.stringify(req));
  const ready = child.stdio[3] as Readable;
  let text = '';
  ready.setEncoding('utf8');
  ready.on('data', (d: string) => (text += d));
  const closed = new Promise<void>((resolve) => ready.once('close', () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), READY_TIMEOUT_MS)));
  const how = await Promise.race([closed.then(() => 'said' as const), late]);
  clearTimeout(timer);
  ready.destroy();
  child.unref();
  const line = text.split('\n').find((l) => l.trim());
  if (how === 'said' && line) {
    try {
      return { ...(JSON.parse(line) as BackgroundReady), log };
    } catch {
      /* fall through: say what we know */
    }
  }
  if (how === 'late') child.kill('SIGTERM');
  const why = how === 'late' ? `did not start within ${READY_TIMEOUT_MS / 1000} s` : await exited;
  return { ok: false, message: `the background supervisor ${why} (its log: ${log})`, exitCode: 1, log };
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (d: string) => {
      text += d;
      if (text.length > MAX_REQUEST_BYTES) reject(new Error(`launch request over ${MAX_REQUEST_BYTES} bytes`));
    });
    stream.on('end', () => resolve(text));
    stream.on('error', reject);
  });
}

function report(r: BackgroundReady): void {
  try {
    writeSync(3, `${JSON.stringify(r)}\n`);
    closeSync(3);
  } catch {
    /* the launcher is gone: nobody to tell */
  }
}

/**
 * The background process (`roz __supervise`): the launch from stdin, the fleet host with its control
 * socket, then wait until every agent has exited. Returns the exit code.
 */
export async function superviseFromStdin(): Promise<number> {
  const stamp = (s: string): void => void process.stderr.write(`${new Date().toISOString()} roz supervisor ${process.pid}: ${s}\n`);
  let req: BackgroundRequest;
  try {
    const parsed = backgroundRequestSchema.safeParse(JSON.parse(await readAll(process.stdin)));
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    req = parsed.data;
  } catch (err) {
    report({ ok: false, message: `bad launch request: ${(err as Error).message}`, exitCode: 2 });
    return 2;
  }
  let host: FleetHost;
  try {
    host = await FleetHost.start({
      command: req.command,
      args: req.args,
      cwd: req.cwd,
      env: req.env,
      approvalTimeoutMs: req.approvalTimeoutMs,
      pty: req.pty,
      ...(req.pluginDir !== undefined ? { pluginDir: req.pluginDir } : {}),
    });
  } catch (err) {
    const exitCode = (err as { exitCode?: unknown }).exitCode;
    report({ ok: false, message: (err as Error).message, exitCode: typeof exitCode === 'number' ? exitCode : 1 });
    stamp(`could not start: ${(err as Error).message}`);
    return 1;
  }
  const record = host.control?.record;
  if (!record) {
    // Without its socket no window could ever reach these agents: stop them rather than leave them unreachable.
    await host.stopAll();
    await host.finish();
    report({ ok: false, message: `the control socket could not start (${host.notes.join('; ')}): nothing could attach to it`, exitCode: 1 });
    return 1;
  }
  stamp(`supervising ${req.command} in ${req.cwd} (control record ${record})`);
  report({ ok: true, pid: process.pid, record, notes: host.notes });
  const result = await host.finish();
  stamp(`every agent exited; main's code ${result.code}`);
  return 0;
}
