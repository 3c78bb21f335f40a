// The hook process: `roz hook <event>`. Deliberately lean (no CLI framework,
// no UI): Claude Code starts one of these for every tool call.
import { hookCliNames } from '../core/hook-input.js';
import { markCodePath } from '../engine/code-paths.js';
import { runHook } from '../engine/engine.js';

const MAX_STDIN = 64 * 1024 * 1024;
// Stay inside the client's hook timeout (30 s in hooks.json): fail open first.
const DEADLINE_MS = 25_000;
// Under `roz run` a PreToolUse may wait for a human: the supervisor passes its
// approval timeout (ROZ_APPROVAL_TIMEOUT_MS) and the hook waits that long plus
// a margin, inside hooks.json's 600 s PreToolUse timeout. Standalone: 25 s.
const SUPERVISED_MARGIN_MS = 5_000;
const SUPERVISED_MAX_MS = 590_000;
function deadlineFor(event: string, env: NodeJS.ProcessEnv): number {
  if (!env.ROZ_SOCKET || event !== 'PreToolUse') return DEADLINE_MS;
  const wait = Number(env.ROZ_APPROVAL_TIMEOUT_MS);
  if (!Number.isFinite(wait) || wait <= 0) return DEADLINE_MS;
  return Math.min(SUPERVISED_MAX_MS, Math.max(DEADLINE_MS, wait + SUPERVISED_MARGIN_MS));
}

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
  const deadlineMs = deadlineFor(event, process.env);
  const timer = setTimeout(() => {
    finish(`${JSON.stringify({ systemMessage: `roz: ${event} hook timed out after ${deadlineMs / 1000}s; failed open` })}\n`, `roz: ${event} hook timed out; failed open\n`);
  }, deadlineMs);
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
    // Loaded only under `roz run`: standalone hooks never pay for the channel.
    markCodePath('supervised');
    const { relayToSupervisor } = await import('../supervisor/channel-client.js');
    const relayed = await relayToSupervisor({ event, raw, stdout: run.stdout, stderr: run.stderr, verdict: run.verdict, env: process.env, deadline: started + deadlineMs - 1_000 });
    finish(relayed.stdout, relayed.stderr);
    return;
  }
  finish(run.stdout, run.stderr);
}

void main();
