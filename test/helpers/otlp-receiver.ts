// A loopback OTLP/HTTP receiver for tests: takes what a collector's
// otlphttp receiver takes (POST /v1/logs and /v1/metrics, protobuf or JSON)
// and decodes it with the OTLP protobuf schema (the generated
// ExportLogsServiceRequest / ExportMetricsServiceRequest of the
// opentelemetry-proto definitions, as shipped by @opentelemetry/otlp-transformer
// 0.57, installed as `otlp-proto-schema`), or as OTLP/JSON. Not a stub of
// roz's calls: the bytes on the wire are the SDK exporters'.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

const require = createRequire(import.meta.url);
const root = require('otlp-proto-schema/build/src/generated/root') as any;
const collector = root.opentelemetry.proto.collector;

export interface LogRecordSeen {
  eventName: string;
  body: string;
  severityText: string;
  timeUnixNano: string;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

export interface MetricPointSeen {
  metric: string;
  value: number;
  count?: number;
  attributes: Record<string, string | number | boolean>;
  temporality: string | number;
}

export interface Receiver {
  url: string;
  requests: Array<{ path: string; contentType: string; headers: IncomingMessage['headers'] }>;
  logs: LogRecordSeen[];
  metrics: MetricPointSeen[];
  /** Answer every request with this status (e.g. 503), or hang (hold the request until `release`). */
  mode: 'ok' | 'hang' | number;
  /** Answer the held requests with this status. */
  release(status: number): void;
  close(): Promise<void>;
}

function anyValue(v: any): string | number | boolean {
  if (v == null) return '';
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('boolValue' in v) return Boolean(v.boolValue);
  return JSON.stringify(v);
}
const attrs = (list: any[] | undefined): Record<string, string | number | boolean> =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, anyValue(kv.value)]));

function decode(path: string, contentType: string, body: Buffer): any {
  const json = contentType.includes('json');
  const type = path === '/v1/logs' ? collector.logs.v1.ExportLogsServiceRequest : collector.metrics.v1.ExportMetricsServiceRequest;
  if (json) {
    // OTLP/JSON: checked against the same schema (unknown fields or wrong types fail here).
    const parsed = JSON.parse(body.toString('utf8'));
    const err = type.verify(type.fromObject(parsed));
    if (err) throw new Error(`OTLP/JSON does not fit the schema: ${err}`);
    return parsed;
  }
  return type.toObject(type.decode(body), { longs: String, enums: String, bytes: String, defaults: false });
}

export async function startReceiver(): Promise<Receiver> {
  const held: Array<import('node:http').ServerResponse> = [];
  const r: Omit<Receiver, 'url' | 'close'> = {
    requests: [],
    logs: [],
    metrics: [],
    mode: 'ok',
    release: (status) => {
      for (const res of held.splice(0)) res.writeHead(status).end();
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const contentType = String(req.headers['content-type'] ?? '');
      r.requests.push({ path, contentType, headers: req.headers });
      if (r.mode === 'hang') {
        held.push(res);
        return;
      }
      if (typeof r.mode === 'number') {
        res.writeHead(r.mode).end();
        return;
      }
      try {
        const doc = decode(path, contentType, Buffer.concat(chunks));
        if (path === '/v1/logs') {
          for (const rl of doc.resourceLogs ?? [])
            for (const sl of rl.scopeLogs ?? [])
              for (const lr of sl.logRecords ?? [])
                r.logs.push({
                  // eventName (field 12) is newer than this schema: the SDK also sets the event.name attribute.
                  eventName:
                    lr.eventName ||
                    String(anyValue(attrs(lr.attributes)['event.name'] === undefined ? null : { stringValue: attrs(lr.attributes)['event.name'] })),
                  body: lr.body ? String(anyValue(lr.body)) : '',
                  severityText: lr.severityText ?? '',
                  timeUnixNano: String(lr.timeUnixNano ?? ''),
                  attributes: attrs(lr.attributes),
                  resource: attrs(rl.resource?.attributes),
                });
        } else if (path === '/v1/metrics') {
          for (const rm of doc.resourceMetrics ?? [])
            for (const sm of rm.scopeMetrics ?? [])
              for (const m of sm.metrics ?? []) {
                const data = m.sum ?? m.histogram;
                for (const dp of data?.dataPoints ?? [])
                  r.metrics.push({
                    metric: m.name,
                    value: Number(dp.asInt ?? dp.asDouble ?? dp.sum ?? 0),
                    ...(dp.count !== undefined ? { count: Number(dp.count) } : {}),
                    attributes: attrs(dp.attributes),
                    temporality: data.aggregationTemporality,
                  });
              }
        } else {
          res.writeHead(404).end();
          return;
        }
        res
          .writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' })
          .end(contentType.includes('json') ? '{}' : '');
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return Object.assign(r, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  }) as Receiver;
}

/** Wait for a condition (no sleeps as synchronisation): polls until true or the deadline. */
export async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
