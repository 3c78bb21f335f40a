import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/core/config.js';
import { spoolable, spoolLine, telemetryOn } from '../../src/core/telemetry.js';
import { toTelemetryEvent } from '../../src/core/telemetry-events.js';
import { telemetrySettings } from '../../src/core/telemetry-settings.js';

const cfg = defaultConfig('/h').telemetry;
const rec = (event: string, extra: Record<string, unknown> = {}) => ({ ts: '2026-11-24T01:00:00.000Z', event, session_id: 's1', ...extra });

describe('telemetry settings', () => {
  it('off by default, on with the standard variables or [telemetry]', () => {
    expect(telemetryOn(cfg, {})).toBe(false);
    expect(telemetryOn(cfg, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(true);
    expect(telemetryOn(cfg, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(telemetryOn({ ...cfg, export: 'off' }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(false);
    expect(telemetrySettings({ ...cfg, export: 'on' }, {}).problem).toMatch(/no endpoint/);
    expect(telemetrySettings(cfg, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).problem).toMatch(/not supported/);
  });
  it('URLs per signal, headers and resource attributes; config wins over the environment', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://m:9/custom',
      OTEL_EXPORTER_OTLP_HEADERS: 'a=1,b=x%3Dy',
      OTEL_RESOURCE_ATTRIBUTES: 'team=core,service.name=agents',
    };
    expect(telemetrySettings(cfg, env).settings).toEqual({
      logsUrl: 'http://c:4318/v1/logs',
      metricsUrl: 'http://m:9/custom',
      protocol: 'http/protobuf',
      headers: { a: '1', b: 'x=y' },
      resource: { team: 'core', 'service.name': 'agents' },
    });
    const s = telemetrySettings({ ...cfg, endpoint: 'http://cfg:4318', protocol: 'http/json', headers: 'a=2', resource_attributes: 'team=cfg' }, env).settings!;
    expect(s).toMatchObject({
      logsUrl: 'http://cfg:4318/v1/logs',
      metricsUrl: 'http://cfg:4318/v1/metrics',
      protocol: 'http/json',
      headers: { a: '2', b: 'x=y' },
    });
    expect(s.resource).toEqual({ team: 'cfg', 'service.name': 'agents' });
  });
});

describe('telemetry events', () => {
  it('spools verdicts and roz notes, without payloads', () => {
    expect(spoolable(rec('PreToolUse', { verdict: { kind: 'allow' } }))).toBe(false);
    expect(spoolable(rec('PreToolUse'))).toBe(false);
    expect(spoolable(rec('roz:IntentSelected'))).toBe(false);
    const line = JSON.parse(
      spoolLine(rec('PreToolUse', { tool_input: { command: 'x' }, verdict: { kind: 'deny', code: 'SCOPE_VIOLATION', reason: 'r'.repeat(900) } })),
    );
    expect(line.tool_input).toBeUndefined();
    expect(line.verdict.reason.length).toBeLessThan(510);
  });
  it('human decisions carry the wait; breaker trips count as a review outcome', () => {
    const human = toTelemetryEvent(
      rec('roz:HumanDecision', { decision: 'allow', decided_by: 'human', scope: 'once', wait_ms: 4200, tool_name: 'Bash', code: 'DESTRUCTIVE_BLOCKED' }),
      { project: '/w/acme' },
    )!;
    expect(human.name).toBe('roz.human.decision');
    expect(human.attributes).toMatchObject({
      'session.id': 's1',
      'roz.approval.wait_ms': 4200,
      'roz.code': 'DESTRUCTIVE_BLOCKED',
      'vcs.repository.name': 'acme',
      'gen_ai.tool.name': 'Bash',
    });
    expect(human.metrics).toEqual([
      { name: 'roz.approval.wait', value: 4.2, attributes: { 'roz.human.decision': 'allow', 'roz.human.decided_by': 'human', 'vcs.repository.name': 'acme' } },
    ]);
    expect(human.time).toBe(Date.parse('2026-11-24T01:00:00.000Z'));
    const trip = toTelemetryEvent(rec('roz:BreakerTripped', { max_blocks: 3 }), {})!;
    expect(trip.metrics.map((m) => m.name)).toEqual(['roz.breaker.trips', 'roz.reviews']);
    expect(toTelemetryEvent(rec('roz:ReviewerStopped', { decided: true }), {})).toBeNull();
  });
});
