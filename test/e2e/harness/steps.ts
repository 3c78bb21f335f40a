// Scenario pieces that several e2e files repeat word for word: the checks that
// a print run ended cleanly, the reviewer spawned for a named round, and the
// matcher for "the agent's Bash ran a command like this". Each stays one line
// at its use, so a test still reads as what it does. (Imports vitest: for test
// files only, unlike workspace.ts, which the demo bundles.)
import { expect } from 'vitest';
import { agent, reply, type Matcher, type ParsedRequest, type Reply } from './fake-api.js';
import type { RozRun } from './roz.js';

/** The run ended by itself: every request answered by the script, under the cap, exit 0, no error result. */
export function expectCleanRun(run: RozRun): void {
  expect(run.api.scriptErrors, run.why()).toEqual([]);
  expect(run.api.limitReached, run.why()).toBe(false);
  expect(run.exitCode, run.why()).toBe(0);
  expect(run.result.is_error, run.why()).toBe(false);
}

/**
 * The main agent spawns roz:roz with the session id and `round` in its prompt (a reviewer script
 * can then tell the rounds apart), in the background or not as the test says.
 */
export function spawnRound(req: ParsedRequest, round: string, background: boolean): Reply {
  if (!req.sessionId) throw new Error(`no SESSION_ID in what the model was told:\n${req.lastUserText}`);
  const prompt = `SESSION_ID=${req.sessionId}\n\n${round}: please review hello.txt.`;
  return reply(undefined, agent({ subagent_type: 'roz:roz', description: `Independent review ${round}`, prompt, run_in_background: background }));
}

/** A request that carries the result of a Bash call whose command matches `re`. */
export const bashRan =
  (re: RegExp): Matcher =>
  (req) =>
    req.toolResults.some((r) => r.toolName === 'Bash' && re.test(String(r.toolInput?.command ?? '')));
