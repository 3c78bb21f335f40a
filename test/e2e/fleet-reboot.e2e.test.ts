// After a killed supervisor or a reboot (issue 31, part 4) with the real
// client, both pins, in a real pty through the built CLI: agents a and b
// (made by `roz agent add NAME --prompt ...`) run under `roz run` and their
// models answer their first prompts; then the supervisor, every client and
// the screen are SIGKILLed (a reboot, as far as roz can tell). `roz run`
// again lists a and b as running when their supervisor stopped and offers to
// resume them; accepted, each continues its conversation (the client's
// `--resume` with the session the registry recorded): the next prompt typed
// in its pane reaches the model with its earlier exchange in the request, and
// no first prompt is ever sent twice.
import { spawnSync } from 'node:child_process';
import { type Dirent, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { on, say, startFakeApi, summarize } from './harness/fake-api.js';
import { descendantsOf } from './harness/kill-tree.js';
import { openAgentsTab, press, ptyWorlds, sleep } from './harness/pty-world.js';
import { ptyClientEnv } from './harness/run-print.js';
import { assertRozBuilt } from './harness/roz.js';
import { claudeBin, OLDEST_CLIENT, PINNED_CLIENTS, ROZ_BIN, ROZ_PLUGIN_DIR } from './harness/workspace.js';
import { startPtyScreen, type PtyScreen } from '../supervisor/helpers/pty-screen.js';

/** What the client adds to a resumed conversation it takes for an interrupted turn (its CLAUDE_CODE_RESUME_PROMPT default). */
const CLIENT_RESUME_PROMPT = 'Continue from where you left off.';
const AGENTS = {
  a: { task: 'A-TASK: remember the word FALCON', first: 'A-FIRST: noted FALCON.', again: 'A-AGAIN: which word?', second: 'A-SECOND: it was FALCON.' },
  b: { task: 'B-TASK: remember the word PELICAN', first: 'B-FIRST: noted PELICAN.', again: 'B-AGAIN: which word?', second: 'B-SECOND: it was PELICAN.' },
} as const;

/** The client's session transcripts under `home` whose file name `wanted` accepts, with their text. */
function transcripts(home: string, wanted: (name: string) => boolean): Array<{ path: string; text: string }> {
  const found: Array<{ path: string; text: string }> = [];
  // The clients write there as we look: a lock folder or a file that goes between the listing and the read is skipped.
  const walk = (d: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else if (wanted(e.name))
        try {
          found.push({ path, text: readFileSync(path, 'utf8') });
        } catch {
          // gone meanwhile
        }
    }
  };
  walk(home);
  return found;
}

/** Whether the client's session transcripts (`*.jsonl` under its config directory in `home`) hold every text. */
function transcriptsHold(home: string, texts: readonly string[]): boolean {
  const all = transcripts(home, (name) => name.endsWith('.jsonl'));
  return texts.every((t) => all.some((x) => x.text.includes(t)));
}

/** A transcript record in one line: type, uuid <- parent, the start of its text. */
function recordLine(line: string): string {
  try {
    const r = JSON.parse(line) as { type?: string; uuid?: string; parentUuid?: string | null; message?: { content?: unknown } };
    return `  ${r.type} ${r.uuid?.slice(0, 8) ?? '-'} <- ${r.parentUuid?.slice(0, 8) ?? '-'} ${JSON.stringify(r.message?.content ?? '').slice(0, 80)}`;
  } catch {
    return `  (unparsable: ${line.slice(0, 80)})`;
  }
}

