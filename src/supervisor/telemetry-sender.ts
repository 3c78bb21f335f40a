// Telemetry export under a supervisor. The client strips OTEL_* from its
// hooks' environment, so supervised hooks only spool; the supervisor sends
// the spool in batches with its own settings, off the hook path: every
// TELEMETRY_FLUSH_MS and once more at close.
import type { RozConfig } from '../core/config.js';
import { telemetryOn } from '../core/telemetry.js';
import { telemetrySettings } from '../core/telemetry-settings.js';
import type { SessionStore } from '../store/session-store.js';

/** With telemetry export on, the spool hooks write is sent this often (and once more at close). */
export const TELEMETRY_FLUSH_MS = 5_000;
/** The last send at close waits at most this long: a dead collector must not hold up the exit. */
const FINAL_FLUSH_MS = 3_000;

export class TelemetrySender {
  /** Export is on: hooks spool (ROZ_TELEMETRY=on in the child's environment) and the store keeps the spool. */
  readonly on: boolean;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly config: RozConfig['telemetry'],
    private readonly env: Record<string, string | undefined>,
    /** The store's root, where the spool is. */
    private readonly root: string,
    private readonly log: (line: string) => void,
  ) {
    this.on = telemetryOn(config, env);
  }

  /** Start sending what hooks spool into this store (nothing when export is off). */
  start(store: SessionStore): void {
    if (!this.on) return;
    const { settings, problem } = telemetrySettings(this.config, this.env);
    if (problem) this.log(`telemetry: ${problem}`);
    if (!settings) return;
    this.flush = (): Promise<void> =>
      (this.flushing ??= import('../engine/otlp-export.js')
        .then(({ flushTelemetryLocked }) => flushTelemetryLocked(this.root, settings, store))
        .then((r) => void (r?.failed && this.log(`telemetry: the collector did not take ${r.records} records: ${r.errors.join('; ')}`)))
        .catch((err: Error) => this.log(`telemetry: ${err.message}`))
        .finally(() => (this.flushing = null)));
    this.timer = setInterval(() => void this.flush(), TELEMETRY_FLUSH_MS);
    this.timer.unref();
  }

  /** Send the spool now (export on); resolves when the collector answered or gave up. */
  flush: () => Promise<void> = async () => {};

  /** No more timed sends (closing). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** A last send of what the session's end produced, bounded. */
  async finalFlush(): Promise<void> {
    await Promise.race([this.flush(), new Promise((r) => setTimeout(r, FINAL_FLUSH_MS).unref())]);
  }
}
