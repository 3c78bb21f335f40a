// A review that means what it says (issue 14), on both pinned clients, print
// mode. Two scripted runs per client, each combining several attacks/checks:
//  A. `gh issue -R o/r close 1` starts a review; the main agent's hidden
//     `roz $d ...` records nothing; a background reviewer killed with TaskStop
//     does not end the gate; the reviewer's `roz decide ...; touch x` is refused
//     whole; its exact `roz decide` is recorded by the hook; the approved gate
//     then lets the command run; the last stop carries the approval.
//  B. a commit before the review still shows the reviewer the whole change;
//     two ISSUES rounds then COMPLETE with ROZ_MAX_BLOCKS=2 deliver both messages
//     and never trip the breaker; a Bash write after COMPLETE blocks the next
//     stop, naming the file, until it is reviewed too.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { workspacePerTest } from './harness/per-test.js';
import { bash, edit, on, reply, say, write, type ParsedRequest, type ScriptContext, type Step } from './harness/fake-api.js';
import { reviewerScript, rozReviewerMarker, rozStats, rozStopBlock, runRoz, stopFeedbacks } from './harness/roz.js';
import { expectCleanRun, spawnRound } from './harness/steps.js';
import { addFakeTool, PINNED_CLIENTS } from './harness/workspace.js';

const RUN_TIMEOUT = 120_000;
const TEST_TIMEOUT = 150_000;

