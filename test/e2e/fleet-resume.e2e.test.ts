// Stop and resume (issue 31, part 4) with the real client, the newest pin
// (roz's own path: README.md, "Which pins"), in a real pty through the built
// CLI: agent b (made by `roz agent add b --prompt ...`) starts from the agents
// tab and its model answers the first prompt;
// `x y` stops it and it reads "stopped" (not a crash's exit code); `n b`
// starts it again into the SAME conversation (the client's `--resume`): the
// first prompt is never sent again, and the next prompt typed into b's pane
// reaches the model with the earlier exchange in the request. Stopping
// every agent ends `roz run` with 0.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { on, say, startFakeApi, summarize } from './harness/fake-api.js';
import { openAgentsTab, press, ptyWorlds } from './harness/pty-world.js';
import { ptyClientEnv } from './harness/run-print.js';
import { assertRozBuilt } from './harness/roz.js';
import { claudeBin, ROZ_PATH_CLIENTS, ROZ_BIN, ROZ_PLUGIN_DIR } from './harness/workspace.js';
import { startPtyScreen } from '../supervisor/helpers/pty-screen.js';

const B_TASK = 'B-TASK: remember the word PELICAN';
const B_FIRST = 'B-FIRST: noted PELICAN.';
const B_AGAIN = 'B-AGAIN: which word?';
const B_SECOND = 'B-SECOND: it was PELICAN.';

describe.sequential('stop and resume an agent of a roz run (real client, scripted model, pty)', () => {
  const worlds = ptyWorlds();
  afterEach(() => worlds.leave());

  test.each(ROZ_PATH_CLIENTS)(
    '%s: stop reads "stopped"; start resumes the conversation, never re-sends the first prompt; the run ends 0',
    async (client) => {
      assertRozBuilt();
      const claude = claudeBin(client);
      expect(existsSync(claude), `the pinned client is missing at ${claude}`).toBe(true);
      const { home, repo, storage } = worlds.enter('resume', { client, trust: ['b'] });

      const api = await startFakeApi(
        {
          main: [
            { name: 'b-first', when: on.user(/B-TASK/), reply: say(B_FIRST) },
            { name: 'b-second', when: on.user(/B-AGAIN/), reply: say(B_SECOND) },
          ],
        },
        { maxRequests: 60 },
      );
      worlds.closes(api);
      const env = ptyClientEnv({ home, storage, apiUrl: api.url });
      const clientArgs = ['--permission-mode', 'default'];
      const add = spawnSync(process.execPath, [ROZ_BIN, 'agent', 'add', 'b', '--prompt', B_TASK, '--', ...clientArgs], { cwd: repo, env, encoding: 'utf8' });
      expect(add.status, add.stderr).toBe(0);

      const t = startPtyScreen(
        process.execPath,
        [ROZ_BIN, 'run', '--approval-timeout', '120', '--no-stats', '--plugin-dir', ROZ_PLUGIN_DIR, '--', claude, ...clientArgs],
        { cols: 120, rows: 40, env, cwd: repo },
      );
      worlds.track(t);
      const step = (cond: RegExp | string | ((s: string) => boolean), what: string, ms: number): Promise<string> =>
        t.waitFor(cond, what, ms).catch((err: Error) => {
          throw new Error(`${err.message}\n--- fake API:\n${summarize(api.requests)}`);
        });
      const answered = (name: string) => api.requests.filter((r) => r.answeredBy === name);

      await step(/roz │/, "roz's status line", 60_000);
      await new Promise((r) => setTimeout(r, 3_000));

      // b starts as recorded and its model answers the first prompt.
      await openAgentsTab(t);
      await press(t, 'n');
      await step("new agent's name:", 'the name prompt', 10_000);
      await press(t, 'b', '\r');
      await step(/started b in .*repo\.roz\/b/, 'b started', 30_000);
      await step(() => answered('b-first').length === 1, "b's first turn", 90_000);
      // Its SessionStart reached roz's store (the session the restart resumes).
      await new Promise((r) => setTimeout(r, 2_000));

      // x y: b stops and reads "stopped".
      await step(/› b /, 'b selected', 10_000);
      await press(t, 'x', 'y');
      await step(/stopped b \(its worktree/, 'b stopped', 30_000);
      await step(/b\s+roz\/b\s+stopped/, 'b stopped in the list', 10_000);

      // n b: resumed, not started fresh.
      await press(t, 'n');
      await step("new agent's name:", 'the name prompt again', 10_000);
      await press(t, 'b', '\r');
      // The line may be cut short (a long temp path): its session id's first characters are enough.
      await step(/resumed b in .*repo\.roz\/b \(session [0-9a-f]{8}/, 'b resumed', 30_000);
      await new Promise((r) => setTimeout(r, 5_000));
      // Its pane: the human asks on, in the same conversation.
      await press(t, '\r');
      await new Promise((r) => setTimeout(r, 2_000));
      t.write(B_AGAIN);
      await new Promise((r) => setTimeout(r, 500));
      t.write('\r');
      await step(() => answered('b-second').length === 1, "b's second turn", 90_000);
      // The first prompt went to the model once (a side request, the client's title, aside); the resumed request carries the earlier exchange.
      expect(answered('b-first').length, summarize(api.requests)).toBe(1);
      const second = answered('b-second')[0]!;
      // The client continued the conversation under the same session id (a fresh start would have a new one).
      expect(second.clientSessionId, summarize(api.requests)).toBe(answered('b-first')[0]!.clientSessionId);
      expect(second.clientSessionId).toMatch(/^[0-9a-f-]{36}$/);
      const texts = second.messages.map((m) => m.text).join('\n');
      expect(texts).toContain(B_TASK);
      expect(texts).toContain(B_FIRST);
      expect(api.requests.filter((r) => r.role === 'main' && r.lastUserText.includes('B-TASK')).length, summarize(api.requests)).toBe(1);

      // Stop both: the run ends with 0 (stopped is not a crash).
      await openAgentsTab(t);
      await step(/› b /, 'b selected again', 10_000);
      await press(t, 'x', 'y');
      await step(/b\s+roz\/b\s+stopped/, 'b stopped again', 30_000);
      await press(t, 'k', 'x', 'y');
      expect(await t.exited).toBe(0);
    },
    300_000,
  );
});
