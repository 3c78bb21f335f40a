// `roz run`'s launch without its screen (fixtures/supervised-run.ts: RunService
// with its supervisor, the hook intake and the control socket; the client in
// print mode), as the scenarios that attack roz run's paths start it
// (control-socket, git-trust-plants, worktree-sandbox): in a workspace, on a
// pinned client, against a fake API, its output kept for a failure's dump.
import { spawn } from 'node:child_process';
import { bundle } from '../../supervisor/helpers/bundle.js';
import { summarize, type FakeApi } from './fake-api.js';
import { killTree } from './kill-tree.js';
import { assertRozBuilt } from './roz.js';
import { clientEnv } from './run-print.js';
import { claudeBin, type ClientVersion, ROZ_PLUGIN_DIR, type Workspace } from './workspace.js';

/** The launch fixture, bundled (seconds: in a beforeAll). */
export async function supervisedRunEntry(): Promise<string> {
  assertRozBuilt();
  return bundle('test/e2e/fixtures/supervised-run.ts');
}

export interface SupervisedRunOptions {
  /** From supervisedRunEntry(). */
  entry: string;
  ws: Workspace;
  client: ClientVersion;
  api: FakeApi;
  /** The `claude -p` prompt. */
  prompt: string;
  /** How long a request waits for the human before it is denied. */
  approvalTimeoutMs: number;
  /** The client's working directory (default: the workspace's repository). */
  cwd?: string;
}

export interface SupervisedRun {
  readonly pid: number | undefined;
  stdout(): string;
  stderr(): string;
  /** Its exit code, or null when it has not ended within `ms` (it and everything it started are then killed). */
  exit(ms: number): Promise<number | null>;
  /** Kill it and everything it started, if it still runs. */
  stop(): void;
  /** The tails of its output, the request log and the script's errors: for a failed assertion. */
  why(): string;
}

export function startSupervisedRun(o: SupervisedRunOptions): SupervisedRun {
  const args = ['-p', o.prompt, '--output-format', 'json', '--dangerously-skip-permissions'];
  const child = spawn(process.execPath, [o.entry, ROZ_PLUGIN_DIR, String(o.approvalTimeoutMs), claudeBin(o.client), ...args], {
    cwd: o.cwd ?? o.ws.repo,
    env: clientEnv(o.ws, o.api),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: stop() takes the client, its hooks and its Bash commands with it.
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  let running = true;
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      running = false;
      resolve(code);
    }),
  );
  const stop = (): void => {
    if (running && child.pid !== undefined) killTree(child.pid);
  };
  return {
    pid: child.pid,
    stdout: () => stdout,
    stderr: () => stderr,
    exit: async (ms) => {
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([closed, new Promise<null>((r) => (timer = setTimeout(() => r(null), ms)))]);
      clearTimeout(timer);
      if (code === null) stop();
      return code;
    },
    stop,
    why: () =>
      `\n--- stderr:\n${stderr.slice(-3000)}\n--- stdout:\n${stdout.slice(-2000)}\n--- requests:\n${summarize(o.api.requests)}\n--- script errors: ${o.api.scriptErrors.join('; ')}`,
  };
}
