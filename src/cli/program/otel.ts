// OpenTelemetry export: otel flush.
import type { Command } from 'commander';
import { run } from './shared.js';

export function registerOtelCommands(program: Command): void {
  program
    .command('otel')
    .description('OpenTelemetry export (docs/telemetry.md)')
    .command('flush')
    .description('send the telemetry spool to the OTLP collector now')
    .option('--quiet', 'print nothing on success')
    .option('--json', 'print what was sent as JSON')
    .option('--timeout <seconds>', 'give up on the collector after this long (default: OTEL_EXPORTER_OTLP_TIMEOUT, else 10 s)')
    .action(
      run(async (opts: { quiet?: boolean; json?: boolean; timeout?: string }) => {
        const { otelFlushCommand } = await import('../commands/otel.js');
        return otelFlushCommand(opts);
      }),
    );
}
