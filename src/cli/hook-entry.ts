// The hook process: `roz hook <event>`. Deliberately lean (no CLI framework,
// no UI): Claude Code starts one of these for every tool call.
import { readSync, writeSync } from 'node:fs';
import { hookCliNames } from '../core/hook-input.js';
import { hookClient } from '../core/clients.js';
import { HOOK_EVENTS_HELP, HOOK_USAGE } from './hook-usage.js';
import { markCodePath } from '../engine/code-paths.js';
import { runHook } from '../engine/engine.js';
import { hookOrigin } from '../engine/hook-origin.js';
import { renderOutput } from '../engine/output.js';
import { refuseUnanswered, renderForClient } from '../engine/client-output.js';
import { none } from '../core/verdict.js';
import { aboutToWait, onFirstWait, onLongWait } from '../core/first-wait.js';
import { launcherGlobals } from '../core/launcher-globals.js';

const MAX_STDIN = 64 * 1024 * 1024;
// Stay inside the client's hook timeout (30 s in hooks.json): fail open first.
const DEADLINE_MS = 25_000;
// Under `roz run` a PreToolUse may wait for a human: the supervisor passes its
// approval timeout (ROZ_APPROVAL_TIMEOUT_MS) and the hook waits that long plus
// a margin, inside hooks.json's 600 s PreToolUse timeout. Standalone: 25 s.
// A PermissionRequest (the client's own dialog, queued for the human) waits the same.
const SUPERVISED_MARGIN_MS = 5_000;
const SUPERVISED_MAX_MS = 590_000;
function deadlineFor(event: string, env: NodeJS.ProcessEnv): number {
  if (!env.ROZ_SOCKET || (event !== 'PreToolUse' && event !== 'PermissionRequest')) return DEADLINE_MS;
  const wait = Number(env.ROZ_APPROVAL_TIMEOUT_MS);
  if (!Number.isFinite(wait) || wait <= 0) return DEADLINE_MS;
  return Math.min(SUPERVISED_MAX_MS, Math.max(DEADLINE_MS, wait + SUPERVISED_MARGIN_MS));
}

/**
 * stdin, read with readSync on fd 0: the client gives hooks a pipe, and
 * process.stdin would wrap it in a net.Socket, loading net and streams (~5 ms
 * of a hook's life); an asynchronous fs.read would start libuv's thread pool
 * (~1.5 ms). The client writes the event and closes the pipe as it spawns the
 * hook, so the read ends as soon as the hook is up. The cost: our deadline
 * cannot fire while the read blocks, so a client that never closed stdin would
 * meet its own hook timeout instead. A non-blocking fd (EAGAIN) goes on with
 * the stream.
 */