/** Session `session`'s transcript under `home`, a line per record. */
function transcriptOutline(home: string, session: string): string {
  return transcripts(home, (name) => name === `${session}.jsonl`)
    .map(({ path, text }) => [`${path}:`, ...text.split('\n').filter(Boolean).map(recordLine)].join('\n'))
    .join('\n');
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.sequential('resume after a killed supervisor (real client, scripted model, pty)', () => {
  const worlds = ptyWorlds();
  afterEach(() => worlds.leave());

  test.each(PINNED_CLIENTS)(
    '%s: roz run after SIGKILL of everything offers a and b; accepted, each continues its conversation and no first prompt is sent twice',
    async (client) => {
      assertRozBuilt();
      const claude = claudeBin(client);
      expect(existsSync(claude), `the pinned client is missing at ${claude}`).toBe(true);
      const { home, repo, storage } = worlds.enter('reboot', { client, trust: ['a', 'b'] });

      const api = await startFakeApi(
        {
          main: [
            { name: 'a-first', when: on.user(/A-TASK/), reply: say(AGENTS.a.first) },
            { name: 'a-second', when: on.user(/A-AGAIN/), reply: say(AGENTS.a.second) },
            { name: 'b-first', when: on.user(/B-TASK/), reply: say(AGENTS.b.first) },
            { name: 'b-second', when: on.user(/B-AGAIN/), reply: say(AGENTS.b.second) },
          ],
        },
        { maxRequests: 80 },
      );
      worlds.closes(api);
      const env = ptyClientEnv({ home, storage, apiUrl: api.url });
      const clientArgs = ['--permission-mode', 'default'];
      for (const n of ['a', 'b'] as const) {
        const add = spawnSync(process.execPath, [ROZ_BIN, 'agent', 'add', n, '--no-start', '--prompt', AGENTS[n].task, '--', ...clientArgs], {
          cwd: repo,
          env,
          encoding: 'utf8',
        });
        expect(add.status, add.stderr).toBe(0);
      }
      const answered = (name: string) => api.requests.filter((r) => r.answeredBy === name);
      const registry = () => {
        const f = readdirSync(join(storage, 'fleet')).find((x) => /^[0-9a-f]{24}\.json$/.test(x))!;
        return JSON.parse(readFileSync(join(storage, 'fleet', f), 'utf8')) as {
          agents: Record<string, { running?: { supervisor_pid: number; session: string | null }; last_session?: string }>;
        };
      };
      const supervisorPids = () =>
        readdirSync(join(storage, 'control'))
          .map((f) => /-(\d+)\.json$/.exec(f)?.[1])
          .filter((p): p is string => !!p)
          .map(Number)
          .filter(alive);
      const startRun = () => {
        const t = startPtyScreen(
          process.execPath,
          [ROZ_BIN, 'run', '--approval-timeout', '120', '--no-stats', '--plugin-dir', ROZ_PLUGIN_DIR, '--', claude, ...clientArgs],
          { cols: 120, rows: 40, env, cwd: repo },
        );
        return worlds.track(t);
      };
      const stepOf =
        (t: PtyScreen) =>
        (cond: RegExp | string | ((s: string) => boolean), what: string, ms: number): Promise<string> =>
          t.waitFor(cond, what, ms).catch((err: Error) => {
            throw new Error(`${err.message}\n--- registry:\n${JSON.stringify(registry(), null, 1)}\n--- fake API:\n${summarize(api.requests)}`);
          });

      // The first run: a and b started under it, each answers its first prompt.
      const t1 = startRun();
      const step1 = stepOf(t1);
      await step1(/roz │/, "roz's status line", 60_000);
      for (const n of ['a', 'b'] as const) {
        const r = spawnSync(process.execPath, [ROZ_BIN, 'agent', 'start', n], { cwd: repo, env, encoding: 'utf8' });
        expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
      }
      await step1(() => answered('a-first').length === 1 && answered('b-first').length === 1, 'a and b answer their first prompts', 120_000);
      // The client has written each exchange to its transcript (what its --resume reads back), as it would long before a reboot.
      const exchanges = [AGENTS.a.task, AGENTS.a.first, AGENTS.b.task, AGENTS.b.first];
      await step1(() => transcriptsHold(home, exchanges), 'both exchanges in the clients’ transcripts', 30_000);
      // The registry knows both run, under this supervisor, in which conversation.
      await step1(() => ['a', 'b'].every((n) => !!registry().agents[n]?.running?.session), 'both marked running with their sessions', 30_000);
      const sessions = { a: registry().agents.a!.running!.session!, b: registry().agents.b!.running!.session! };
      const [sup] = supervisorPids();
      expect(sup, 'the background supervisor').toBeGreaterThan(0);

      // A reboot, as far as roz can tell: the supervisor, every client under it and the screen, SIGKILLed at once.
      const everything = [sup!, ...descendantsOf(sup!), t1.pid, ...descendantsOf(t1.pid)];
      for (const p of everything)
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          // already gone
        }
      for (let i = 0; i < 50 && everything.some(alive); i++) await sleep(100);
      expect(everything.filter(alive)).toEqual([]);
      // Nothing cleared the marks: they name a supervisor that is gone.
      expect(registry().agents.a!.running?.supervisor_pid).toBe(sup);

      // roz run again: it lists a and b and offers to resume them; accepted (all).
      const t2 = startRun();
      const step2 = stepOf(t2);
      await step2(/2 agents were running when their supervisor stopped/, 'the list of interrupted agents', 60_000);
      await step2(new RegExp(`a .*roz/a .*${sessions.a}`), 'a with its conversation', 5_000);
      await step2(/resume a, b\? \[A\]ll \/ \[p\]ick \/ \[n\]one/, 'the offer', 5_000);
      await press(t2, 'a', '\r');
      await step2(
        () => ['a', 'b'].every((n) => (registry().agents[n]?.running?.supervisor_pid ?? sup) !== sup),
        'a and b running under the new supervisor',
        60_000,
      );
      await step2(/roz │/, "roz's status line", 60_000);
      await sleep(5_000);

      // In each pane, the human asks on: the same conversation, the first prompt never again.
      for (const [n, down] of [
        ['a', 'j'],
        ['b', 'j'],
      ] as const) {
        await openAgentsTab(t2);
        await press(t2, down);
        await step2(new RegExp(`› ${n} `), `${n} selected`, 10_000);
        await press(t2, '\r');
        await sleep(1_500);
        t2.write(AGENTS[n].again);
        await sleep(500);
        t2.write('\r');
        await step2(() => answered(`${n}-second`).length === 1, `${n}'s second turn`, 90_000);
        const second = answered(`${n}-second`)[0]!;
        // The same conversation: roz resumed the session it recorded, and the client continued it under that id.
        expect(second.clientSessionId, summarize(api.requests)).toBe(sessions[n]);
        const texts = second.messages.map((m) => m.text).join('\n');
        const hasTask = texts.includes(AGENTS[n].task);
        const hasAnswer = texts.includes(AGENTS[n].first);
        // The newest pin loads the earlier exchange whole. The oldest, resumed interactively, sometimes
        // loads it in part (its own transcript walk; roz only names the session):
        //  - without its last answer, and then it says so with its interrupted-turn prompt (a run kept on
        //    2.1.197: the transcript held the answer and the turn's end, and the same file resumed again,
        //    in print mode or in a pty, loaded whole);
        //  - without the first prompt, the answer kept (CI, under load; not seen in 32 local runs).
        // Either way something of that exchange is in the request, under the recorded session.
        if (client !== OLDEST_CLIENT) {
          expect(texts, summarize(api.requests)).toContain(AGENTS[n].task);
          expect(texts, summarize(api.requests)).toContain(AGENTS[n].first);
        } else {
          // A partial load passes, and says what the client had on disk, so the next one can be read.
          if (!hasTask || !hasAnswer) console.warn(`fleet-reboot: ${client} resumed ${n} in part; its transcript:\n${transcriptOutline(home, sessions[n])}`);
          expect(hasTask || hasAnswer, `${n}: nothing of the earlier exchange in the resumed request\n${summarize(api.requests)}`).toBe(true);
          if (!hasAnswer) expect(texts).toContain(CLIENT_RESUME_PROMPT);
        }
      }
      // Each first prompt reached the model once (side requests, e.g. the client's title, aside).
      for (const n of ['a', 'b'] as const) {
        expect(answered(`${n}-first`).length, summarize(api.requests)).toBe(1);
        expect(api.requests.filter((r) => r.role === 'main' && r.lastUserText.includes(AGENTS[n].task.slice(0, 6))).length, summarize(api.requests)).toBe(1);
      }
      expect(registry().agents.a!.last_session).toBe(sessions.a);
      // The supervisor of the second run and its clients go with the world (worlds.leave).
    },
    420_000,
  );
});
