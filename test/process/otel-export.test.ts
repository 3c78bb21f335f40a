// OpenTelemetry export through the real hook processes and `roz otel flush`,
// received by a loopback OTLP/HTTP server that decodes the wire bytes with the
// OTLP schema (test/helpers/otlp-receiver.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { payloads, roz, runHook, sandbox } from '../helpers/hooks.js';
import { startReceiver, until, type Receiver } from '../helpers/otlp-receiver.js';

const SID = 'otel-0000-1111';
let receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});
async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

const spoolFiles = (store: string): string[] =>
  existsSync(join(store, 'otel')) ? readdirSync(join(store, 'otel')).filter((f) => f.endsWith('.jsonl') || f.endsWith('.sending')) : [];

/** A short session: a gated call asked about, a decide refused, a reviewer's ISSUES decision, the end. */
async function session(env: NodeJS.ProcessEnv, sid = SID): Promise<void> {
  const p = payloads(sid);
  await runHook('SessionStart', p.sessionStart(), env);
  await runHook('UserPromptSubmit', p.prompt('#roz close the issue'), env);
  const gated = await runHook('PreToolUse', p.pre('Bash', { command: 'gh issue close 1' }), env);
  expect(gated.json?.hookSpecificOutput?.permissionDecision).toBe('ask');
  await runHook('SubagentStart', p.subagentStart('rev-1'), env);
  const as = { agent_id: 'rev-1', agent_type: 'roz:roz' };
  const chained = await runHook('PreToolUse', p.pre('Bash', { command: `git diff; roz decide ${sid} ISSUES "x" -m "y"` }, as), env);
  expect(chained.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
  const decide = await runHook('PreToolUse', p.pre('Bash', { command: `roz decide ${sid} ISSUES "tests fail" -m "fix the test"` }, as), env);
  expect(decide.json?.hookSpecificOutput?.permissionDecision).toBe('allow');
  await runHook('SubagentStop', p.subagentStop('rev-1'), env);
  await runHook('SessionEnd', p.sessionEnd(), env);
}

describe('OpenTelemetry export', () => {
  it('off by default: hooks write no spool', async () => {
    const { env, store } = sandbox();
    await session(env);
    expect(spoolFiles(store)).toEqual([]);
    expect((await roz(['otel', 'flush'], env)).stdout).toMatch(/export is off/);
  });

  it('protobuf: log records and metrics carry session.id, codes and decisions; resource from OTEL_RESOURCE_ATTRIBUTES', async () => {
    const rx = await receiver();
    // A dead collector first: the flush fails fast, keeps the spool, and a later flush sends it.
    const { env, store } = sandbox({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_RESOURCE_ATTRIBUTES: 'team=platform,deployment.environment=ci',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-team-token=s3cr%20t',
      OTEL_EXPORTER_OTLP_TIMEOUT: '1500',
    });
    await session(env);
    expect(spoolFiles(store).length).toBeGreaterThan(0);
    const spooled = readFileSync(join(store, 'otel', 'spool.jsonl'), 'utf8');
    expect(spooled).not.toMatch(/tool_input/); // payloads stay in the session trace
    const dead = await roz(['otel', 'flush'], env);
    expect(dead.code).toBe(1);
    expect(dead.stderr).toMatch(/kept for the next flush/);
    const r = await roz(['otel', 'flush', '--json'], { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: rx.url });
    expect(r.code, r.stderr).toBe(0);
    expect(spoolFiles(store)).toEqual([]);

    expect(rx.requests.map((q) => q.path).sort()).toEqual(['/v1/logs', '/v1/metrics']);
    expect(rx.requests.every((q) => q.contentType === 'application/x-protobuf')).toBe(true);
    expect(rx.requests[0]!.headers['x-team-token']).toBe('s3cr t');
    const names = rx.logs.map((l) => l.eventName);
    expect(names).toEqual([
      'roz.session.start',
      'roz.hook.verdict',
      'roz.hook.verdict',
      'roz.review.decision_refused',
      'roz.review.decision',
      'roz.session.end',
    ]);
    for (const l of rx.logs) {
      expect(l.attributes['session.id']).toBe(SID);
      expect(l.attributes['event.name']).toBe(l.eventName);
      expect(l.resource).toMatchObject({ 'service.name': 'roz', team: 'platform', 'deployment.environment': 'ci' });
    }
    const [asked, refused] = rx.logs.filter((l) => l.eventName === 'roz.hook.verdict');
    expect(asked!.attributes).toMatchObject({
      'roz.code': 'REVIEW_REQUIRED',
      'roz.verdict': 'ask',
      'gen_ai.tool.name': 'Bash',
      'roz.hook.event': 'PreToolUse',
    });
    expect(refused!.attributes).toMatchObject({ 'roz.code': 'DECISION_REFUSED', 'roz.verdict': 'deny' });
    expect(rx.logs.find((l) => l.eventName === 'roz.session.start')!.attributes).toMatchObject({
      'roz.enforcement.mode': 'advisory',
      'roz.hooks.transport': 'process',
    });
    expect(rx.logs.find((l) => l.eventName === 'roz.review.decision')!.attributes).toMatchObject({
      'roz.review.decision': 'issues',
      'roz.review.outcome': 'issues',
      'roz.review.decision.valid': true,
    });
    expect(rx.logs.find((l) => l.eventName === 'roz.session.end')!.attributes).toMatchObject({ 'roz.review.at_end': 'unreviewed' });
    const denials = rx.metrics.filter((m) => m.metric === 'roz.denials');
    expect(denials).toContainEqual(
      expect.objectContaining({ value: 1, attributes: expect.objectContaining({ 'roz.code': 'REVIEW_REQUIRED', 'roz.verdict': 'ask' }) }),
    );
    expect(denials[0]!.temporality).toBe('AGGREGATION_TEMPORALITY_DELTA');
    expect(rx.metrics.filter((m) => m.metric === 'roz.reviews').map((m) => m.attributes['roz.review.outcome'])).toEqual(['issues']);
    expect(denials.reduce((n, m) => n + m.value, 0)).toBe(2);
  });

  it('http/json, and a Stop hook that starts the flush in the background without waiting for a hanging collector', async () => {
    const rx = await receiver();
    const { env } = sandbox({ OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const p = payloads(SID);
    await runHook('UserPromptSubmit', p.prompt('#roz go'), env);
    await runHook('PreToolUse', p.pre('Bash', { command: 'gh pr merge 3' }), env);
    rx.mode = 'hang';
    const stop = await runHook('Stop', p.stop(), env);
    expect(stop.json?.decision).toBe('block');
    // The hook has exited; the flush it started is now stuck on the collector.
    await until(() => rx.requests.length > 0, 'the background flush to reach the collector');
    expect(rx.logs).toEqual([]);
    // The collector recovers with a retryable answer: the same flush retries and delivers.
    rx.mode = 'ok';
    rx.release(503);
    await until(() => rx.logs.some((l) => l.eventName === 'roz.review.attempt'), 'the JSON export of the review attempt');
    expect(rx.requests.filter((q) => q.path === '/v1/logs').every((q) => q.contentType === 'application/json')).toBe(true);
    expect(rx.logs.find((l) => l.eventName === 'roz.hook.verdict')?.attributes['roz.code']).toBe('REVIEW_REQUIRED');
  });
});
