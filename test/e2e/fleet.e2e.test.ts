// Two real clients under one `roz run` (issue 25), on the scripted model, in
// a real pty through the built CLI: main in the checkout, idle; agent b made
// by `roz agent add b --prompt ...` and started from the agents tab (`n b`),
// in its own worktree with its own settings and token. b's `git push --force`
// is asked while the human looks at main: the status line says so, main's
// pane stays; `w` brings b's request up, `a` lets it run, and the model hears
// the result in b's session only. The newest pinned client: roz's own path
// (README.md, "Which pins"); both hook transports under roz run are attacked
// on both pins in control-socket, worktree-sandbox and git-trust-plants.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { bash, on, say, startFakeApi, summarize } from './harness/fake-api.js';
import { HOTKEY, openAgentsTab, press, ptyWorlds } from './harness/pty-world.js';
import { ptyClientEnv } from './harness/run-print.js';
import { assertRozBuilt, type RozState, type TraceEvent } from './harness/roz.js';
import { claudeBin, ROZ_PATH_CLIENTS, ROZ_BIN, ROZ_PLUGIN_DIR } from './harness/workspace.js';
import { startPtyScreen } from '../supervisor/helpers/pty-screen.js';

const B_TASK = 'B-TASK: force-push the branch';
const PUSH = 'git push --force origin roz/b';
const B_DONE = 'B-DONE: pushed, as you allowed.';

describe.sequential('a fleet of two real clients in one roz run (scripted model, pty)', () => {
  const worlds = ptyWorlds();
  afterEach(() => worlds.leave());

  test.each(ROZ_PATH_CLIENTS)(
    '%s: b asks while main is in view; the jump key brings it up; the answer reaches b only',
    async (client) => {
      assertRozBuilt();
      const claude = claudeBin(client);
      expect(existsSync(claude), `the pinned client is missing at ${claude}`).toBe(true);
      const { home, repo, storage, worktree } = worlds.enter('fleet', { client, trust: ['b'] });
      const wt = worktree('b');

      const api = await startFakeApi(
        {
          main: [
            { name: 'b-push', when: on.all(on.start(), on.user(/B-TASK/)), reply: { text: 'Force-pushing.', tools: [bash(PUSH, 'push')] } },
            { name: 'b-done', when: on.toolResult('Bash'), reply: say(B_DONE) },
          ],
        },
        { maxRequests: 60 },
      );
      worlds.closes(api);
      const env = ptyClientEnv({ home, storage, apiUrl: api.url });
      const clientArgs = ['--permission-mode', 'default', '--allowedTools', 'Bash'];
      const add = spawnSync(process.execPath, [ROZ_BIN, 'agent', 'add', 'b', '--prompt', B_TASK, '--', ...clientArgs], { cwd: repo, env, encoding: 'utf8' });
      expect(add.status, add.stderr).toBe(0);

      const t = startPtyScreen(
        process.execPath,
        [ROZ_BIN, 'run', '--approval-timeout', '120', '--no-stats', '--plugin-dir', ROZ_PLUGIN_DIR, '--', claude, ...clientArgs],
        {
          cols: 120,
          rows: 40,
          env,
          cwd: repo,
        },
      );
      worlds.track(t);
      const step = (cond: RegExp | string | ((s: string) => boolean), what: string, ms: number): Promise<string> =>
        t.waitFor(cond, what, ms).catch((err: Error) => {
          throw new Error(`${err.message}\n--- fake API:\n${summarize(api.requests)}`);
        });
      const status = (): string => t.row(39);

      // main: the client's input box in the checkout.
      await step(/roz │/, "roz's status line", 60_000);
      await new Promise((r) => setTimeout(r, 3_000));

      // The agents tab, n b: b is in the registry, so it starts as recorded (its prompt, its args), in its worktree.
      await openAgentsTab(t);
      await press(t, 'n');
      await step("new agent's name:", 'the name prompt', 10_000);
      await press(t, 'b', '\r');
      await step(/started b in .*repo\.roz\/b/, 'b started', 30_000);
      // Straight back to main before b's model asks.
      await press(t, 'k');
      await step(/› main/, 'main selected', 10_000);
      await press(t, '\r');
      await step(() => /agent main/.test(status()) && !/started b/.test(t.screen()), "main's pane", 10_000);

      // b's force push is asked while the human looks at main.
      await step(() => /!! 1 waiting in b · Ctrl-\] w to jump/.test(status()), 'the status line names b', 90_000);
      expect(t.screen()).not.toContain('APPROVAL NEEDED');
      expect(t.raw()).toContain('\x1b]9;roz: b waits for you');

      await press(t, HOTKEY, 'w');
      const ask = await step(/APPROVAL NEEDED · Bash · \w+ · agent b ·[\s\S]*\[a\] approve once/, "b's request, its keys armed", 20_000);
      expect(ask).toContain(PUSH);
      await new Promise((r) => setTimeout(r, 1_000));
      t.write('a');
      await step((s) => !s.includes('APPROVAL NEEDED'), 'answered', 20_000);
      // b's model heard the push's result and ended its turn.
      await step(() => api.requests.some((r) => r.answeredBy === 'b-done'), "b's turn to end", 60_000);
      await press(t, HOTKEY);
      await step(B_DONE.slice(0, 20), "b's pane shows its end", 20_000);

      // Stop both: x y on b, then on main; the run ends.
      await openAgentsTab(t);
      await step(/› b /, 'b selected', 10_000);
      await press(t, 'x', 'y');
      await step(/stopped b/, 'b stopped', 20_000);
      await press(t, 'k', 'x', 'y');
      // Both stopped by the human: a clean end (0), not a crash (issue 31, part 4).
      expect(await t.exited).toBe(0);

      // roz's records: the human's decision in b's session, whose project is b's worktree; b enforced.
      const rozEnv = { ...env };
      const sessions = spawnSync('ls', [join(storage, 'sessions')], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .filter(Boolean);
      const states = sessions.map((sid) => {
        const r = spawnSync(process.execPath, [ROZ_BIN, 'debug', sid, '--json'], { cwd: repo, env: rozEnv, encoding: 'utf8' });
        return { sid, state: JSON.parse(r.stdout) as RozState & { enforcement?: string; git?: { project_dir?: string } } };
      });
      const bSession = states.find((s) => s.state.git?.project_dir === wt);
      expect(bSession, JSON.stringify(states.map((s) => [s.sid, s.state.git]))).toBeTruthy();
      // roz debug says the mode: b's client ran with the settings roz wrote for it.
      expect(bSession!.state.enforcement).toBe('enforced');
      const trace = JSON.parse(
        spawnSync(process.execPath, [ROZ_BIN, 'trace', bSession!.sid, '--json'], { cwd: repo, env: rozEnv, encoding: 'utf8' }).stdout,
      ) as TraceEvent[];
      expect(trace.filter((e) => e.event === 'roz:HumanDecision').map((e) => [e.decided_by, e.decision, e.tool_name])).toEqual([['human', 'allow', 'Bash']]);
      for (const s of states.filter((x) => x !== bSession)) {
        const other = JSON.parse(
          spawnSync(process.execPath, [ROZ_BIN, 'trace', s.sid, '--json'], { cwd: repo, env: rozEnv, encoding: 'utf8' }).stdout,
        ) as TraceEvent[];
        expect(other.some((e) => e.event === 'roz:HumanDecision')).toBe(false);
      }
    },
    300_000,
  );
});
