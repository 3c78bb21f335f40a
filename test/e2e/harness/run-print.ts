// Runs the real Claude Code client once in print mode (`claude -p`) against the
// fake API, inside a throwaway workspace, and hands back everything a test may
// want to assert on.
//
// Permission mode: `--dangerously-skip-permissions` (with IS_SANDBOX=1, which the
// client demands when running as root). Print mode has nobody to answer the
// client's own permission prompts, so without it every Write and Bash the fake
// model makes would be denied by the client before roz gets a say. Hooks still
// run in this mode (payloads show permission_mode "bypassPermissions"), and a
// PreToolUse `deny` from a hook is still enforced, which is what roz relies on.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startFakeApi, summarize, type FakeApi, type FakeApiOptions, type ParsedRequest, type Scenario } from './fake-api.js';
import { killTree } from './kill-tree.js';
import { ROZ_BIN, ROZ_PLUGIN_DIR, claudeBin, createWorkspace, type ClientVersion, type Workspace } from './workspace.js';

export interface PrintResult {
  type: string;
  subtype: string;
  is_error: boolean;
  result?: string;
  session_id: string;
  num_turns?: number;
  permission_denials: Array<{ tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }>;
  [k: string]: unknown;
}

export interface PrintRunOptions {
  prompt: string;
  scenario: Scenario;
  /** Plugin to load with --plugin-dir (default: the roz plugin of this checkout). */
  pluginDir?: string;
  /** Reuse a workspace (e.g. to pre-populate the repo); otherwise a fresh one is made. */
  workspace?: Workspace;
  /** Extra environment for the client (and thus for hooks and Bash commands). */
  env?: Record<string, string>;
  extraArgs?: string[];
  /** Which pinned client to run (default: the newest). */
  client?: ClientVersion;
  timeoutMs?: number;
  api?: FakeApiOptions;
  /** Launch through `roz exec --` (roz's enforced settings: sandboxed Bash, protected files). */
  exec?: boolean;
  /** Options for `roz exec` before its `--` (e.g. `--require-review`); implies exec. */
  execArgs?: string[];
  /**
   * roz exec loads the plugin (`roz exec --plugin-dir DIR`) instead of claude's own
   * `--plugin-dir` (which keeps command hooks): the way to http hooks; implies exec.
   */
  rozLoadsPlugin?: boolean;
  /** Told the pid of the process started (roz exec, or the client). */
  onSpawn?: (pid: number) => void;
  /** No `--plugin-dir` on the client's command line: under exec, roz loads its plugin its own way. */
  noPluginDir?: boolean;
}

export interface PrintRun {
  result: PrintResult;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  api: FakeApi;
  requests: ParsedRequest[];
  workspace: Workspace;
}

/** The client's switches for a scripted run: no traffic beyond the fake model, no updates, telemetry or error reports. */
export const OFFLINE_CLIENT = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  IS_SANDBOX: '1',
} as const;

export function clientEnv(ws: Workspace, api: FakeApi, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...ws.env, ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-ant-test', ...OFFLINE_CLIENT, ...extra };
}

const PTY_INHERITED = ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'USER', 'LOGNAME', 'TZ'];

/** The environment of `roz run` and its clients in a pty test: its own HOME and store, the fake model, the terminal's basics. */
export function ptyClientEnv(o: { home: string; storage: string; apiUrl: string }): Record<string, string> {
  const env: Record<string, string> = {
    TERM: 'xterm-256color',
    HOME: o.home,
    SHELL: '/bin/bash',
    ROZ_STORAGE_PATH: o.storage,
    GIT_CONFIG_NOSYSTEM: '1',
    ANTHROPIC_BASE_URL: o.apiUrl,
    ANTHROPIC_API_KEY: 'sk-ant-e2e',
    ...OFFLINE_CLIENT,
  };
  for (const k of PTY_INHERITED) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  return env;
}

export function assertClientInstalled(client?: ClientVersion): string {
  const bin = claudeBin(client);
  if (!existsSync(bin)) {
    throw new Error(`Claude Code client ${client ?? ''} not found at ${bin}: the e2e suite needs both pinned clients installed (npm ci).`);
  }
  return bin;
}

