// What every command group's registration shares: the wrapper that turns a
// command's returned number into the exit code, and the options and help
// text several groups repeat (so they read the same everywhere).

type Action = (...args: never[]) => number | Promise<number>;
/** Every command that takes a session also takes --last. */
export const LAST = ['--last', 'the most recently active session (see roz sessions)'] as const;
export type SessionOpts = { last?: boolean };
/** A command returns its exit code; errors are main.ts's to turn into one. */
export const run =
  (fn: Action) =>
  async (...args: unknown[]) => {
    process.exitCode = await (fn as (...a: unknown[]) => number | Promise<number>)(...args);
  };

/** The exit codes of every command that asks the running supervisor (queue, approve, block, agent start/stop). */
export const CONTROL_EXITS =
  '\nExit codes: 0 done, 3 no roz supervisor runs for this project, 4 no such request waiting (or already answered),\n5 refused by the supervisor (its agents are not OS-confined: answer in its TUI), 1 other errors.';
