// roz's tool gate, end to end: a gated command (`gh issue close`) is denied
// until a roz:roz reviewer approves, with no #roz prompt involved.
import { describe, expect, test } from 'vitest';
import { workspacePerTest } from './harness/per-test.js';
import { bash, on, reply, say } from './harness/fake-api.js';
import { reviewerScript, rozReviewerMarker, rozState, runRoz, spawnReviewer, stopFeedbacks, type RozState } from './harness/roz.js';
import { addFakeTool } from './harness/workspace.js';

describe.sequential('roz tool gate (print mode, real client)', () => {
  const fresh = workspacePerTest();

  test('(f) `gh issue close 1` is denied until a reviewer approves, then the retry runs', async () => {
    const ws = fresh();
    addFakeTool(ws, 'gh', 'fake-gh:');
    // roz's view of the session at the moment the model hears about the deny.
    let stateAtDeny: RozState | undefined;

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
            reply: (req) => {
              stateAtDeny = rozState(ws, req.sessionId ?? 'MISSING-SESSION-ID-IN-DENY');
              return spawnReviewer(req, { background: false, summary: 'Issue 1 is fixed; I want to close it.' });
            },
          },
          { name: 'retry', when: on.toolResult('Agent'), reply: reply(undefined, bash('gh issue close 1', 'Close issue 1')) },
          { name: 'finish', when: on.toolResult('Bash', { error: false, match: /fake-gh/ }), reply: say('Issue 1 closed.') },
        ],
        reviewer: reviewerScript('COMPLETE', 'issue 1 is fixed; closing it is right'),
      },
    });
    const why = run.why();
    expect(run.api.scriptErrors, why).toEqual([]);
    expect(run.exitCode, why).toBe(0);
    expect(run.result.is_error, why).toBe(false);
    expect(
      run.requests.filter((r) => r.role === 'main').map((r) => r.answeredBy),
      why,
    ).toEqual(['close', 'spawn-reviewer', 'retry', 'finish']);

    const denied = run.requests.find((r) => r.answeredBy === 'spawn-reviewer')!.toolResults[0]!;
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain('roz:roz');
    expect(denied.text, why).toContain(`SESSION_ID=${run.sessionId}`);
    expect(run.result.permission_denials.map((d) => d.tool_input.command)).toEqual(['gh issue close 1']);
    expect(stateAtDeny?.review.status, why).toBe('pending');

    const ran = run.requests.find((r) => r.answeredBy === 'finish')!.toolResults[0]!;
    expect(ran.text).toContain('fake-gh: issue close 1');
    expect(stopFeedbacks(run), why).toEqual([]);
    const { review } = run.state();
    expect(review.status, why).toBe('approved');
    expect(review.decision).toMatchObject({ kind: 'complete', valid: true });
  }, 120_000);
});
