// An approval covers only what the reviewer could have seen (issue 22), in
// print mode: A, D and C on both pinned clients, B (roz's own path) on the newest.
//  A. A background reviewer (2.1.330's default; `run_in_background: true` on
//     2.1.197) reads the change with plain `git status`/`git diff`, never
//     `roz context`. Once it has read, the main agent writes late.txt; then
//     the reviewer records COMPLETE. The decision is bound to the tree at the
//     reviewer's start, so late.txt is not covered: the gate re-arms at the
//     decision and the next stop is blocked naming late.txt. The control is
//     the second round: a reviewer that reads with `roz context` after the
//     write covers late.txt, and the run ends approved.
//  D. On a foreground reviewer the agent makes no tool call while it runs,
//     but a process it started before (a background Bash) can write: the
//     tree at `roz decide` against the tree at the reviewer's start names it.
//  B. The `claude -p` second-opinion fallback with `second_opinion =
//     "required"`: a bare COMPLETE is refused; the reviewer runs
//     "$CLAUDE_CODE_EXECPATH" -p --model opus (claude is not on PATH), which
//     the scripted model answers; COMPLETE --opinions claude is recorded.
//  C. Compaction during a review: a run ends blocked for review (--max-turns),
//     `/compact` on the resumed session compacts it, and the next run's model
//     is told its work is under review; it spawns the reviewer, which approves.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { workspacePerTest } from './harness/per-test.js';
import { bash, on, reply, say, write, type Matcher, type Step } from './harness/fake-api.js';
import { decideCommand, reviewerScript, rozReviewerMarker, rozStopBlock, runRoz, stopFeedbacks } from './harness/roz.js';
import { expectCleanRun, spawnRound } from './harness/steps.js';
import { PINNED_CLIENTS, ROZ_PATH_CLIENTS } from './harness/workspace.js';

const RUN_TIMEOUT = 150_000;
const TEST_TIMEOUT = 180_000;

/** A reviewer request of the run spawned with `round` in its prompt (the first user message). */
const inRound =
  (round: string): Matcher =>
  (req) =>
    (req.messages.find((m) => m.role === 'user')?.text ?? '').includes(round);

/** roz's reminder after a compaction or a resume, with the session id. */
const REMINDER = /your work in this session is under independent review \(SESSION_ID=([A-Za-z0-9_-]+)\)/;

/** A Bash loop that returns once `file` exists (the client refuses a bare `sleep N`). */
const waitFor = (file: string, what: string): string =>
  `for i in $(seq 600); do [ -e ${JSON.stringify(file)} ] && break; sleep 0.1; done; [ -e ${JSON.stringify(file)} ] && echo ${what}`;