async function readStdin(): Promise<string> {
  // One buffer, grown by doubling: a hook's event is a few KB, so this is one
  // read and one decode (chunks and Buffer.concat cost a hook ~0.3M instructions).
  let buf: Buffer = Buffer.allocUnsafe(64 * 1024);
  let size = 0;
  // plugin/bin/roz made the first read (to choose its code cache by the tool): its bytes, or its error.
  let head = launcherGlobals().__rozStdinHead ?? undefined;
  launcherGlobals().__rozStdinHead = undefined;
  if (head) buf = head.buf;
  for (;;) {
    if (size === buf.length) {
      // One byte past the limit, to tell an input of exactly MAX_STDIN from a bigger one.
      const bigger = Buffer.allocUnsafe(Math.min(size * 2, MAX_STDIN + 1));
      buf.copy(bigger, 0, 0, size);
      buf = bigger;
    }
    let n: number;
    try {
      if (head) {
        const first = head;
        head = undefined;
        if (first.err) throw first.err;
        n = first.size;
      } else n = readSync(0, buf, size, buf.length - size, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EOF') break;
      if (code !== 'EAGAIN') throw err;
      aboutToWait();
      const chunks: Buffer[] = [buf.subarray(0, size)];
      for await (const chunk of process.stdin) {
        size += (chunk as Buffer).length;
        if (size > MAX_STDIN) throw new Error(`hook input exceeds ${MAX_STDIN} bytes`);
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    }
    if (n === 0) break;
    size += n;
    if (size > MAX_STDIN) throw new Error(`hook input exceeds ${MAX_STDIN} bytes`);
  }
  return buf.toString('utf8', 0, size);
}

/** Write all of `text` to fd with writeSync; false when the fd is non-blocking and full (EAGAIN). */
function writeAllSync(fd: number, text: string): boolean {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  try {
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
    const rest = buf.subarray(off).toString('utf8');
    (fd === 1 ? process.stdout : process.stderr).write(rest);
    return false;
  }
}

function finish(stdout: string, stderr: string, code = 0): void {
  // Tells plugin/bin/roz this run answered: a run with a code cache that exits
  // without this set gets the launcher's fail-open answer, and the cache is discarded.
  launcherGlobals().__rozHookAnswered = true;
  // Written with writeSync for the same reason stdin is read with readSync: the
  // process.stdout stream would load net for the pipe. The client reads the
  // whole answer before it looks at the exit.
  try {
    if (stderr) writeAllSync(2, stderr);
    if (!writeAllSync(1, stdout)) {
      process.stdout.write('', () => process.exit(code));
      return;
    }
  } catch {
    /* the client went away; nothing left to tell it */
  }
  process.exit(code);
}

async function main(): Promise<void> {
  const started = Date.now();
  const name = process.argv[3] ?? '';
  if (name === '--help' || name === '-h') {
    finish(HOOK_USAGE, '');
    return;
  }
  const event = hookCliNames[name];
  if (!event) {
    // Misuse by a person (hooks.json names only known events): exit 2, like every other command.
    finish('', `roz: ${name ? `unknown hook ${JSON.stringify(name)}` : 'missing hook event'}; ${HOOK_EVENTS_HELP} (roz hook --help)\n`, 2);
    return;
  }
  // Advisory-mode guard (engine/hook-origin.ts): a `roz hook` the agent runs
  // from its Bash must not change a session. In enforced mode the sandbox
  // already makes the store read-only to it.
  const origin = hookOrigin(name);
  if (!origin.trusted) {
    const msg = `roz: refused: this \`roz hook ${name}\` was not started by ${hookClient(process.env).label} (${origin.why}); only the client's own hooks change a session. Nothing was recorded.`;
    finish(renderOutput(event, none, [msg]), `${msg}\n`);
    return;
  }
  const deadlineMs = deadlineFor(event, process.env);
  // Armed when the hook first waits on the event loop (core/first-wait.ts: a
  // busy session lock, the supervisor, a stdin with no data yet). Most hooks do
  // all their work in synchronous I/O and microtasks and exit without waiting,
  // so they never load node's timers; the deadline still counts from the start.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number, said: number): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      finish(renderOutput(event, none, [`roz: ${event} hook timed out after ${said / 1000}s; failed open`]), `roz: ${event} hook timed out; failed open\n`);
    }, ms);
    timer.unref();
  };
  onFirstWait(() => arm(Math.max(0, deadlineMs - (Date.now() - started)), deadlineMs));
  onLongWait((ms) => arm(ms, ms));
  let raw: string;
  try {
    raw = await readStdin();
  } catch (err) {
    if (event === 'PreToolUse') {
      // Unread, the call's tool and project are unknown: it might be a write
      // into a governed project, and governance fails closed.
      const reason = `roz cannot read this tool call (${(err as Error).message}), so it is refused: intent governance cannot judge it. Make the change in smaller steps.`;
      finish(renderOutput(event, { kind: 'deny', code: 'HOOK_ERROR', reason }, []), `roz: ${reason}\n`);
      return;
    }
    const msg = `roz: ${event} hook failed open: ${(err as Error).message}`;
    finish(renderOutput(event, none, [msg]), `${msg}\n`);
    return;
  }
  const run = await runHook(event, raw, { env: process.env });
  // Under `roz run` the engine has already decided and persisted; the supervisor
  // is told, and for an `ask` a human answers in its TUI. Every wait is bounded
  // (src/supervisor/hooks/channel-client.ts) and ends 1 s before our own deadline.
  if (process.env.ROZ_SOCKET) {
    // Loaded only under `roz run`: standalone hooks never pay for the channel.
    markCodePath('supervised');
    aboutToWait();
    const { relayToSupervisor } = await import('../supervisor/hooks/channel-client.js');
    const relayed = await relayToSupervisor({ event, raw, stderr: run.stderr, verdict: run.verdict, env: process.env, deadline: started + deadlineMs - 1_000 });
    const client = hookClient(process.env);
    // No answer came: a client that does not obey `ask` (Codex) would run the call, so it is refused instead.
    const verdict =
      relayed.outcome === 'fallback' && event === 'PreToolUse'
        ? refuseUnanswered(relayed.verdict, client, `the supervisor did not answer (${relayed.stderr.trim().split('\n').at(-1) ?? ''})`)
        : relayed.verdict;
    finish(verdict === run.verdict ? run.stdout : renderForClient(event, verdict, run.warnings, client), relayed.stderr);
    return;
  }
  finish(run.stdout, run.stderr);
}

void main();
