// Answering the running supervisor's waiting requests from another terminal:
// queue, approve, block.
import type { Command } from 'commander';
import { CONTROL_EXITS, run } from './shared.js';

export function registerQueueCommands(program: Command): void {
  program
    .command('queue')
    .description("the requests waiting for you across this project's agents (from the running supervisor), oldest first")
    .option('--json', 'print JSON: an array of {id, agent, tool, summary, since}')
    .addHelpText('after', CONTROL_EXITS)
    .action(
      run(async (opts: { json?: boolean }) => {
        const { queueCommand } = await import('../commands/queue.js');
        return queueCommand(opts);
      }),
    );
  program
    .command('approve')
    .description('approve one waiting request (roz queue lists them), as if pressed `a` in the TUI')
    .argument('<id>', 'the request id')
    .addHelpText('after', CONTROL_EXITS)
    .action(
      run(async (id: string) => {
        const { approveCommand } = await import('../commands/queue.js');
        return approveCommand(id);
      }),
    );
  program
    .command('block')
    .description('refuse one waiting request; the agent reads the reason')
    .argument('<id>', 'the request id')
    .argument('[reason...]', 'why (the agent reads it)')
    .addHelpText('after', CONTROL_EXITS)
    .action(
      run(async (id: string, reason: string[]) => {
        const { blockCommand } = await import('../commands/queue.js');
        return blockCommand(id, reason);
      }),
    );
}
