// Starting an agent under roz: supervised with the TUI (run, attach, and the
// background supervisor's hidden entry) or enforced without one (exec). Each
// loads its module only when run: the UI and node-pty are large.
import type { Command } from 'commander';
import { run } from './shared.js';

export function registerLaunchCommands(program: Command): void {
  program
    .command('run')
    .description('run Claude Code under the roz supervisor: live trace, status line and human approvals')
    .argument('[command...]', 'the agent command line (default: claude)')
    .option('--approval-timeout <seconds>', 'how long a human gate waits before it denies (default 120, at most 580)')
    .option('--plugin-dir <dir>', "load roz's plugin from here (default: this roz's plugin)")
    .option('--no-stats', 'do not show the stats view when the agent exits')
    .passThroughOptions()
    .allowUnknownOption()
    .addHelpText(
      'after',
      "\nExample: roz run -- claude --model opus\nIn the session, Ctrl-] switches between the agent's pane and roz's views (see docs/supervisor.md).",
    )
    .action(
      run(async (command: string[], opts: { approvalTimeout?: string; pluginDir?: string; stats?: boolean }) => {
        const { runCommand } = await import('../commands/run.js');
        return runCommand(command, opts);
      }),
    );

  program
    .command('attach')
    .description("this window becomes the screen of the supervisor running this project's agents in the background (D in roz's views detaches)")
    .option('--no-stats', 'do not show the stats view when the run ends')
    .addHelpText(
      'after',
      "\nExit codes: 0 detached (the agents keep running) or the run ended with main at 0, main's code otherwise,\n3 no roz supervisor runs for this project, 5 the supervisor refused (advisory: it is driven only from its own window), 1 the supervisor died.",
    )
    .action(
      run(async (opts: { stats?: boolean }) => {
        const { attachCommand } = await import('../commands/attach.js');
        return attachCommand(opts);
      }),
    );

  // The background supervisor of `roz run` (supervisor/host/background.ts): started by roz itself, its launch on stdin.
  program.command('__supervise', { hidden: true }).action(
    run(async () => {
      const { superviseFromStdin } = await import('../../supervisor/host/background.js');
      const code = await superviseFromStdin();
      // Nothing may keep it alive once its agents are gone (a timer, a watcher).
      process.exit(code);
    }),
  );

  program
    .command('exec')
    .description("run Claude Code with roz's enforcement (sandboxed Bash, protected files) and no TUI: for claude -p and CI")
    .argument('[command...]', 'the agent command line (default: claude)')
    .option('--plugin-dir <dir>', "load roz's plugin from here (default: this roz's plugin)")
    .option('--require-review', 'when claude exits 0, exit non-zero unless the review was approved (or none was asked for)')
    .passThroughOptions()
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nExample: roz exec --require-review -- claude -p "#roz fix the tests"\nThe exit code is claude\'s. With --require-review and claude exiting 0: 0 approved or no review asked for,\n5 the reviewer\'s ISSUES left open, 6 ended unreviewed, 7 the circuit breaker let it stop unreviewed.\nSettings: see `roz settings` and docs/security.md.',
    )
    .action(
      run(async (command: string[], opts: { pluginDir?: string; requireReview?: boolean }) => {
        const { execCommand } = await import('../commands/exec.js');
        return execCommand(command, opts);
      }),
    );
}
