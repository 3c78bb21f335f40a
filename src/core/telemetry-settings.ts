// OpenTelemetry export settings from the [telemetry] config section and the
// standard OTEL_* variables (config wins, then the signal-specific variable,
// then the general one). Used by `roz otel flush` and the supervisor only.
import type { RozConfig } from './config.js';
import { telemetryOn } from './telemetry.js';

type Env = Record<string, string | undefined>;

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface TelemetrySettings {
  logsUrl: string;
  metricsUrl: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  resource: Record<string, string>;
}

function endpointOf(cfg: RozConfig['telemetry'], env: Env, signal: 'LOGS' | 'METRICS'): string {
  const specific = env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`];
  if (specific && !cfg.endpoint) return specific;
  const base = cfg.endpoint || env.OTEL_EXPORTER_OTLP_ENDPOINT || '';
  return base ? `${base.replace(/\/+$/, '')}/v1/${signal.toLowerCase()}` : '';
}

/** `k=v,k2=v2` with percent-encoded values (the OTEL_* list format). */
export function parseKeyValues(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    let value = pair.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      /* kept as written */
    }
    if (key) out[key] = value;
  }
  return out;
}

export function telemetrySettings(cfg: RozConfig['telemetry'], env: Env): { settings: TelemetrySettings | null; problem: string | null } {
  if (!telemetryOn(cfg, env)) return { settings: null, problem: null };
  const logsUrl = endpointOf(cfg, env, 'LOGS');
  const metricsUrl = endpointOf(cfg, env, 'METRICS');
  if (!logsUrl && !metricsUrl) {
    return { settings: null, problem: 'telemetry.export is on but no endpoint is set (telemetry.endpoint or OTEL_EXPORTER_OTLP_ENDPOINT)' };
  }
  const protocol = (cfg.protocol || env.OTEL_EXPORTER_OTLP_LOGS_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    return {
      settings: null,
      problem: `OTLP protocol ${JSON.stringify(protocol)} is not supported by roz; use http/protobuf or http/json (the collector's port 4318)`,
    };
  }
  const resource = { ...parseKeyValues(env.OTEL_RESOURCE_ATTRIBUTES), ...parseKeyValues(cfg.resource_attributes) };
  resource['service.name'] = env.OTEL_SERVICE_NAME || resource['service.name'] || 'roz';
  return {
    settings: {
      logsUrl,
      metricsUrl,
      protocol,
      headers: { ...parseKeyValues(env.OTEL_EXPORTER_OTLP_HEADERS), ...parseKeyValues(cfg.headers) },
      resource,
    },
    problem: null,
  };
}
