// The hook process: `roz hook <event>`. Deliberately lean (no CLI framework,
// no UI): Claude Code starts one of these for every tool call.
import { hookCliNames } from '../core/hook-input.js';
import { runHook } from '../engine/engine.js';
// roz run: relay the verdict to the supervisor when ROZ_SOCKET is set (lean: no UI code).
import { relayToSupervisor } from '../supervisor/channel-client.js';

const MAX_STDIN = 64 * 1024 * 1024;
// Stay inside the client's hook timeout (30 s in hooks.json): fail open first.
const DEADLINE_MS = 25_000;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_STDIN) throw new Error(`hook input exceeds ${MAX_STDIN} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function finish(stdout: string, stderr: string): void {
  if (stderr) process.stderr.write(stderr);
  // Exit only once stdout has drained: the client reads the whole answer.
  process.stdout.write(stdout, () => process.exit(0));
}

async function main(): Promise<void> {
  const started = Date.now();
  const name = process.argv[3] ?? '';
  const event = hookCliNames[name];
  if (!event) {
    finish('', `roz: unknown hook "${name}"; expected one of: ${Object.keys(hookCliNames).join(', ')}\n`);
    return;
  }
  const timer = setTimeout(() => {
    finish(`${JSON.stringify({ systemMessage: `roz: ${event} hook timed out after ${DEADLINE_MS / 1000}s; failed open` })}\n`, `roz: ${event} hook timed out; failed open\n`);
  }, DEADLINE_MS);
  timer.unref();
  let raw: string;
  try {
    raw = await readStdin();
  } catch (err) {
    const msg = `roz: ${event} hook failed open: ${(err as Error).message}`;
    finish(`${JSON.stringify({ systemMessage: msg })}\n`, `${msg}\n`);
    return;
  }
  const run = await runHook(event, raw, { env: process.env });
  // Under `roz run` the engine has already decided and persisted; the supervisor
  // is told, and for an `ask` a human answers in its TUI. Every wait is bounded
  // (src/supervisor/channel-client.ts) and ends 1 s before our own deadline.
  if (process.env.ROZ_SOCKET) {
    const relayed = await relayToSupervisor({ event, raw, stdout: run.stdout, stderr: run.stderr, verdict: run.verdict, env: process.env, deadline: started + DEADLINE_MS - 1_000 });
    finish(relayed.stdout, relayed.stderr);
    return;
  }
  finish(run.stdout, run.stderr);
}

void main();
