// Intent governance: intent, blame.
import type { Command } from 'commander';
import type { IntentOptions } from '../commands/intent.js';
import { LAST, run } from './shared.js';

export function registerGovernanceCommands(program: Command): void {
  program
    .command('intent')
    .description('intent governance: list, show or select the intents in .orchestration/active_intents.yaml, or their status')
    .argument('<action>', 'list | show ID | select ID | status')
    .argument('[id]', 'intent id (for show and select)')
    .option('--project <dir>', 'the governed project (default: $CLAUDE_PROJECT_DIR or the current directory)')
    .option('--session <id>', 'the session to bind a selection to, or to show the status of (default: $CLAUDE_CODE_SESSION_ID)')
    .option(...LAST)
    .option('--json', 'print JSON')
    .action(
      run(async (action: string, id: string | undefined, opts: IntentOptions) => {
        const { intentCommand } = await import('../commands/intent.js');
        return intentCommand(action, id, opts);
      }),
    );

  program
    .command('blame')
    .description('which intent, session and model last wrote these lines, and whether they still match their hash')
    .argument('<target>', 'FILE or FILE:LINE')
    .option('--project <dir>', 'the governed project (default: the current directory)')
    .option('--json', 'print JSON')
    .action(
      run(async (target: string, opts: IntentOptions) => {
        const { blameCommand } = await import('../commands/blame.js');
        return blameCommand(target, opts);
      }),
    );
}
