// Agents outlive the window (issue 25 part 5), on the newest pinned client
// (roz's own path: README.md, "Which pins") and the scripted model, in real
// ptys through the built CLI: `roz run claude`
// (enforced: the supervisor goes to the background) with a task whose
// `rm -rf build` roz's guard asks the human about. The TUI is killed
// (SIGKILL) while the request waits: the client and its request live on
// (`roz queue` lists it). `roz attach` in a new terminal shows the request,
// the human presses `a`, the command runs (build/ is gone), the model hears
// the result, and the session records the human's decision, from the keys.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { controlKey, findControlRecords } from '../../src/store/control-record.js';
import { bash, on, say, startFakeApi, summarize } from './harness/fake-api.js';
import { ptyWorlds } from './harness/pty-world.js';
import { ptyClientEnv } from './harness/run-print.js';
import { assertRozBuilt, type TraceEvent } from './harness/roz.js';
import { claudeBin, ROZ_PATH_CLIENTS, ROZ_BIN, ROZ_PLUGIN_DIR } from './harness/workspace.js';
import { startPtyScreen, type PtyScreen } from '../supervisor/helpers/pty-screen.js';

const TASK = 'ATTACH-TASK: clean the build folder';
const DONE = 'ATTACH-DONE: build removed, as you allowed.';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.sequential('the TUI closed with a request pending; roz attach answers it (real clients, scripted model, pty)', () => {
  // The background supervisor is nobody's child once its TUI died: it and its client are working in the world, and leave with it.
  const worlds = ptyWorlds();
  afterEach(() => worlds.leave());

  test.each(ROZ_PATH_CLIENTS)(
    '%s: kill the TUI while roz asks about rm -rf build; roz attach shows it, a runs it, the session records the human',
    async (client) => {
      assertRozBuilt();
      const claude = claudeBin(client);
      expect(existsSync(claude), `the pinned client is missing at ${claude}`).toBe(true);
      const { home, repo, storage } = worlds.enter('attach', { client });
      mkdirSync(join(repo, 'build'));
      writeFileSync(join(repo, 'build', 'out.o'), 'object\n');

      const api = await startFakeApi(
        {
          main: [
            { name: 'delete', when: on.all(on.start(), on.user(/ATTACH-TASK/)), reply: { text: 'Cleaning.', tools: [bash('rm -rf build', 'delete build')] } },
            { name: 'done', when: on.toolResult('Bash'), reply: say(DONE) },
          ],
        },
        { maxRequests: 40 },
      );
      worlds.closes(api);
      const env = ptyClientEnv({ home, storage, apiUrl: api.url });
      const screen = (args: string[]): PtyScreen => {
        return worlds.track(startPtyScreen(process.execPath, [ROZ_BIN, ...args], { cols: 120, rows: 40, env, cwd: repo }));
      };
      const waitOn = (t: PtyScreen) => (cond: RegExp | string | ((s: string) => boolean), what: string, ms: number) =>
        t.waitFor(cond, what, ms).catch((err: Error) => {
          throw new Error(`${err.message}\n--- fake API:\n${summarize(api.requests)}`);
        });
      const roz = (...args: string[]) => spawnSync(process.execPath, [ROZ_BIN, ...args], { cwd: repo, env, encoding: 'utf8', timeout: 20_000 });

      const tui = screen([
        'run',
        '--approval-timeout',
        '120',
        '--no-stats',
        '--plugin-dir',
        ROZ_PLUGIN_DIR,
        '--',
        claude,
        '--permission-mode',
        'default',
        '--allowedTools',
        'Bash',
        // After `--`: --allowedTools takes several values and would swallow the prompt.
        '--',
        TASK,
      ]);
      await waitOn(tui)(/APPROVAL NEEDED · Bash[\s\S]*rm -rf build/, "roz's question about rm -rf build", 60_000);
      const [rec] = findControlRecords(storage, controlKey(repo)).found;
      expect(rec, 'the background supervisor filed its control record').toBeDefined();
      const supervisor = rec!.record.pid;
      expect(rec!.record.enforcement.mode).toBe('enforced');
      expect(supervisor).not.toBe(tui.pid);

      // The window dies (SIGKILL: no chance to say anything). The request, the client and the supervisor live on.
      process.kill(tui.pid, 'SIGKILL');
      await tui.exited;
      expect(alive(supervisor)).toBe(true);
      const q = roz('queue', '--json');
      expect(q.status, q.stderr).toBe(0);
      expect(JSON.parse(q.stdout)).toEqual([expect.objectContaining({ agent: 'main', tool: 'Bash' })]);
      expect(existsSync(join(repo, 'build', 'out.o')), 'nothing ran yet').toBe(true);

      // A new terminal: roz attach brings the request up; the human answers it with a.
      const att = screen(['attach', '--no-stats']);
      await waitOn(att)(/APPROVAL NEEDED · Bash[\s\S]*rm -rf build[\s\S]*\[a\] approve once/, 'the request in the attached TUI, its keys armed', 20_000);
      await new Promise((r) => setTimeout(r, 1_000));
      att.write('a');
      await waitOn(att)((s) => !s.includes('APPROVAL NEEDED'), 'answered', 20_000);
      await waitOn(att)(() => api.requests.some((r) => r.answeredBy === 'done'), 'the model to hear the result', 60_000);
      expect(existsSync(join(repo, 'build')), 'rm -rf build ran').toBe(false);

      // The human ends the run from another terminal: the attached TUI ends with it, the supervisor too.
      const stop = roz('agent', 'stop', '--all');
      expect(stop.status, stop.stderr).toBe(0);
      await att.exited;
      const sup = supervisor;
      await waitOn(att)(() => !alive(sup), 'the supervisor to exit with its agent', 15_000).catch(() => {
        throw new Error(`supervisor ${sup} still alive after its run ended`);
      });
      expect(findControlRecords(storage, controlKey(repo)).found).toEqual([]);

      // The session records the human's decision, made with the attached TUI's keys.
      const sessions = spawnSync('ls', [join(storage, 'sessions')], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .filter(Boolean);
      const decisions = sessions.flatMap((sid) =>
        (JSON.parse(roz('trace', sid, '--json').stdout) as TraceEvent[]).filter((e) => e.event === 'roz:HumanDecision'),
      );
      expect(decisions.map((e) => [e.decided_by, e.decision, e.tool_name, (e as { via?: string }).via])).toEqual([['human', 'allow', 'Bash', 'keyboard']]);
    },
    120_000,
  );
});
