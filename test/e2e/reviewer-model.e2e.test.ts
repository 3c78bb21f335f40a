// The reviewer is roz's (issue 24): the agent under review spawns roz:roz
// with `model: haiku` (the client honours an Agent call's model over the agent
// file's `opus`). roz refuses that call; the agent spawns it again without a
// model, and no reviewer request ever runs on haiku. Control, later in the same
// session: the same call for another subagent type does run on haiku, so the
// refusal is roz's doing.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { workspacePerTest } from './harness/per-test.js';
import { agent, on, reply, say, write, type Matcher } from './harness/fake-api.js';
import { reviewerScript, rozReviewerMarker, rozStopBlock, runRoz, spawnReviewer } from './harness/roz.js';
import { PINNED_CLIENTS } from './harness/workspace.js';

/** An agent turn (side requests such as titles carry no tools and may use a small model anyway) on haiku. */
const onHaiku: Matcher = (req) => req.tools.length > 0 && /haiku/i.test(req.model);

describe.each(PINNED_CLIENTS)('the agent cannot pick the reviewer’s model (client %s, print mode)', (client) => {
  const fresh = workspacePerTest();

  test('roz:roz with model haiku is refused; spawned without it, the reviewer never runs on haiku; control: a helper of another type asked for haiku runs on haiku', async () => {
    const ws = fresh();
    const run = await runRoz({
      client,
      prompt: '#roz write hello.txt',
      workspace: ws,
      timeoutMs: 120_000,
      scenario: {
        reviewerMarker: rozReviewerMarker(),
        main: [
          { name: 'write', when: on.start(), reply: reply('Writing hello.txt.', write(join(ws.repo, 'hello.txt'), 'hello\n')) },
          { name: 'claim-done', when: on.toolResult('Write'), reply: say('Done: hello.txt written.') },
          {
            name: 'spawn-haiku',
            when: rozStopBlock(),
            reply: (req) => {
              const honest = spawnReviewer(req, { background: false });
              const call = honest.tools![0]!;
              return reply(undefined, { ...call, input: { ...call.input, model: 'haiku' } });
            },
          },
          {
            name: 'spawn-plain',
            when: on.toolResult('Agent', { error: true, match: /REVIEWER_MODEL/ }),
            reply: (req) => spawnReviewer(req, { background: false }),
          },
          // The control: a helper of another type asked for haiku, once the review is done.
          { name: 'helper-answers', when: onHaiku, reply: say('helper done'), times: Infinity },
          {
            name: 'spawn-helper',
            when: on.toolResult('Agent', { error: false }),
            reply: () => {
              const call = agent({ subagent_type: 'general-purpose', prompt: 'say hi', description: 'helper' });
              return reply('Reviewed and approved; now a helper.', { ...call, input: { ...call.input, model: 'haiku' } });
            },
          },
          { name: 'finish', when: on.toolResult('Agent'), reply: say('Done.') },
        ],
        reviewer: reviewerScript('COMPLETE', 'hello.txt contains hello, as asked'),
      },
    });
    expect(run.api.scriptErrors, run.why()).toEqual([]);
    expect(run.exitCode, run.why()).toBe(0);
    const answered = run.requests.map((r) => r.answeredBy);
    expect(answered, run.why()).toContain('spawn-plain');
    const refused = run.api.requests.flatMap((r) => r.toolResults).find((t) => /REVIEWER_MODEL/.test(t.text));
    expect(refused?.isError, run.why()).toBe(true);
    expect(refused?.text, run.why()).toMatch(/without the model parameter/);
    const reviewer = run.api.byRole('reviewer');
    expect(reviewer.length, run.why()).toBeGreaterThan(0);
    expect(
      reviewer.map((r) => r.model),
      run.why(),
    ).not.toContainEqual(expect.stringMatching(/haiku/i));
    expect(run.state().review.decision, run.why()).toMatchObject({ kind: 'complete' });
    // The control ran on haiku: the client honours the parameter for any other subagent type.
    expect(answered, run.why()).toContain('finish');
    expect(
      run.api.requests.some((r) => onHaiku(r, undefined as never)),
      run.why(),
    ).toBe(true);
  }, 150_000);
});
