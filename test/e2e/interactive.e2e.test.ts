// The #roz happy path typed into the real Claude Code TUI (pseudo-terminal,
// default permission mode, the client's own dialogs answered "yes").
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { on, reply, say, write } from './harness/fake-api.js';
import { startPty, type PtySession } from './harness/run-pty.js';
import {
  assertRozBuilt,
  reviewerScript,
  rozReviewerMarker,
  rozState,
  rozStopBlock,
  spawnReviewer,
  traceDigest,
  rozTrace,
  type RozState,
} from './harness/roz.js';
import { createWorkspace, type Workspace } from './harness/workspace.js';

/** Poll roz's state until `pred` holds (hooks finish after the screen updates). */
async function waitForState(ws: Workspace, sid: string, pred: (s: RozState) => boolean, timeoutMs: number): Promise<RozState> {
  const deadline = Date.now() + timeoutMs;
  let last: RozState | undefined;
  let lastError = '';
  while (Date.now() < deadline) {
    try {
      last = rozState(ws, sid);
      if (pred(last)) return last;
    } catch (err) {
      lastError = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`roz state for ${sid} never matched within ${timeoutMs} ms; last: ${JSON.stringify(last?.review ?? lastError, null, 1)}`);
}

describe.sequential('roz in the interactive TUI (pty, real client)', () => {
  let session: PtySession | undefined;
  let ws: Workspace | undefined;
  afterEach(async () => {
    await session?.dispose();
    ws?.cleanup();
  });

  test('(g) #roz typed into the TUI: the stop hook message is shown, the reviewer approves, /exit', async () => {
    assertRozBuilt();
    ws = createWorkspace();
    const repo = ws.repo;
    session = await startPty({
      workspace: ws,
      args: ['--permission-mode', 'default'],
      scenario: {
        reviewerMarker: rozReviewerMarker(),
        main: [
          { name: 'write', when: on.start(), reply: reply('Writing hello.txt.', write(join(repo, 'hello.txt'), 'hello\n')) },
          { name: 'claim-done', when: on.toolResult('Write'), reply: say('Done: hello.txt written.') },
          { name: 'spawn-reviewer', when: rozStopBlock(), reply: (req) => spawnReviewer(req, { background: false }) },
          // The TUI runs subagents in the background whatever the call says; until its
          // result arrives (as a task notification), the model can only wait.
          { name: 'wait', when: on.any(on.toolResult('Agent'), rozStopBlock()), reply: say('Waiting for the roz:roz reviewer.'), times: Infinity },
          { name: 'finish', when: on.user(/<task-notification>/), reply: say('The review is finished.'), times: Infinity },
        ],
        reviewer: reviewerScript('COMPLETE', 'hello.txt contains hello, as asked'),
      },
    });
    const s = session;
    const fail = (what: string) => (err: Error) => {
      throw new Error(`${what}: ${err.message}`);
    };

    await s.waitForScreen(/manual mode on/, 30_000, 'the input prompt').catch(fail('client did not start'));
    s.type('#roz write hello.txt');
    await s.waitForScreen(/❯\s*#roz write hello\.txt/, 10_000, 'the typed prompt');
    s.press('enter');

    await s.waitForScreen(/Stop hook[\s\S]*SESSION_ID=[0-9a-f-]{36}/, 60_000, 'the stop hook block message');
    await s.waitForScreen(/roz:roz\(Independent review\)/, 30_000, 'the reviewer subagent shown on screen');
    const sid = s.api.requests.find((r) => r.sessionId)?.sessionId;
    expect(sid).toBeTruthy();
    await s.waitForScreen(/The review is finished\./, 60_000, 'the end of the turn after the review');
    const state = await waitForState(ws, sid!, (st) => st.review.status === 'approved', 15_000).catch((err: Error) => {
      throw new Error(`${err.message}\n--- trace:\n${traceDigest(rozTrace(ws!, sid!))}\n--- screen:\n${s.screenText()}`);
    });
    expect(state.review.decision).toMatchObject({ kind: 'complete', valid: true });
    // The verdict is on screen: the stop the approval lets through carries it as a systemMessage.
    await s.waitForScreen(/review APPROVED/, 15_000, 'the verdict on screen').catch((err: Error) => {
      throw new Error(`${err.message}\n--- trace:\n${traceDigest(rozTrace(ws!, sid!))}`);
    });
    // The backgrounded reviewer did not make roz block again while it ran.
    expect(state.review.breaker.trips).toEqual([]);
    expect(s.api.requests.filter((r) => r.role === 'main' && r.stopFeedback !== null)).toHaveLength(1);
    expect(s.answeredDialogs).toContain('permission');
    expect(await s.exit()).toBe(0);
  }, 180_000);
});