/** The background agent's id, from the Agent tool's "launched" result. */
const launchedId = (req: ParsedRequest): string => {
  const text = req.toolResults.find((r) => r.toolName === 'Agent' || r.toolName === 'Task')?.text ?? '';
  const id = /agentId:\s*([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? /\b(a[0-9a-f]{16})\b/.exec(text)?.[1];
  if (!id) throw new Error(`no agent id in the Agent result:\n${text}`);
  return id;
};

/** The agent has launched the first (background) reviewer, or is waiting for it to start. */
const waitingOnRound1 = (req: ParsedRequest, ctx: ScriptContext): boolean =>
  on.toolResult('Agent', { match: /Async agent launched/ })(req, ctx) || on.toolResult('Bash', { match: /ROUND-1-WAIT/ })(req, ctx);

describe.each(PINNED_CLIENTS)('a review that means what it says (client %s, print mode)', (client) => {
  const fresh = workspacePerTest();

  test(
    'A: a gate with global flags starts the review; forged and chained decides record nothing; a killed reviewer does not end the gate',
    async () => {
      const ws = fresh();
      addFakeTool(ws, 'gh', 'fake-gh:');
      const close = 'gh issue -R o/r close 1';
      const marker = join(ws.repo, 'chained-ran');
      const main: Step[] = [
        { name: 'notified', when: on.user(/<task-notification>/), reply: say('Noted.'), times: Infinity },
        { name: 'write', when: on.start(), reply: reply('Writing hello.txt.', write(join(ws.repo, 'hello.txt'), 'hello\n')) },
        { name: 'gate', when: on.toolResult('Write'), reply: reply(undefined, bash(close, 'Close issue 1')) },
        {
          name: 'forge',
          when: on.toolResult('Bash', { error: true, match: /REVIEW_REQUIRED/ }),
          // Hidden from the parser: the CLI runs, and records nothing.
          reply: (req) => reply('I will approve it myself.', bash(`d=decide; roz $d ${req.sessionId} COMPLETE 'I checked it myself'`, 'approve')),
        },
        { name: 'claim-1', when: on.toolResult('Bash', { error: true, match: /NOTHING was recorded/ }), reply: say('Done.') },
        { name: 'spawn-bg', when: rozStopBlock(), reply: (req) => spawnRound(req, 'ROUND-1', true) },
        // The kill waits until the background reviewer has started (its first request answered): a
        // reviewer stopped before the client starts it never reaches roz's hooks, and there is no
        // running reviewer to kill (seen once on 2.1.197 on a loaded machine). Until then the agent waits.
        {
          name: 'kill',
          when: (req, ctx) => !ctx.state.killed && waitingOnRound1(req, ctx) && ctx.log.some((r) => r.answeredBy === 'r1:slow'),
          reply: (req, ctx) => {
            ctx.state.killed = true;
            return reply(undefined, { name: 'TaskStop', input: { task_id: (ctx.state.round1 as string | undefined) ?? launchedId(req) } });
          },
        },
        {
          name: 'wait-r1',
          when: (req, ctx) => !ctx.state.killed && waitingOnRound1(req, ctx),
          reply: (req, ctx) => {
            ctx.state.round1 ??= launchedId(req);
            return reply(undefined, bash('sleep 0.2; echo ROUND-1-WAIT', 'Wait for the reviewer'));
          },
          times: Infinity,
        },
        { name: 'claim-2', when: on.toolResult('TaskStop'), reply: say('Done; no review needed.') },
        { name: 'spawn-fg', when: rozStopBlock(), reply: (req) => spawnRound(req, 'ROUND-2', false) },
        { name: 'close-again', when: on.toolResult('Agent'), reply: reply(undefined, bash(close, 'Close issue 1')) },
        { name: 'closed', when: on.toolResult('Bash', { error: false, match: /fake-gh/ }), reply: say('Issue 1 closed.') },
      ];
      const reviewer: Step[] = [
        // The first reviewer works slowly and is killed before it decides.
        {
          name: 'r1:slow',
          when: on.all(on.start(), on.user(/ROUND-1/)),
          reply: reply(undefined, bash('for i in $(seq 40); do sleep 0.25; done', 'Read slowly')),
        },
        { name: 'r1:after', when: on.all(on.user(/ROUND-1/), on.toolResult('Bash')), reply: say('Still reading.'), times: Infinity },
        { name: 'r2:context', when: on.all(on.start(), on.user(/ROUND-2/)), reply: (req) => reply(undefined, bash(`roz context ${req.sessionId}`, 'Read')) },
        {
          name: 'r2:chained',
          when: on.toolResult('Bash', { match: /Changed files/ }),
          reply: (req) => reply(undefined, bash(`roz decide ${req.sessionId} COMPLETE 'looks fine'; touch ${marker}`, 'Decide')),
        },
        {
          name: 'r2:decide',
          when: on.toolResult('Bash', { match: /DECISION_REFUSED/ }),
          reply: (req) => reply(undefined, bash(`roz decide ${req.sessionId} COMPLETE 'hello.txt is right; closing issue 1 is right'`, 'Decide')),
        },
        { name: 'r2:done', when: on.toolResult('Bash', { match: /decision recorded/ }), reply: say('COMPLETE') },
      ];
      const run = await runRoz({
        prompt: 'write hello.txt, then close issue 1',
        workspace: ws,
        client,
        timeoutMs: RUN_TIMEOUT,
        scenario: { reviewerMarker: rozReviewerMarker(), main, reviewer },
      });
      expectCleanRun(run);
      const answered = run.requests.map((r) => r.answeredBy);
      for (const step of ['gate', 'forge', 'claim-1', 'spawn-bg', 'kill', 'spawn-fg', 'r2:chained', 'r2:decide', 'close-again', 'closed']) {
        expect(answered, run.why()).toContain(step);
      }
      // The first stop after the kill (the agent's claim, or its answer to the
      // client's task notification) was blocked, not let through as "still reviewing".
      const trace = run.trace();
      const ended = trace.findIndex((e) => e.event === 'roz:ReviewerEnded');
      expect(ended, run.why()).toBeGreaterThan(0);
      const nextStop = trace.slice(ended).find((e) => e.event === 'Stop');
      expect((nextStop?.verdict as { kind?: string } | undefined)?.kind, run.why()).toBe('block');
      expect(
        trace.some((e) => e.event === 'roz:StopWhileReviewing'),
        run.why(),
      ).toBe(false);
      const { review } = run.state();
      expect(review.trigger, run.why()).toMatchObject({ kind: 'gate', command: close });
      // The killed reviewer ended by the client's word, without a decision, and the stop after it was blocked.
      const reviewers = review.reviewers as Record<string, { end_reason?: string; decided: boolean }>;
      const killed = Object.values(reviewers).filter((r) => !r.decided);
      expect(
        killed.map((r) => r.end_reason),
        run.why(),
      ).toEqual([expect.stringMatching(/task_stop|killed|not_running/)]);
      expect(stopFeedbacks(run).length, run.why()).toBeGreaterThanOrEqual(2);
      // Only the exact decide of the running reviewer counted; the chained one did not run.
      expect(
        review.decision_history.map((d) => [d.kind, d.summary]),
        run.why(),
      ).toEqual([['complete', 'hello.txt is right; closing issue 1 is right']]);
      expect(existsSync(marker), run.why()).toBe(false);
      expect(review.status, run.why()).toBe('approved');
      expect(review.breaker.trips).toEqual([]);
      expect(run.trace().some((e) => e.event === 'roz:BreakerTripped')).toBe(false);
      expect(rozStats(ws).failures.breaker_trips ?? 0).toBe(0);
      // The approval's systemMessage does not reach the JSON result on either
      // pinned client (test/e2e/README.md): the result carries no field for it.
      expect(JSON.stringify(run.result), run.why()).not.toContain('review APPROVED');
      expect(
        run.trace().some((e) => e.event === 'roz:ReviewOutcomeShown'),
        run.why(),
      ).toBe(true);
    },
    TEST_TIMEOUT,
  );

  test(
    'B: a commit before the review is still reviewed; two ISSUES rounds then COMPLETE never trip the breaker; a write after COMPLETE blocks the next stop',
    async () => {
      const ws = fresh();
      const file = join(ws.repo, 'hello.txt');
      const fix = (n: number) => `hello.txt must say hello (round ${n})`;
      const main: Step[] = [
        { name: 'notified', when: on.user(/<task-notification>/), reply: say('Noted.'), times: Infinity },
        { name: 'write', when: on.start(), reply: reply('Writing hello.txt.', write(file, 'helo\n')) },
        // Committing first: a reviewer reading `git diff HEAD` would see nothing.
        {
          name: 'commit',
          when: on.toolResult('Write'),
          reply: reply(undefined, bash('git add -A && git commit -qm "add hello.txt" && echo committed', 'Commit')),
        },
        { name: 'claim-1', when: on.toolResult('Bash', { match: /committed/ }), reply: say('Done.') },
        { name: 'fix-1', when: on.stopFeedback(/round 1/), reply: reply(undefined, edit(file, 'helo', 'hallo')) },
        { name: 'fix-2', when: on.stopFeedback(/round 2/), reply: reply(undefined, edit(file, 'hallo', 'hello')) },
        { name: 'late-1', when: on.stopFeedback(/late\.txt/), reply: (req) => spawnRound(req, 'ROUND-4', false) },
        { name: 'spawn', when: rozStopBlock(), reply: (req) => spawnRound(req, 'ROUND', false), times: 3 },
        { name: 'claim-fixed', when: on.toolResult('Edit'), reply: say('Fixed.'), times: 2 },
        // The first two reviews end ISSUES; the third COMPLETE, the fourth reviews the late file.
        { name: 'after-review', when: on.toolResult('Agent'), reply: say('The reviewer answered.'), times: 2 },
        // After COMPLETE, one more change, by a Bash write the parser cannot name: only the tree re-hash at the stop sees it.
        { name: 'late-write', when: on.toolResult('Agent'), reply: reply(undefined, bash('f=late; echo late > "$f.txt" && echo wrote-late', 'One more file')) },
        { name: 'claim-late', when: on.toolResult('Bash', { match: /wrote-late/ }), reply: say('Done, with one more file.') },
        { name: 'finish', when: on.toolResult('Agent'), reply: say('All reviewed.') },
      ];
      const reviewer: Step[] = [
        ...reviewerScript('ISSUES', 'typo in hello.txt', fix(1), 'r1'),
        ...reviewerScript('ISSUES', 'still a typo', fix(2), 'r2'),
        ...reviewerScript('COMPLETE', 'hello.txt says hello', undefined, 'r3'),
        ...reviewerScript('COMPLETE', 'late.txt is harmless', undefined, 'r4'),
      ];
      const run = await runRoz({
        prompt: '#roz write hello.txt containing hello',
        workspace: ws,
        client,
        env: { ROZ_MAX_BLOCKS: '2' },
        timeoutMs: RUN_TIMEOUT,
        scenario: { reviewerMarker: rozReviewerMarker(), main, reviewer },
      });
      expectCleanRun(run);
      // The first reviewer saw the committed file: roz context diffs from the review's base.
      const r1 = run.requests.find((r) => r.answeredBy === 'r1:decide');
      expect(r1?.toolResults[0]?.text ?? '', run.why()).toMatch(
        /Commits made since then \(1\)[\s\S]*add hello\.txt[\s\S]*Changed files \(1\):\s+hello\.txt[\s\S]*\+helo/,
      );
      // Both ISSUES messages reached the agent, and the late file was named.
      const feedback = stopFeedbacks(run).join('\n---\n');
      expect(feedback, run.why()).toContain(fix(1));
      expect(feedback, run.why()).toContain(fix(2));
      expect(feedback, run.why()).toMatch(/late\.txt was changed after the review approved the work/);
      const { review } = run.state();
      expect(
        review.decision_history.map((d) => [d.kind, d.valid]),
        run.why(),
      ).toEqual([
        ['issues', true],
        ['issues', true],
        ['complete', true],
        ['complete', true],
      ]);
      expect(review.breaker.trips, run.why()).toEqual([]);
      expect(review.status, run.why()).toBe('approved');
      expect((review.decision as { covers?: string[] }).covers, run.why()).toEqual(['hello.txt', 'late.txt']);
      expect(
        run.trace().some((e) => e.event === 'roz:ReviewRearmed'),
        run.why(),
      ).toBe(true);
    },
    TEST_TIMEOUT,
  );

  test(
    'C: roz exec --require-review fails a run that claude ended cleanly but roz did not see reviewed',
    async () => {
      const ws = fresh();
      const run = await runRoz({
        prompt: '#roz write hello.txt',
        workspace: ws,
        client,
        env: { ROZ_MAX_BLOCKS: '1' },
        execArgs: ['--require-review'],
        timeoutMs: RUN_TIMEOUT,
        scenario: {
          main: [
            { name: 'write', when: on.start(), reply: reply('Writing hello.txt.', write(join(ws.repo, 'hello.txt'), 'hello\n')) },
            { name: 'claim', when: on.any(on.toolResult('Write'), on.stopFeedback()), reply: say('Done; I will not spawn a reviewer.'), times: Infinity },
          ],
        },
      });
      expect(run.api.scriptErrors, run.why()).toEqual([]);
      // claude itself succeeded; the breaker let it stop unreviewed, and roz exec says so in its exit code.
      expect(run.result.is_error, run.why()).toBe(false);
      expect(run.exitCode, run.why()).toBe(7);
      expect(run.stderr, run.why()).toMatch(/roz exec: .*UNREVIEWED/);
      expect(run.state().review.breaker.trips, run.why()).toHaveLength(1);
    },
    TEST_TIMEOUT,
  );
});
