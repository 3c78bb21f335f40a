// OpenTelemetry export with the real client: a gated `gh issue close` is
// denied, a roz:roz reviewer records COMPLETE, the retry runs. With
// ROZ_OTLP_ENDPOINT pointing at a loopback OTLP/HTTP receiver, the
// Stop/SessionEnd hooks start `roz otel flush` in the background and the
// receiver decodes (OTLP protobuf schema) records carrying the client's
// session id, the denial code and the decision. Newest pinned client only:
// the export path does not depend on the client version.
import { afterEach, describe, expect, test } from 'vitest';
import { workspacePerTest } from './harness/per-test.js';
import { bash, on, reply, say } from './harness/fake-api.js';
import { reviewerScript, rozReviewerMarker, runRoz, spawnReviewer } from './harness/roz.js';
import { addFakeTool } from './harness/workspace.js';
import { startReceiver, until, type Receiver } from '../helpers/otlp-receiver.js';

describe.sequential('OpenTelemetry export (print mode, real client)', () => {
  const fresh = workspacePerTest();
  let rx: Receiver | null = null;
  afterEach(async () => {
    await rx?.close();
    rx = null;
  });

  test('a denial, a review decision and the session end reach an OTLP receiver with the session id', async () => {
    rx = await startReceiver();
    // The client removes OTEL_* from its hooks' environment (2.1.330 does): the
    // standard variable alone never reaches roz here, its ROZ_ mirror does.
    const ws = fresh({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', ROZ_OTLP_ENDPOINT: rx.url, ROZ_OTLP_RESOURCE_ATTRIBUTES: 'team=e2e' });
    addFakeTool(ws, 'gh', 'fake-gh:');
    const run = await runRoz({
      prompt: 'close issue 1, it is fixed',
      workspace: ws,
      timeoutMs: 90_000,
      scenario: {
        reviewerMarker: rozReviewerMarker(),
        main: [
          { name: 'close', when: on.start(), reply: reply('Closing the issue.', bash('gh issue close 1', 'Close issue 1')) },
          {
            name: 'spawn-reviewer',
            when: on.toolResult('Bash', { error: true, match: /roz:roz/ }),
            reply: (req) => spawnReviewer(req, { background: false, summary: 'Issue 1 is fixed.' }),
          },
          { name: 'retry', when: on.toolResult('Agent'), reply: reply(undefined, bash('gh issue close 1', 'Close issue 1')) },
          { name: 'finish', when: on.toolResult('Bash', { error: false, match: /fake-gh/ }), reply: say('Issue 1 closed.') },
        ],
        reviewer: reviewerScript('COMPLETE', 'issue 1 is fixed; closing it is right'),
      },
    });
    const why = run.why();
    expect(run.exitCode, why).toBe(0);
    const sid = run.sessionId;
    // Nobody calls `roz otel flush` here: the hooks' background flushes deliver.
    const r = rx;
    const has = (name: string) => r.logs.some((l) => l.eventName === name);
    const counted = (metric: string) => r.metrics.some((m) => m.metric === metric);
    await until(
      () => has('roz.session.end') && has('roz.review.decision') && counted('roz.denials') && counted('roz.reviews'),
      `OTLP records (got ${JSON.stringify(r.logs.map((l) => l.eventName))})`,
      30_000,
    );
    for (const l of r.logs) {
      expect(l.attributes['session.id']).toBe(sid);
      expect(l.resource).toMatchObject({ 'service.name': 'roz', team: 'e2e' });
    }
    expect(r.logs.find((l) => l.eventName === 'roz.hook.verdict')?.attributes).toMatchObject({
      'roz.code': 'REVIEW_REQUIRED',
      'roz.verdict': 'ask',
      'gen_ai.tool.name': 'Bash',
    });
    expect(r.logs.find((l) => l.eventName === 'roz.review.decision')?.attributes).toMatchObject({
      'roz.review.decision': 'complete',
      'roz.review.decision.valid': true,
    });
    expect(r.logs.find((l) => l.eventName === 'roz.session.start')?.attributes).toMatchObject({
      'roz.enforcement.mode': 'advisory',
      'roz.hooks.transport': 'process',
    });
    expect(r.logs.find((l) => l.eventName === 'roz.session.end')?.attributes).toMatchObject({ 'roz.review.at_end': 'reviewed' });
    expect(r.metrics).toContainEqual(
      expect.objectContaining({ metric: 'roz.denials', attributes: expect.objectContaining({ 'roz.code': 'REVIEW_REQUIRED', 'vcs.repository.name': 'repo' }) }),
    );
    expect(r.metrics).toContainEqual(
      expect.objectContaining({ metric: 'roz.reviews', attributes: expect.objectContaining({ 'roz.review.outcome': 'complete' }) }),
    );
  }, 120_000);
});
