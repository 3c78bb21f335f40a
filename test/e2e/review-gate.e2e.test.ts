// The #roz review gate, end to end: the real Claude Code client, the roz plugin
// of this checkout, and a scripted model behind a fake Messages API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { workspacePerTest } from './harness/per-test.js';
import { bash, edit, on, reply, say, write, type Step } from './harness/fake-api.js';
import {
  decideCommand,
  inOrder,
  reviewerScript,
  rozReviewerMarker,
  rozStats,
  rozStopBlock,
  rozTemplateIds,
  runRoz,
  silentReviewerScript,
  spawnReviewer,
  stopFeedbacks,
} from './harness/roz.js';
import { expectCleanRun } from './harness/steps.js';
import type { Workspace } from './harness/workspace.js';

const RUN_TIMEOUT = 90_000;
const TEST_TIMEOUT = 120_000;

/** The main agent's opening: write hello.txt, then claim to be done. */
const writeThenStop = (ws: Workspace, content = 'hello\n'): Step[] => [
  { name: 'write', when: on.start(), reply: reply('Writing hello.txt.', write(join(ws.repo, 'hello.txt'), content)) },
  { name: 'claim-done', when: on.toolResult('Write'), reply: say('Done: hello.txt written.') },
];

describe.sequential('roz review gate (print mode, real client)', () => {
  const fresh = workspacePerTest();

  test(
    '(a) #roz happy path: blocked at stop, roz:roz reviews the diff, COMPLETE, session ends approved',
    async () => {
      const ws = fresh();
      const run = await runRoz({
        prompt: '#roz write hello.txt',
        workspace: ws,
        timeoutMs: RUN_TIMEOUT,
        scenario: {
          reviewerMarker: rozReviewerMarker(),
          main: [
            ...writeThenStop(ws),
            { name: 'spawn-reviewer', when: rozStopBlock(), reply: (req) => spawnReviewer(req, { background: false }) },
            { name: 'finish', when: on.toolResult('Agent'), reply: say('Reviewed and approved.') },
          ],
          reviewer: reviewerScript('COMPLETE', 'hello.txt contains hello, as asked'),
        },
      });
      expectCleanRun(run);
      const sid = run.sessionId;

      // What the model was told.
      const feedback = stopFeedbacks(run);
      expect(feedback, run.why()).toHaveLength(1);
      expect(feedback[0]).toContain(`SESSION_ID=${sid}`);
      expect(feedback[0]).toMatch(/Agent/);
      expect(feedback[0]).toContain('roz:roz');
      expect(
        run.requests.map((r) => r.answeredBy),
        run.why(),
      ).toEqual(['write', 'claim-done', 'spawn-reviewer', 'complete:diff', 'complete:decide', 'complete:done', 'finish']);
      const reviewer = run.api.byRole('reviewer');
      expect(reviewer[0]!.lastUserText).toContain(`SESSION_ID=${sid}`);
      expect(reviewer[1]!.toolResults[0]!.text).toContain('hello.txt');
      const decided = reviewer[2]!.toolResults[0]!;
      expect(decided.isError, run.why()).toBe(false);
      expect(run.result.permission_denials).toEqual([]);

      // What roz recorded.
      const { review } = run.state();
      expect(review.enabled).toBe(true);
      expect(review.status, run.why()).toBe('approved');
      expect(review.decision).toMatchObject({ kind: 'complete', summary: 'hello.txt contains hello, as asked', valid: true });
      expect(review.breaker.trips).toEqual([]);
      expect(review.attempts.map((a) => a.outcome)).toEqual(['success']);
      const stats = rozStats(ws);
      expect(stats).toMatchObject({ sessions: 1, reviewed_sessions: 1 });
      expect(
        Object.values(stats.failures).every((n) => n === 0),
        JSON.stringify(stats),
      ).toBe(true);
      const events = run.trace().map((e) => e.event);
      expect(
        inOrder(events, ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'Stop', 'SessionEnd']),
        run.why(),
      ).toBe(true);
      expect(readFileSync(join(ws.repo, 'hello.txt'), 'utf8')).toBe('hello\n');
    },
    TEST_TIMEOUT,
  );

  test.each(rozTemplateIds())(
    '(a, as told, template %s) a reviewer spawned exactly as the block reason says ends approved without tripping the breaker',
    async (template) => {
      // Client 2.1.330 runs subagents in the background unless the call says
      // `run_in_background: false`. The scripted model passes that only if roz's
      // block reason asks for it; otherwise the reviewer runs in the background,
      // the model ends its turn while it works, and roz sees another Stop.
      const ws = fresh();
      const run = await runRoz({
        prompt: '#roz write hello.txt',
        workspace: ws,
        env: { ROZ_TEMPLATE: template },
        timeoutMs: RUN_TIMEOUT,
        scenario: {
          reviewerMarker: rozReviewerMarker(),
          main: [
            ...writeThenStop(ws),
            { name: 'spawn-reviewer', when: rozStopBlock(), reply: (req) => spawnReviewer(req, { background: 'as-told' }) },
            {
              name: 'wait',
              when: on.any(on.toolResult('Agent'), rozStopBlock()),
              reply: say('The roz:roz reviewer is running; waiting for its decision.'),
              times: Infinity,
            },
            { name: 'finish', when: on.user(/<task-notification>/), reply: say('The review finished.'), times: Infinity },
          ],
          reviewer: reviewerScript('COMPLETE', 'hello.txt contains hello, as asked'),
        },
      });
      expectCleanRun(run);
      const { review } = run.state();
      expect(review.status, run.why()).toBe('approved');
      expect(review.decision, run.why()).toMatchObject({ kind: 'complete', valid: true });
      expect(review.breaker.trips, run.why()).toEqual([]);
      // The task notification the client sends is not the user's prompt and must not switch the review off.
      expect(review.enabled, run.why()).toBe(true);
    },
    TEST_TIMEOUT,
  );

  test(
    '(b) ISSUES: the next stop carries the reviewer message, the fix is re-reviewed and approved',
    async () => {
      const ws = fresh();
      const message = 'hello.txt says "helo"; it must say "hello"';
      const run = await runRoz({
        prompt: '#roz write hello.txt containing hello',
        workspace: ws,
        timeoutMs: RUN_TIMEOUT,
        scenario: {
          reviewerMarker: rozReviewerMarker(),
          main: [
            ...writeThenStop(ws, 'helo\n'),
            { name: 'spawn-1', when: rozStopBlock(), reply: (req) => spawnReviewer(req, { background: false, summary: 'Wrote hello.txt.' }) },
            { name: 'after-review-1', when: on.toolResult('Agent'), reply: say('The reviewer answered; stopping.') },
            { name: 'fix', when: on.stopFeedback(/must say "hello"/), reply: reply('Fixing the typo.', edit(join(ws.repo, 'hello.txt'), 'helo', 'hello')) },
            { name: 'claim-fixed', when: on.toolResult('Edit'), reply: say('Fixed the typo.') },
            { name: 'spawn-2', when: rozStopBlock(), reply: (req) => spawnReviewer(req, { background: false, summary: 'Fixed the typo in hello.txt.' }) },
            { name: 'finish', when: on.toolResult('Agent'), reply: say('Re-reviewed and approved.') },
          ],
          reviewer: [...reviewerScript('ISSUES', 'typo in hello.txt', message), ...reviewerScript('COMPLETE', 'typo fixed, hello.txt says hello')],
        },
      });
      expectCleanRun(run);
      expect(
        run.requests.filter((r) => r.role === 'main').map((r) => r.answeredBy),
        run.why(),
      ).toEqual(['write', 'claim-done', 'spawn-1', 'after-review-1', 'fix', 'claim-fixed', 'spawn-2', 'finish']);
      const feedback = stopFeedbacks(run);
      expect(feedback[1], run.why()).toContain(message);
      expect(feedback.at(-1), run.why()).toContain(`SESSION_ID=${run.sessionId}`);
      // The second reviewer saw the fixed file.
      const secondDiff = run.requests.find((r) => r.answeredBy === 'complete:decide');
      expect(secondDiff?.toolResults[0]?.text ?? '').toContain('hello.txt');

      const { review } = run.state();
      expect(review.status, run.why()).toBe('approved');
      expect(
        review.decision_history.map((d) => [d.kind, d.valid]),
        run.why(),
      ).toEqual([
        ['issues', true],
        ['complete', true],
      ]);
      expect(review.decision_history[0]).toMatchObject({ summary: 'typo in hello.txt', message });
      expect(review.breaker.trips).toEqual([]);
      expect(readFileSync(join(ws.repo, 'hello.txt'), 'utf8')).toBe('hello\n');
    },
    TEST_TIMEOUT,
  );

  test(
    '(c) the main agent cannot approve itself: roz decide is denied and the stop stays blocked until a real review',
    async () => {
      const ws = fresh();
      const run = await runRoz({
        prompt: '#roz write hello.txt',
        workspace: ws,
        timeoutMs: RUN_TIMEOUT,
        scenario: {
          reviewerMarker: rozReviewerMarker(),
          main: [
            ...writeThenStop(ws),
            {
              name: 'self-approve',
              when: rozStopBlock(),
              reply: (req) => reply('I will approve it myself.', bash(decideCommand(req.sessionId!, 'COMPLETE', 'I checked it myself'), 'approve')),
            },
            { name: 'claim-again', when: on.toolResult('Bash', { error: true }), reply: say('Approved; done.') },
            { name: 'spawn-reviewer', when: rozStopBlock(), reply: (req) => spawnReviewer(req, { background: false }) },
            { name: 'finish', when: on.toolResult('Agent'), reply: say('Reviewed and approved.') },
          ],
          reviewer: reviewerScript('COMPLETE', 'hello.txt contains hello, as asked'),
        },
      });
      expectCleanRun(run);
      expect(
        run.requests.filter((r) => r.role === 'main').map((r) => r.answeredBy),
        run.why(),
      ).toEqual(['write', 'claim-done', 'self-approve', 'claim-again', 'spawn-reviewer', 'finish']);
      const denied = run.requests.find((r) => r.answeredBy === 'claim-again')!.toolResults[0]!;
      expect(denied.isError).toBe(true);
      expect(denied.text, run.why()).toContain('roz:roz');
      expect(run.result.permission_denials.map((d) => [d.tool_name, String(d.tool_input.command)])).toEqual([
        ['Bash', decideCommand(run.sessionId, 'COMPLETE', 'I checked it myself')],
      ]);
      // The stop after the attempted self-approval was still blocked.
      expect(stopFeedbacks(run), run.why()).toHaveLength(2);

      const { review } = run.state();
      expect(review.status, run.why()).toBe('approved');
      expect(
        review.decision_history.map((d) => d.summary),
        run.why(),
      ).toEqual(['hello.txt contains hello, as asked']);
      expect(review.breaker.trips).toEqual([]);
      expect(rozStats(ws).failures.self_approval_denied).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    '(d) a reviewer that never decides: after ROZ_MAX_BLOCKS=2 blocks the breaker trips and the session ends',
    async () => {
      const ws = fresh();
      const run = await runRoz({
        prompt: '#roz write hello.txt',
        workspace: ws,
        env: { ROZ_MAX_BLOCKS: '2' },
        timeoutMs: RUN_TIMEOUT,
        scenario: {
          reviewerMarker: rozReviewerMarker(),
          main: [
            ...writeThenStop(ws),
            { name: 'spawn-reviewer', when: rozStopBlock(), reply: (req) => spawnReviewer(req, { background: false }) },
            { name: 'claim-again', when: on.toolResult('Agent'), reply: say('The reviewer had nothing to say; done.') },
            { name: 'insist', when: on.stopFeedback(), reply: say('I am done.'), times: Infinity },
          ],
          reviewer: silentReviewerScript(),
        },
      });
      expectCleanRun(run);
      expect(stopFeedbacks(run), run.why()).toHaveLength(2);
      expect(
        run.requests.filter((r) => r.role === 'main').map((r) => r.answeredBy),
        run.why(),
      ).toEqual(['write', 'claim-done', 'spawn-reviewer', 'claim-again', 'insist']);

      const { review } = run.state();
      expect(review.breaker.trips, run.why()).toHaveLength(1);
      expect(review.decision, run.why()).toBeNull();
      expect(review.status, run.why()).not.toBe('approved');
      expect(rozStats(ws).failures.breaker_trips).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    '(e) without #roz nothing is blocked and the model never hears from the stop hook',
    async () => {
      const ws = fresh();
      const run = await runRoz({
        prompt: 'write hello.txt',
        workspace: ws,
        timeoutMs: RUN_TIMEOUT,
        scenario: { main: writeThenStop(ws) },
      });
      expectCleanRun(run);
      expect(
        run.requests.map((r) => r.answeredBy),
        run.why(),
      ).toEqual(['write', 'claim-done']);
      // Neither Stop hook feedback nor a roz block or deny (which would name this session) reached the model.
      const told = run.requests
        .flatMap((r) => r.messages.filter((m) => m.role !== 'assistant').flatMap((m) => [m.text, ...m.toolResults.map((t) => t.text)]))
        .join('\n');
      expect(/Stop hook/.test(told), run.why()).toBe(false);
      expect(told.includes(`SESSION_ID=${run.sessionId}`), run.why()).toBe(false);
      const { review } = run.state();
      expect(review.enabled, run.why()).toBe(false);
      expect(review.block_count).toBe(0);
      expect(review.status).not.toBe('blocked');
    },
    TEST_TIMEOUT,
  );
});
