// The reviewer's side of the review gate: `roz decide`.
import type { Command } from 'commander';
import { run } from './shared.js';

export function registerReviewCommands(program: Command): void {
  program
    .command('decide')
    .description(
      "the reviewer's decision: recorded by roz's hook when the roz:roz reviewer runs this as a Bash command of its own; the command reports what was recorded",
    )
    .argument('[args...]', '[SESSION] COMPLETE|ISSUES "summary"')
    .option('-m, --message <text>', 'what the agent must fix (required for ISSUES)')
    .option('--opinions <list>', 'second opinions obtained, e.g. codex,gemini,claude')
    .option('--no-opinion <why>', 'why no second opinion could be had')
    .addHelpText(
      'after',
      '\nSESSION defaults to $CLAUDE_CODE_SESSION_ID. Running it anywhere else (a terminal, a script, chained to\nanother command) records nothing.\nExit codes: 0 recorded, 2 bad arguments, 3 unknown session, 4 nothing recorded.',
    )
    .action(
      run(async (args: string[], opts: { message?: string; opinions?: string; opinion?: string | boolean }) => {
        const { decideCommand } = await import('../commands/decide.js');
        return decideCommand(args, { ...opts, ...(typeof opts.opinion === 'string' ? { noOpinion: opts.opinion } : {}) });
      }),
    );
}
