// Starting the reviewer roz runs itself (core/review/launched-reviewer.ts) and
// waiting for it, inside the agent's Stop hook. Loaded only on a stop that
// needs it (hook-reviewer-launch.cjs in the hook build): never on a tool call's path.
//
// Synchronous, on purpose: while the Stop hook waits, the agent's turn is over
// and its client runs nothing, so the agent cannot watch for the run's id, race
// the reviewer, or write while it reads; the stop's answer is the review's
// outcome (the reviewer's findings, or the stop let through). The cost is a
// hook that lasts as long as the review: roz's launch gives that one hook a
// timeout above the reviewer's window (codex-launch.ts, client-launch.ts), and
// the run is killed (its process group) at `review.reviewer_timeout_seconds`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ClientId } from '../core/clients.js';
import type { RozConfig } from '../core/config.js';
import type { PolicyResult, TraceNote } from '../core/verdict.js';
import { launchedReviewerPrompt, reviewerWindowSeconds } from '../core/review/launched-reviewer.js';
import { pathOutsideProject, resolveExecutable } from '../store/executable-path.js';

export interface LaunchedReviewerRun {
  code: number | null;
  timedOut: boolean;
  /** Why it could not run, or what it said on stderr last (for the human). */
  problem?: string;
}

/**
 * The reviewer's command line. Claude Code: print mode, roz's plugin (its hooks, and its roz:roz
 * agent as the main thread: roz's reviewer prompt, Read/Grep/Glob/Bash only), its session id the run
 * id roz registered, permission mode dontAsk and the user's settings only: a Bash command neither
 * roz's hook (`roz context`, `roz decide`) nor the user's rules allow is refused. Codex: `codex exec` in its
 * read-only sandbox, roz's tool hooks on the command line.
 */