describe.each(PINNED_CLIENTS)('an approval covers what the reviewer could see (client %s, print mode)', (client) => {
  const fresh = workspacePerTest();

  test(
    'A: a background reviewer reads with git diff, the agent writes meanwhile, COMPLETE re-arms the gate naming the file',
    async () => {
      const ws = fresh();
      const signals = join(ws.root, 'signals');
      mkdirSync(signals);
      const read = join(signals, 'reviewer-read');
      const wrote = join(signals, 'agent-wrote');
      const hello = join(ws.repo, 'hello.txt');
      const late = join(ws.repo, 'late.txt');
      const main: Step[] = [
        { name: 'write', when: on.start(), reply: reply('Writing hello.txt.', write(hello, 'hello\n')) },
        { name: 'claim', when: on.toolResult('Write'), reply: say('Done.') },
        { name: 'spawn-bg', when: rozStopBlock(), reply: (req) => spawnRound(req, 'ROUND-1', true) },
        // The agent goes on working while its reviewer reads: it waits until the reviewer has read, then writes.
        { name: 'wait-read', when: on.toolResult('Agent'), reply: reply(undefined, bash(waitFor(read, 'reviewer-has-read'), 'Wait')) },
        { name: 'late-write', when: on.toolResult('Bash', { match: /reviewer-has-read/ }), reply: reply(undefined, write(late, 'late\n')) },
        {
          name: 'claim-late',
          when: on.toolResult('Write'),
          reply: () => {
            // The write has happened (its result is in this request): let the reviewer decide.
            writeFileSync(wrote, '');
            return say('Done, and late.txt too.');
          },
        },
        // The first block after the decision names late.txt: review it too (foreground: the control).
        { name: 'late-block', when: on.stopFeedback(/late\.txt/), reply: (req) => spawnRound(req, 'ROUND-2', false) },
        { name: 'notified', when: on.user(/<task-notification>/), reply: say('Noted.'), times: Infinity },
        { name: 'finish', when: on.toolResult('Agent'), reply: say('All reviewed.') },
      ];
      const reviewer: Step[] = [
        {
          name: 'r1:git-diff',
          when: on.all(on.start(), inRound('ROUND-1')),
          reply: reply(undefined, bash('git status --short && git diff HEAD && cat hello.txt', 'Read the change')),
        },
        {
          name: 'r1:wait',
          when: on.all(inRound('ROUND-1'), on.toolResult('Bash', { match: /hello\.txt/ })),
          reply: () => {
            // The reviewer's read is done (its result is in this request).
            writeFileSync(read, '');
            return reply(undefined, bash(waitFor(wrote, 'agent-has-written'), 'Think it over'));
          },
        },
        {
          name: 'r1:decide',
          when: on.all(inRound('ROUND-1'), on.toolResult('Bash', { match: /agent-has-written/ })),
          reply: (req) => reply(undefined, bash(decideCommand(req.sessionId ?? 'MISSING', 'COMPLETE', 'hello.txt says hello'), 'Record the decision')),
        },
        { name: 'r1:done', when: on.all(inRound('ROUND-1'), on.toolResult('Bash')), reply: say('COMPLETE') },
        {
          name: 'r2:context',
          when: on.all(on.start(), inRound('ROUND-2')),
          reply: (req) => reply(undefined, bash(`roz context ${req.sessionId}`, 'Read the change')),
        },
        {
          name: 'r2:decide',
          when: on.toolResult('Bash', { match: /Changed files/ }),
          reply: (req) => reply(undefined, bash(decideCommand(req.sessionId ?? 'MISSING', 'COMPLETE', 'late.txt is harmless'), 'Record the decision')),
        },
        { name: 'r2:done', when: on.toolResult('Bash'), reply: say('COMPLETE') },
      ];
      const run = await runRoz({
        prompt: '#roz write hello.txt containing hello',
        workspace: ws,
        client,
        timeoutMs: RUN_TIMEOUT,
        scenario: { reviewerMarker: rozReviewerMarker(), main, reviewer },
      });
      expectCleanRun(run);
      const answered = run.requests.map((r) => r.answeredBy);
      for (const step of ['spawn-bg', 'wait-read', 'late-write', 'r1:git-diff', 'r1:wait', 'r1:decide', 'late-block', 'r2:decide', 'finish']) {
        expect(answered, run.why()).toContain(step);
      }
      expect(existsSync(late), run.why()).toBe(true);
      // The reviewer ran in the background: the agent's write came between its read and its decision.
      const at = (name: string) => answered.indexOf(name);
      expect(at('r1:wait'), run.why()).toBeLessThan(at('late-write'));
      expect(at('claim-late'), run.why()).toBeLessThan(at('r1:decide'));
      // The reviewer was told its COMPLETE stands for what it saw, and that late.txt was not.
      const decided = run.requests.find((r) => r.answeredBy === 'r1:done');
      expect(decided?.toolResults[0]?.text ?? '', run.why()).toMatch(/decision recorded: COMPLETE[\s\S]*Since then late\.txt changed/);
      // The next stop was blocked, naming the file.
      expect(stopFeedbacks(run).join('\n---\n'), run.why()).toMatch(/late\.txt was written while the review ran, after the reviewer last read the change/);
      const { review } = run.state();
      const history = review.decision_history as Array<{ kind: string; covers?: string[]; tree?: string }>;
      expect(
        history.map((d) => [d.kind, d.covers]),
        run.why(),
      ).toEqual([
        ['complete', ['hello.txt']],
        ['complete', ['hello.txt', 'late.txt']],
      ]);
      expect(history[0]!.tree, run.why()).not.toBe(history[1]!.tree);
      // What the first approval is bound to: the tree at the reviewer's start, without late.txt, although
      // late.txt was on disk when it decided (the tree a decide-time snapshot, roz before issue 22, bound it to).
      // The trees are roz's own, in its snapshot repository in the store (never the project's .git).
      const files = (tree: string) =>
        execFileSync('git', ['--git-dir', join(ws.storage, 'snapshots.git'), 'ls-tree', '-r', '--name-only', tree], { encoding: 'utf8' }).split('\n');
      expect(files(history[0]!.tree!), run.why()).toEqual(expect.arrayContaining(['README.md', 'hello.txt']));
      expect(files(history[0]!.tree!), run.why()).not.toContain('late.txt');
      expect(files(history[1]!.tree!), run.why()).toContain('late.txt');
      const rearmed = run.trace().filter((e) => e.event === 'roz:ReviewRearmed');
      expect(
        rearmed.map((e) => e.files),
        run.why(),
      ).toEqual([['late.txt']]);
      // Control: the reviewer that read with `roz context` after the write covered it; the run ends approved.
      expect(review.status, run.why()).toBe('approved');
    },
    TEST_TIMEOUT,
  );

  test(
    'D: a foreground reviewer: a background process the agent started writes during the review; the tree at decide names it',
    async () => {
      const ws = fresh();
      const signals = join(ws.root, 'signals');
      mkdirSync(signals);
      const read = join(signals, 'reviewer-read');
      const wrote = join(signals, 'late-written');
      const hello = join(ws.repo, 'hello.txt');
      // Started before the review and left running: no tool call of the agent's happens while a foreground reviewer works.
      const later = `${waitFor(read, 'go')} >/dev/null; echo late > late.txt; touch ${JSON.stringify(wrote)}`;
      const main: Step[] = [
        { name: 'notified', when: on.all(on.user(/<task-notification>/), on.not(rozStopBlock())), reply: say('Noted.'), times: Infinity },
        { name: 'write', when: on.start(), reply: reply('Writing hello.txt.', write(hello, 'hello\n')) },
        {
          name: 'start-writer',
          when: on.toolResult('Write'),
          reply: reply(undefined, { name: 'Bash', input: { command: later, description: 'Finish late.txt later', run_in_background: true } }),
        },
        { name: 'claim', when: on.toolResult('Bash'), reply: say('Done.') },
        { name: 'late-block', when: on.stopFeedback(/late\.txt/), reply: (req) => spawnRound(req, 'ROUND-2', false) },
        { name: 'spawn-fg', when: rozStopBlock(), reply: (req) => spawnRound(req, 'ROUND-1', false) },
        { name: 'after-review', when: on.toolResult('Agent'), reply: say('Reviewed.'), times: 2 },
      ];
      const reviewer: Step[] = [
        {
          name: 'r1:git-diff',
          when: on.all(on.start(), inRound('ROUND-1')),
          reply: reply(undefined, bash('git status --short && git diff HEAD && cat hello.txt', 'Read the change')),
        },
        {
          name: 'r1:wait',
          when: on.all(inRound('ROUND-1'), on.toolResult('Bash', { match: /hello\.txt/ })),
          reply: () => {
            writeFileSync(read, '');
            return reply(undefined, bash(waitFor(wrote, 'writer-done'), 'Think it over'));
          },
        },
        {
          name: 'r1:decide',
          when: on.all(inRound('ROUND-1'), on.toolResult('Bash', { match: /writer-done/ })),
          reply: (req) => reply(undefined, bash(decideCommand(req.sessionId ?? 'MISSING', 'COMPLETE', 'hello.txt says hello'), 'Record the decision')),
        },
        { name: 'r1:done', when: on.all(inRound('ROUND-1'), on.toolResult('Bash')), reply: say('COMPLETE') },
        {
          name: 'r2:context',
          when: on.all(on.start(), inRound('ROUND-2')),
          reply: (req) => reply(undefined, bash(`roz context ${req.sessionId}`, 'Read the change')),
        },
        {
          name: 'r2:decide',
          when: on.toolResult('Bash', { match: /Changed files/ }),
          reply: (req) => reply(undefined, bash(decideCommand(req.sessionId ?? 'MISSING', 'COMPLETE', 'late.txt is harmless'), 'Record the decision')),
        },
        { name: 'r2:done', when: on.toolResult('Bash'), reply: say('COMPLETE') },
      ];
      const run = await runRoz({
        prompt: '#roz write hello.txt containing hello',
        workspace: ws,
        client,
        timeoutMs: RUN_TIMEOUT,
        scenario: { reviewerMarker: rozReviewerMarker(), main, reviewer },
      });
      expectCleanRun(run);
      const answered = run.requests.map((r) => r.answeredBy);
      for (const step of ['start-writer', 'spawn-fg', 'r1:wait', 'r1:decide', 'late-block', 'r2:decide']) expect(answered, run.why()).toContain(step);
      const decided = run.requests.find((r) => r.answeredBy === 'r1:done');
      expect(decided?.toolResults[0]?.text ?? '', run.why()).toMatch(/Since then late\.txt changed/);
      expect(stopFeedbacks(run).join('\n---\n'), run.why()).toMatch(/late\.txt was written while the review ran/);
      const { review } = run.state();
      expect(
        (review.decision_history as Array<{ covers?: string[] }>).map((d) => d.covers),
        run.why(),
      ).toEqual([['hello.txt'], ['hello.txt', 'late.txt']]);
      expect(review.status, run.why()).toBe('approved');
    },
    TEST_TIMEOUT,
  );

  test(
    'C: a compaction during a review: the agent is told again that its work is under review, and the gate still holds',
    async () => {
      const ws = fresh();
      const hello = join(ws.repo, 'hello.txt');
      // 1. The work is blocked for review, and the run ends there (--max-turns) with the review pending.
      const first = await runRoz({
        prompt: '#roz write hello.txt containing hello',
        workspace: ws,
        client,
        extraArgs: ['--max-turns', '3'],
        timeoutMs: RUN_TIMEOUT,
        scenario: {
          main: [
            { name: 'write', when: on.start(), reply: reply('Writing hello.txt.', write(hello, 'hello\n')) },
            { name: 'claim', when: on.toolResult('Write'), reply: say('Done.') },
            {
              name: 'look',
              when: on.any(rozStopBlock(), on.toolResult('Bash')),
              reply: reply(undefined, bash('git status --short', 'Look around')),
              times: Infinity,
            },
          ],
        },
      });
      const sid = first.sessionId;
      expect(first.state().review.status, first.why()).toBe('blocked');
      // 2. The conversation is compacted (`/compact` on the resumed session): the scripted model writes the summary.
      const compact = await runRoz({
        prompt: '/compact',
        workspace: ws,
        client,
        extraArgs: ['--resume', sid],
        timeoutMs: RUN_TIMEOUT,
        scenario: { main: [{ name: 'summary', reply: say('<summary>Wrote hello.txt. roz blocked the stop for a review.</summary>'), times: Infinity }] },
      });
      // 3. The agent goes on after the compaction: what it is told says its work is under review.
      const main: Step[] = [
        {
          name: 'spawn',
          // Wherever the client put it in what the model reads (2.1.197 places a resume's hook context before its last assistant turn).
          when: (req) => req.messages.some((m) => REMINDER.test(m.text)),
          reply: (req) => spawnRound({ ...req, sessionId: req.messages.map((m) => REMINDER.exec(m.text)?.[1]).find(Boolean) ?? null }, 'ROUND-1', false),
        },
        { name: 'finish', when: on.toolResult('Agent'), reply: say('Reviewed.') },
        { name: 'stop-anyway', reply: say('Stopping.'), times: Infinity },
      ];
      const run = await runRoz({
        prompt: 'Go on.',
        workspace: ws,
        client,
        extraArgs: ['--resume', sid],
        timeoutMs: RUN_TIMEOUT,
        scenario: { reviewerMarker: rozReviewerMarker(), main, reviewer: reviewerScript('COMPLETE', 'hello.txt says hello') },
      });
      const why = () => `${compact.why()}\n=== after:\n${run.why()}`;
      expectCleanRun(run);
      // The first thing the agent is told after the compaction says its work is under review.
      expect(run.requests[0]?.answeredBy, why()).toBe('spawn');
      expect(
        run.requests.map((r) => r.answeredBy),
        why(),
      ).toEqual(expect.arrayContaining(['complete:decide', 'finish']));
      // The compaction's SessionStart recalled the pending review, and so did each resume (2.1.197 drops the former on --resume).
      const recalled = run.trace().filter((e) => e.event === 'roz:ReviewRecalled');
      expect(
        recalled.map((e) => [e.source, e.status]),
        why(),
      ).toEqual([
        ['resume', 'blocked'],
        ['compact', 'blocked'],
        ['resume', 'blocked'],
      ]);
      expect(compact.requests.length, why()).toBeGreaterThan(0);
      expect(run.state().review.status, why()).toBe('approved');
    },
    TEST_TIMEOUT,
  );
});

