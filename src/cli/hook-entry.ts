// The hook process: `roz hook <event>`. Deliberately lean (no CLI framework,
// no UI): Claude Code starts one of these for every tool call.
import { hookCliNames } from '../core/hook-input.js';
import { runHook } from '../engine/engine.js';

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
  finish(run.stdout, run.stderr);
}

void main();
