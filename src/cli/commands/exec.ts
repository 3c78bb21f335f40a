// `roz exec [--] claude ARGS...`: the agent under the same enforcement as
// `roz run` (the per-run --settings file: Bash sandboxed, roz's files
// read-only, deny rules for the file tools), without the TUI: no terminal
// needed, for `claude -p` and CI. The exit code is claude's.
import { RunError, RunService, type RunResult } from '../../supervisor/run-service.js';
import { processEnv } from './run.js';

export interface ExecOptions {
  /** Load roz's plugin from here (default: the plugin this roz runs from). */
  pluginDir?: string;
}

export async function execCommand(argv: string[], opts: ExecOptions = {}): Promise<number> {
  const [command = 'claude', ...args] = argv;
  let run: RunService;
  try {
    run = await RunService.start({ command, args, cwd: process.cwd(), env: processEnv(), ...(opts.pluginDir !== undefined ? { pluginDir: opts.pluginDir } : {}) });
  } catch (err) {
    if (!(err instanceof RunError)) throw err;
    process.stderr.write(`roz exec: ${err.message}\n`);
    return err.exitCode;
  }
  for (const n of run.notes) process.stderr.write(`roz exec: ${n}\n`);
  if (!run.settingsFile) process.stderr.write(`roz exec: ${command} is not claude: started without roz's enforced settings\n`);
  let result: RunResult;
  try {
    result = await run.finish();
  } catch (err) {
    if (!(err instanceof RunError)) throw err;
    process.stderr.write(`roz exec: ${err.message}\n`);
    return err.exitCode;
  }
  return execExitCode(result, opts);
}

/**
 * The process's exit code once the agent is done: claude's own. Checks that
 * can fail a run after a clean exit (e.g. a required review) go here and
 * return their own code only when claude exited 0.
 */
export function execExitCode(result: RunResult, _opts: ExecOptions): number {
  return result.code;
}
