// `roz exec [--] claude ARGS...`: the agent under the same enforcement as
// `roz run` (the per-run --settings file: Bash sandboxed, roz's files
// read-only, deny rules for the file tools), without the TUI: no terminal
// needed, for `claude -p` and CI. On clients from 2.1.295 its hooks are the
// client's http hooks served in this process (supervisor/hooks/in-process-hooks.ts);
// before, a process per hook. The exit code is claude's.
import { randomUUID } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { RunError, RunService, type RunResult } from '../../supervisor/host/run-service.js';
import { runOutcome, sessionOutcome, withSessionId, type SessionOutcome } from '../../core/review/outcome.js';
import { cliContext } from '../context.js';
import { clientForCommand } from '../../core/client-commands.js';
import { existsSync } from 'node:fs';
import { loadConfig } from '../../engine/config-loader.js';
import { registryDir } from '../../store/agent-registry.js';
import { findInterrupted, interruptedNote } from './resume-offer.js';
import { processEnv } from './run.js';

export interface ExecOptions {
  /** Load roz's plugin from here (default: the plugin this roz runs from). */
  pluginDir?: string;
  /** Fail a run that claude ended cleanly but whose review is not approved (exit codes: core/review/outcome.ts). */
  requireReview?: boolean;
}

export async function execCommand(argv: string[], opts: ExecOptions = {}): Promise<number> {
  const [command = 'claude', ...given] = argv;
  // --require-review needs to know which roz session the run was: roz names it.
  const isClaude = /^claude(\.exe)?$/.test(basename(command));
  const pinned = opts.requireReview && isClaude ? withSessionId(given, randomUUID()) : { args: given, sessionId: null };
  const args = pinned.args;
  const startedAt = new Date();
  await sayInterrupted();
  let run: RunService;
  try {
    run = await RunService.start({
      command,
      args,
      cwd: process.cwd(),
      env: processEnv(),
      ...(opts.pluginDir !== undefined ? { pluginDir: opts.pluginDir } : {}),
    });
  } catch (err) {
    if (!(err instanceof RunError)) throw err;
    process.stderr.write(`roz exec: ${err.message}\n`);
    return err.exitCode;
  }
  for (const n of run.notes) process.stderr.write(`roz exec: ${n}\n`);
  if (!run.settingsFile && !clientForCommand(command)) process.stderr.write(`roz exec: ${command} is not claude: started without roz's enforced settings\n`);
  let result: RunResult;
  try {
    result = await run.finish();
  } catch (err) {
    if (!(err instanceof RunError)) throw err;
    process.stderr.write(`roz exec: ${err.message}\n`);
    return err.exitCode;
  }
  for (const w of run.exitWarnings) process.stderr.write(`roz exec: ${w}\n`);
  const outcome = opts.requireReview && result.code === 0 ? reviewOutcome(pinned.sessionId, result.sessions, startedAt) : undefined;
  if (outcome) process.stderr.write(`roz exec: ${outcome.message}\n`);
  return execExitCode(result, opts, outcome);
}

/** Agents a supervisor that is gone was running (killed, a reboot): said, with how to resume them (no prompt off a terminal). */
async function sayInterrupted(): Promise<void> {
  // The store's path only (cliContext would say the config's problems a second time).
  const store = resolve(process.cwd(), loadConfig(process.env, { cwd: process.cwd() }).config.storage.path);
  // Most projects have no fleet: no git, no socket probe then.
  if (!existsSync(registryDir(store))) return;
  const { liveSupervisors } = await import('../../supervisor/control/control-client.js');
  const { live } = await liveSupervisors(store, process.cwd());
  const found = findInterrupted(store, process.cwd(), new Set(live.map((l) => l.record.pid)));
  if (found) process.stderr.write(`${interruptedNote('roz exec', found)}\n`);
}

/** The review outcome of the run's session(s): the one roz named, else those the supervisor saw or that changed during the run. */
function reviewOutcome(sessionId: string | null, seen: string[], startedAt: Date): SessionOutcome {
  const { store } = cliContext();
  const now = new Date();
  let ids = sessionId ? [sessionId] : seen;
  if (ids.length === 0)
    ids = store
      .list()
      .filter((s) => Date.parse(s.updated_at) >= startedAt.getTime())
      .map((s) => s.session_id);
  return runOutcome(ids.map((id) => sessionOutcome(store.read(id), now)));
}

/**
 * The process's exit code once the agent is done: claude's own. Checks that
 * can fail a run after a clean exit (e.g. a required review) go here and
 * return their own code only when claude exited 0.
 */
export function execExitCode(result: RunResult, opts: ExecOptions, outcome?: SessionOutcome): number {
  if (result.code !== 0 || !opts.requireReview || !outcome) return result.code;
  return outcome.exit;
}