export function reviewerCommand(
  client: ClientId,
  o: { runId: string; sessionId: string; agentLabel: string; config: RozConfig; pluginDir: string; hookCommand: (name: string) => string },
): { file: string; args: string[] } {
  if (client === 'codex') {
    // Codex's shell is a login shell (`bash -lc`), which sets its own PATH: roz by absolute path, on the node roz runs on.
    const plain = (s: string): string => (/^[\w./+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
    const prompt = launchedReviewerPrompt(o.sessionId, o.agentLabel, `${plain(process.execPath)} ${plain(join(o.pluginDir, 'bin', 'roz'))}`);
    const hook = (name: string): string => `[{hooks=[{type="command",command=${JSON.stringify(o.hookCommand(name))}}]}]`;
    return {
      file: o.config.external_models.codex || 'codex',
      args: [
        'exec',
        '--dangerously-bypass-hook-trust',
        '--skip-git-repo-check',
        '-s',
        'read-only',
        '-c',
        `hooks.PreToolUse=${hook('pre-tool-use')}`,
        '-c',
        `hooks.PostToolUse=${hook('post-tool-use')}`,
        '-c',
        `hooks.Stop=${hook('stop')}`,
        '-c',
        'features.codex_hooks=true',
        prompt,
      ],
    };
  }
  const prompt = launchedReviewerPrompt(o.sessionId, o.agentLabel);
  return {
    file: o.config.external_models.claude || 'claude',
    args: [
      '-p',
      prompt,
      '--plugin-dir',
      o.pluginDir,
      '--agent',
      'roz:roz',
      '--session-id',
      o.runId,
      '--tools',
      'Read,Grep,Glob,Bash',
      // Nothing is asked and nothing is bypassed: a call no rule or hook allows is refused (a settings
      // defaultMode cannot loosen it), and the project's .claude/ (the agent may write it) configures nothing.
      '--permission-mode',
      'dontAsk',
      '--setting-sources',
      'user',
      '--output-format',
      'text',
    ],
  };
}

export interface ReviewAtStop extends LaunchOptions {
  now: () => Date;
  warn: (m: string) => void;
  /**
   * The session read again after the run (the engine's locked update, policy.ts afterLaunchedReview):
   * the stop's new answer or null (no decision), with `notes` turning that answer into trace notes.
   */
  update: (now: Date, notes: (out: PolicyResult | null) => TraceNote[]) => Promise<PolicyResult | null>;
}

/**
 * A stop that needs a review, where roz starts the reviewer (launched-reviewer.ts): run it (registered
 * as `runId` already), then judge the stop again from what it recorded. If the session cannot be read
 * again, the block that started it stands, and says so.
 */
export async function reviewedAtStop(blocked: PolicyResult, o: ReviewAtStop): Promise<PolicyResult> {
  const ran = await runLaunchedReviewer(o);
  const exited: TraceNote = {
    type: 'ReviewerExited',
    agent_id: o.runId,
    client: o.client,
    code: ran.code,
    timed_out: ran.timedOut,
    ...(ran.problem ? { problem: ran.problem } : {}),
  };
  try {
    const after = await o.update(o.now(), (out) => [
      exited,
      ...(out?.notes ?? []),
      // The stop's answer after the review (the Stop record holds the block that started it).
      { type: 'StopAfterReview', agent_id: o.runId, verdict: out?.verdict.kind ?? 'block' },
    ]);
    if (after) return { verdict: after.verdict, notes: [...blocked.notes, ...after.notes], warnings: [...blocked.warnings, ...after.warnings] };
  } catch (err) {
    // The gate holds (the block stands), visibly.
    o.warn(`roz: could not read the reviewer's decision back (${(err as Error).message}); the stop stays blocked`);
  }
  const why = ran.problem ? ` (${ran.problem})` : ran.code !== 0 ? ` (exit ${ran.code})` : '';
  const label = o.client === 'codex' ? 'Codex CLI reviewer' : 'Claude Code reviewer';
  return { ...blocked, warnings: [...blocked.warnings, `roz: the ${label} roz started recorded no decision${why}.`] };
}

interface LaunchOptions {
  client: ClientId;
  /** The reviewed agent's client (its Stop hook's timeout bounds the wait). */
  agentClient: ClientId;
  runId: string;
  sessionId: string;
  agentLabel: string;
  cwd: string;
  env: Record<string, string | undefined>;
  config: RozConfig;
  /** Moves the hook's deadline (core/first-wait.ts longWait; passed in: this module is a file of its own in the hook build, with its own copy of what it imports). */
  longWait: (ms: number) => void;
  /** roz's plugin (its hooks, its reviewer agent, bin/roz). */
  pluginDir: string;
}

/** Start the reviewer for `sessionId` as run `runId` and wait for it (bounded). */
export async function runLaunchedReviewer(o: LaunchOptions): Promise<LaunchedReviewerRun> {
  const pluginDir = o.pluginDir;
  const roz = join(pluginDir, 'bin', 'roz');
  const q = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;
  const hookCommand = (name: string): string => `${q(process.execPath)} --verify-snapshot-checksum ${q(roz)} hook ${name}`;
  const { file, args } = reviewerCommand(o.client, { ...o, pluginDir, hookCommand });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.env)) if (v !== undefined) env[k] = v;
  // The reviewer's own client and hooks: nothing of the agent's client (its sandbox mark, supervisor socket) carries over.
  for (const k of ['ROZ_CLIENT', 'ROZ_CLIENT_SANDBOX', 'ROZ_SOCKET', 'ROZ_HOOK_TRANSPORT', 'CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_ENV_FILE'])
    delete env[k];
  // Its hooks read it: every event of this run is the agent session's reviewer's (launched-reviewer.ts).
  env.ROZ_REVIEW_OF = o.sessionId;
  env.ROZ_REVIEW_RUN = o.runId;
  // This hook runs outside the agent's sandbox, and so does what it starts: the reviewer's client is found,
  // and runs, on a PATH without the project's folders (a `claude` or `git` the agent planted in
  // node_modules/.bin is never what runs: store/executable-path.ts).
  const outside = pathOutsideProject(env.PATH, o.cwd);
  env.PATH = `${join(pluginDir, 'bin')}:${outside}`;
  if (o.client === 'codex') env.ROZ_CLIENT = 'codex';
  const program = resolveExecutable(file, outside);
  if (!program) return { code: null, timedOut: false, problem: `could not find ${file} on a PATH without the project's folders` };
  const windowMs = reviewerWindowSeconds(o.config, o.agentClient) * 1000;
  // The hook's own deadline (25 s) would answer the stop for it long before a review ends: it waits as long as the run may.
  o.longWait(windowMs + 10_000);
  return new Promise((resolve) => {
    let stderr = '';
    let settled = false;
    const done = (r: LaunchedReviewerRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    let child: ReturnType<typeof spawn>;
    try {
      // Its own process group, so the window's end kills the client and everything it started.
      child = spawn(program, args, { cwd: o.cwd, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    } catch (err) {
      resolve({ code: null, timedOut: false, problem: `could not start ${file}: ${(err as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      done({ code: null, timedOut: true, problem: `the reviewer ran past its window (${windowMs / 1000} s) and was killed` });
    }, windowMs);
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-2000);
    });
    child.on('error', (err) => done({ code: null, timedOut: false, problem: `could not start ${file}: ${err.message}` }));
    child.on('close', (code) =>
      done({ code, timedOut: false, ...(code !== 0 && stderr.trim() ? { problem: stderr.trim().split('\n').slice(-3).join(' | ') } : {}) }),
    );
  });
}
