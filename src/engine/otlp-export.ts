// Sends the telemetry spool to an OTLP/HTTP collector with the official
// OpenTelemetry SDK: each spooled record becomes a log record (with its own
// timestamp) and adds to the metrics (delta temporality: each flush reports
// what happened since the last). Loaded only by `roz otel flush` and by a
// supervisor with export on; the hook bundle never contains it (the build
// checks: scripts/build.mjs).
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { AggregationTemporalityPreference, OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider, type LogRecordExporter } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { governanceOf } from '../core/governance/state.js';
import { METRICS, toTelemetryEvent, type SessionContext, type TelemetryMetric } from '../core/telemetry-events.js';
import type { TelemetrySettings } from '../core/telemetry-settings.js';
import type { SessionStore, TraceRecord } from '../store/session-store.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock } from '../store/lock.js';
import { doneWith, lateLines, takeSpool, telemetryDir, type SpoolBatch } from '../store/telemetry-spool.js';

declare const ROZ_VERSION: string;
const version = typeof ROZ_VERSION === 'string' ? ROZ_VERSION : '0.0.0';

export interface FlushResult {
  records: number;
  logRecords: number;
  metricPoints: number;
  /** Spool files left for the next flush because the collector did not take them. */
  failed: number;
  errors: string[];
}

type ExportResult = { code: number; error?: Error };

/** Wraps an exporter to learn whether the collector took the batch (the SDK only logs failures). */
function watched<E extends { export: (items: any, cb: (r: ExportResult) => void) => void }>(inner: E, errors: string[]): E {
  const export_ = inner.export.bind(inner);
  inner.export = (items, cb) =>
    export_(items, (r: ExportResult) => {
      if (r.code !== 0) errors.push(r.error?.message ?? 'export failed');
      cb(r);
    });
  return inner;
}

/**
 * One flush at a time per store (a lock beside the spool): two flushers must
 * not send the same file. Returns null when another flush holds the lock
 * past `waitMs`.
 */
export async function flushTelemetryLocked(
  root: string,
  settings: TelemetrySettings,
  store: Pick<SessionStore, 'read'>,
  opts: { timeoutMs?: number; waitMs?: number } = {},
): Promise<FlushResult | null> {
  mkdirSync(telemetryDir(root), { recursive: true, mode: 0o700 });
  let release: () => void;
  try {
    release = await acquireLock(join(telemetryDir(root), 'flush'), { staleMs: 60_000, refreshMs: 5_000, waitMs: opts.waitMs ?? 0 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') return null;
    throw err;
  }
  try {
    return await flushTelemetry(root, settings, store, opts);
  } finally {
    release();
  }
}

export async function flushTelemetry(
  root: string,
  settings: TelemetrySettings,
  store: Pick<SessionStore, 'read'>,
  opts: { timeoutMs?: number } = {},
): Promise<FlushResult> {
  const timeoutMillis = opts.timeoutMs ?? 10_000;
  const batches = takeSpool(root);
  const out: FlushResult = { records: 0, logRecords: 0, metricPoints: 0, failed: 0, errors: [] };
  if (batches.length === 0) return out;

  const errors: string[] = [];
  const headers = settings.headers;
  const resource = resourceFromAttributes({ 'service.version': version, ...settings.resource });
  const json = settings.protocol === 'http/json';
  const logExporter = watched<LogRecordExporter>(
    json ? new JsonLogExporter({ url: settings.logsUrl, headers, timeoutMillis }) : new ProtoLogExporter({ url: settings.logsUrl, headers, timeoutMillis }),
    errors,
  );
  const metricOpts = { url: settings.metricsUrl, headers, timeoutMillis, temporalityPreference: AggregationTemporalityPreference.DELTA };
  const metricExporter = watched<PushMetricExporter>(json ? new JsonMetricExporter(metricOpts) : new ProtoMetricExporter(metricOpts), errors);
  const loggers = new LoggerProvider({
    resource,
    processors: [
      new BatchLogRecordProcessor({
        exporter: logExporter,
        maxExportBatchSize: 512,
        maxQueueSize: 1_000_000,
        scheduledDelayMillis: 3_600_000,
        exportTimeoutMillis: timeoutMillis,
      }),
    ],
  });
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000, exportTimeoutMillis: timeoutMillis });
  const meters = new MeterProvider({ resource, readers: [reader] });
  const logger = loggers.getLogger('roz', version);
  const meter = meters.getMeter('roz', version);
  const instruments = new Map<
    TelemetryMetric,
    { add?: (v: number, a: Record<string, string>) => void; record?: (v: number, a: Record<string, string>) => void }
  >();
  for (const [name, m] of Object.entries(METRICS) as Array<[TelemetryMetric, (typeof METRICS)[TelemetryMetric]]>) {
    instruments.set(
      name,
      m.kind === 'counter'
        ? meter.createCounter(name, { unit: m.unit, description: m.description })
        : meter.createHistogram(name, { unit: m.unit, description: m.description }),
    );
  }

  const sessions = new Map<string, SessionContext>();
  const contextOf = (sid: string): SessionContext => {
    let c = sessions.get(sid);
    if (!c) {
      try {
        const state = store.read(sid);
        c = { project: state ? (governanceOf(state).project_root ?? state.cwd ?? undefined) : undefined };
      } catch {
        c = {};
      }
      sessions.set(sid, c);
    }
    return c;
  };
  const emit = (records: TraceRecord[]): void => {
    for (const rec of records) {
      out.records += 1;
      const ev = toTelemetryEvent(rec, contextOf(rec.session_id));
      if (!ev) continue;
      logger.emit({
        timestamp: ev.time,
        observedTimestamp: Date.now(),
        severityNumber: ev.severity === 'WARN' ? SeverityNumber.WARN : SeverityNumber.INFO,
        severityText: ev.severity,
        body: ev.body,
        eventName: ev.name,
        attributes: ev.attributes,
      });
      out.logRecords += 1;
      for (const p of ev.metrics) {
        const inst = instruments.get(p.name)!;
        (inst.add ?? inst.record)!.call(inst, p.value, p.attributes);
        out.metricPoints += 1;
      }
    }
  };

  for (const b of batches) emit(b.records);
  const late: SpoolBatch[] = [];
  for (const b of batches) {
    const more = lateLines(b);
    if (more) late.push(more), emit(more.records);
  }
  await loggers.forceFlush();
  await meters.forceFlush();
  await Promise.allSettled([loggers.shutdown(), meters.shutdown()]);
  if (errors.length === 0) for (const b of batches) doneWith(b);
  else {
    out.failed = batches.length;
    out.errors = [...new Set(errors)];
  }
  return out;
}
