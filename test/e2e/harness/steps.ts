// Scenario pieces that several e2e files repeat word for word: the checks that
// a print run ended cleanly, the reviewer spawned for a named round, and the
// matcher for "the agent's Bash ran a command like this". Each stays one line
// at its use, so a test still reads as what it does. (Imports vitest: for test
// files only, unlike workspace.ts, which the demo bundles.)
import { expect } from 'vitest';
import { agent, bash, on, reply, type Matcher, type ParsedRequest, type Reply, type Step } from './fake-api.js';
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

/**
 * Both clients deny the shared `.git/config.lock` to their Bash sandbox; when
 * it is missing, bwrap mounts a placeholder there on the host for as long as
 * the command runs (observed: the file exists exactly while an agent's bwrap
 * runs, no git process about). Another agent's client that starts a command
 * then sees it, binds it as an existing file, and fails when it vanished
 * before bwrap mounted it: "bwrap: Can't find source path .../config.lock"
 * (seen on both clients with three agents at once). Likewise each agent's
 * sandbox binds every other agent's branch ref read-only (roz's per-worktree
 * denies), and one whose commit replaces that file (git renames `roz/b.lock`
 * onto `roz/b`) as another agent's command starts fails that command with
 * "bwrap: Can't bind mount .../refs/heads/roz/b on ...: Unable to find ..."
 * (seen on 2.1.330: a's project script, as b committed). Since issue 29 the
 * agents' sandboxes also mount placeholders for every missing name the
 * human's git reads in the shared dir (MERGE_HEAD, BISECT_*, …), so the race
 * is more frequent: CI once saw three failed starts in a row for one agent.
 * The command never ran, so a model runs it again: so do these scripts, up
 * to five times. (In fleet-worktrees a retried push is asked again: the test
 * approves it with `roz approve`.) Put it first in a script: its match beats a
 * step that takes any Bash result.
 */
export const RETRY_BWRAP: Step = {
  name: 'retry-bwrap',
  when: on.toolResult('Bash', { error: true, match: /bwrap: Can't (?:find source|get type of source|bind mount)/ }),
  reply: (req) => {
    const failed = req.toolResults.find((r) => r.toolName === 'Bash' && r.isError);
    return reply(undefined, bash(String(failed?.toolInput?.command ?? 'true'), 'Run it again'));
  },
  times: 5,
};
