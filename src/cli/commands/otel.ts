// `roz otel flush`: send the telemetry spool to the OTLP collector. Started
// in the background by a Stop/SessionEnd hook when no supervisor batches it,
// or run by hand. One flush at a time (a lock in the store); a collector that
// does not take a batch leaves it for the next flush.
import { telemetrySettings } from '../../core/telemetry-settings.js';
import { cliContext, printJson } from '../context.js';

export async function otelFlushCommand(opts: { quiet?: boolean; json?: boolean; timeout?: string }): Promise<number> {
  const ctx = cliContext();
  const say = (m: string): void => void (opts.quiet ? undefined : process.stdout.write(`${m}\n`));
  const { settings, problem } = telemetrySettings(ctx.config.telemetry, ctx.env);
  if (!settings) {
    if (problem) process.stderr.write(`roz: ${problem}\n`);
    else say('roz: telemetry export is off (set OTEL_EXPORTER_OTLP_ENDPOINT or [telemetry] export = "on")');
    return problem ? 1 : 0;
  }
  // --timeout, else the standard OTEL_EXPORTER_OTLP_TIMEOUT (milliseconds), else 10 s.
  const envTimeout = Number(ctx.env.OTEL_EXPORTER_OTLP_TIMEOUT);
  const timeoutMs = opts.timeout ? Number(opts.timeout) * 1000 : envTimeout > 0 ? envTimeout : 10_000;
  const { flushTelemetryLocked } = await import('../../engine/otlp-export.js');
  // The background flush a hook starts (--quiet) leaves to one already running; a person waits for it.
  const r = await flushTelemetryLocked(ctx.config.storage.path, settings, ctx.store, { timeoutMs, waitMs: opts.quiet ? 0 : 60_000 });
  if (!r) {
    say('roz: another flush is running');
    return 0;
  }
  if (opts.json) printJson(r);
  if (r.failed) process.stderr.write(`roz: the collector did not take ${r.records} records (${r.errors.join('; ')}); kept for the next flush\n`);
  else if (!opts.json) say(`roz: sent ${r.logRecords} log records and ${r.metricPoints} metric points to ${settings.logsUrl.replace(/\/v1\/logs$/, '')}`);
  return r.failed ? 1 : 0;
}
