// What roz enforces and how it is configured: settings, config.
import type { Command } from 'commander';
import { run } from './shared.js';

export function registerSettingsCommands(program: Command): void {
  program
    .command('settings')
    .description('print the Claude Code settings roz enforces (sandbox, deny rules), for claude --settings or managed settings')
    .option('--managed', "for an organisation's managed-settings.json (every project)")
    .option('--json', 'print compact JSON only')
    .action(
      run(async (opts: { managed?: boolean; json?: boolean }) => {
        const { settingsCommand } = await import('../commands/settings.js');
        return settingsCommand(opts);
      }),
    );

  program
    .command('config')
    .description('show the effective configuration and where each value came from')
    .option('--json', 'print JSON')
    .action(
      run(async (opts: { json?: boolean }) => {
        const { configCommand } = await import('../commands/manage.js');
        return configCommand(opts);
      }),
    );
}