// B is roz's own path (the refused bare COMPLETE, the recorded opinions); the nested client is
// the newest's own executable, which both pins name in $CLAUDE_CODE_EXECPATH.
describe.each(ROZ_PATH_CLIENTS)('second opinions (client %s, print mode)', (client) => {
  const fresh = workspacePerTest();
  test(
    'B: the claude -p second-opinion fallback: required opinions refuse a bare COMPLETE; the reviewer asks claude -p and records it',
    async () => {
      const ws = fresh();
      const hello = join(ws.repo, 'hello.txt');
      const ask = 'Review this change against the request: write hello.txt containing hello. The diff adds hello.txt with the line hello.';
      const main: Step[] = [
        // The nested `claude -p` the reviewer runs talks to this same API: its opening request carries the ask.
        {
          name: 'second-opinion',
          when: on.all(on.start(), on.user(/Review this change against the request/)),
          reply: say('SECOND-OPINION: the change matches the request.'),
        },
        { name: 'write', when: on.start(), reply: reply('Writing hello.txt.', write(hello, 'hello\n')) },
        { name: 'claim', when: on.toolResult('Write'), reply: say('Done.') },
        { name: 'spawn', when: rozStopBlock(), reply: (req) => spawnRound(req, 'ROUND-1', false) },
        { name: 'finish', when: on.toolResult('Agent'), reply: say('Reviewed.') },
      ];
      const reviewer: Step[] = [
        { name: 'context', when: on.start(), reply: (req) => reply(undefined, bash(`roz context ${req.sessionId}`, 'Read the change')) },
        {
          name: 'bare-complete',
          when: on.toolResult('Bash', { match: /Changed files/ }),
          reply: (req) => reply(undefined, bash(decideCommand(req.sessionId ?? 'MISSING', 'COMPLETE', 'hello.txt says hello'), 'Record the decision')),
        },
        {
          name: 'ask-claude',
          when: on.toolResult('Bash', { match: /second opinions are required/ }),
          // The fallback as `roz context` words it: claude is not on PATH here, so the client's own executable.
          reply: reply(undefined, bash(`"$CLAUDE_CODE_EXECPATH" -p --model opus ${JSON.stringify(ask)}`, 'Second opinion')),
        },
        {
          name: 'decide',
          when: on.toolResult('Bash', { match: /SECOND-OPINION/ }),
          reply: (req) =>
            reply(undefined, bash(`roz decide ${req.sessionId} COMPLETE 'hello.txt says hello; claude -p agrees' --opinions claude`, 'Record the decision')),
        },
        { name: 'done', when: on.toolResult('Bash', { match: /decision recorded/ }), reply: say('COMPLETE') },
      ];
      const run = await runRoz({
        prompt: '#roz write hello.txt containing hello',
        workspace: ws,
        client,
        env: { ROZ_SECOND_OPINION: 'required', ROZ_CODEX: 'roz-e2e-no-codex', ROZ_GEMINI: 'roz-e2e-no-gemini' },
        timeoutMs: RUN_TIMEOUT,
        scenario: { reviewerMarker: rozReviewerMarker(), main, reviewer },
      });
      expectCleanRun(run);
      const answered = run.requests.map((r) => r.answeredBy);
      for (const step of ['spawn', 'context', 'bare-complete', 'ask-claude', 'second-opinion', 'decide', 'done', 'finish']) {
        expect(answered, run.why()).toContain(step);
      }
      // roz context offered the fallback, with the client's executable for when claude is not on PATH.
      const context = run.requests.find((r) => r.answeredBy === 'bare-complete')?.toolResults[0]?.text ?? '';
      expect(context, run.why()).toMatch(/Second opinions \(\[review\] second_opinion = "required"\)/);
      expect(context, run.why()).toMatch(/a Claude model: claude -p --model opus .*CLAUDE_CODE_EXECPATH/);
      // The nested claude -p really ran against the scripted model, with the model roz named.
      const nested = run.requests.find((r) => r.answeredBy === 'second-opinion')!;
      expect(nested.model, run.why()).toMatch(/opus/);
      const { review } = run.state();
      expect(
        review.decision_history.map((d) => [d.kind, d.opinions, d.opinion_policy]),
        run.why(),
      ).toEqual([['complete', ['claude'], 'required']]);
      expect(run.trace().filter((e) => e.event === 'roz:DecisionRefused').length, run.why()).toBe(1);
      expect(review.status, run.why()).toBe('approved');
    },
    TEST_TIMEOUT,
  );
});