export async function runPrint(opts: PrintRunOptions): Promise<PrintRun> {
  const bin = assertClientInstalled(opts.client);
  const pluginDir = opts.pluginDir ?? ROZ_PLUGIN_DIR;
  const ws = opts.workspace ?? createWorkspace();
  // Workspace env overrides (e.g. ROZ_MAX_BLOCKS) must also reach roz CLI calls made by the test.
  Object.assign(ws.env, opts.env ?? {});
  const api = await startFakeApi(opts.scenario, opts.api);
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const pluginArgs = opts.rozLoadsPlugin || opts.noPluginDir ? [] : ['--plugin-dir', pluginDir];
  const execArgs = [...(opts.rozLoadsPlugin ? ['--plugin-dir', pluginDir] : []), ...(opts.execArgs ?? [])];
  const args = ['-p', opts.prompt, '--output-format', 'json', ...pluginArgs, '--dangerously-skip-permissions', ...(opts.extraArgs ?? [])];
  const started = Date.now();

  const [file, argv] = opts.exec || opts.execArgs || opts.rozLoadsPlugin ? [process.execPath, [ROZ_BIN, 'exec', ...execArgs, '--', bin, ...args]] : [bin, args];
  const child = spawn(file, argv, {
    cwd: ws.repo,
    env: clientEnv(ws, api, opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group, so a timeout can kill it and its hooks (see killTree)
  });
  if (child.pid !== undefined) opts.onSpawn?.(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));

  const outcome = await new Promise<{ code: number | null; timedOut: boolean; spawnError?: Error }>((resolve) => {
    const timer = setTimeout(() => {
      if (child.pid !== undefined) killTree(child.pid);
      resolve({ code: null, timedOut: true });
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, timedOut: false, spawnError: err });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut: false });
    });
  });
  const durationMs = Date.now() - started;
  await api.close();

  const dump = (): string =>
    `\n--- cwd: ${ws.repo}\n--- stdout:\n${stdout || '(empty)'}\n--- stderr:\n${stderr || '(empty)'}\n--- fake API requests:\n${summarize(api.requests) || '(none)'}\n--- script errors: ${api.scriptErrors.join('; ') || '(none)'}\n--- other requests: ${api.other.map((o) => `${o.method} ${o.path}`).join(', ') || '(none)'}`;
  if (outcome.spawnError) throw new Error(`could not start the Claude Code client (${bin}): ${outcome.spawnError.message}${dump()}`);
  if (outcome.timedOut) throw new Error(`claude -p did not finish within ${timeoutMs} ms; killed its process group.${dump()}`);

  if (process.env.ROZ_E2E_VERBOSE)
    process.stderr.write(`[e2e] claude -p ${JSON.stringify(opts.prompt)} exit ${outcome.code} in ${durationMs} ms\n${summarize(api.requests)}\n`);
  let result: PrintResult;
  try {
    result = JSON.parse(stdout.trim()) as PrintResult;
  } catch {
    throw new Error(`claude -p exited ${outcome.code} without a JSON result on stdout.${dump()}`);
  }
  return { result, exitCode: outcome.code, stdout, stderr, durationMs, api, requests: api.requests, workspace: ws };
}

const pick = (o: Record<string, unknown>, keys: string[]): Record<string, unknown> => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));

/** A failure-message dump of a finished run: result, stderr and the request log. */
export function describeRun(run: PrintRun): string {
  const errors = run.api.scriptErrors.length ? `\nSCRIPT ERRORS:\n${run.api.scriptErrors.join('\n')}` : '';
  return `exit ${run.exitCode} in ${run.durationMs} ms${errors}\nresult: ${JSON.stringify(pick(run.result, ['subtype', 'is_error', 'result', 'session_id', 'num_turns', 'terminal_reason', 'permission_denials']))}\nstderr: ${run.stderr.slice(0, 3000)}\nrequests:\n${summarize(run.requests)}`;
}
