// Agents outlive the window (issue 25 part 5), in real pseudo-terminals,
// through the built CLI: `roz run` of an enforced launch (a stand-in client
// named `claude`, so roz writes its settings and the launch confines it)
// starts the supervisor in the background; the TUI is only a screen of it.
// Killing the TUI (SIGKILL, SIGHUP) loses nothing: the supervisor, the agent
// and its request stay, `roz attach` shows the agent's screen (replayed) and
// the request, and `a` answers it. `D` detaches; a killed supervisor ends the
// attached screen with a message and the agent with it; a request pending
// then is never allowed. `roz attach` with nothing running says so (exit 3).
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { controlKey, findControlRecords } from '../../src/store/control-record.js';
import { tempDir } from '../helpers/temp-dir.js';
import { bundle, repoRoot } from './helpers/bundle.js';
import { ASK, preToolUse, relay, until } from './helpers/channel.js';
import { startPtyScreen, type PtyScreen } from './helpers/pty-screen.js';

const HOTKEY = '\x1d';
const roz = join(repoRoot, 'plugin', 'bin', 'roz');
const fakeClaude = join(repoRoot, 'test/supervisor/fixtures/fake-claude.mjs');
let fakeHook: string;
const screens: PtyScreen[] = [];
/** Background supervisors the tests started: none may outlive its test. */
const supervisors = new Set<number>();
/** Each test's stores: a supervisor whose TUI failed before the test noted its pid is found through its record. */
const stores: Array<() => number[]> = [];

beforeAll(async () => {
  if (!existsSync(join(repoRoot, 'plugin', 'dist', 'cli.mjs'))) throw new Error('run npm run build first: this test runs the built CLI');
  fakeHook = await bundle('test/supervisor/fixtures/fake-hook.ts');
}, 60_000);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterEach(async () => {
  for (const s of screens.splice(0)) s.kill();
  for (const pids of stores.splice(0)) for (const pid of pids()) supervisors.add(pid);
  for (const pid of supervisors) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  for (const pid of supervisors) await until(() => !alive(pid), `supervisor ${pid} gone`).catch(() => {});
  supervisors.clear();
});

/** The process's exit code, or a failure showing its screen. */
function exitOf(pty: PtyScreen, what: string, ms = 15_000): Promise<number> {
  return Promise.race([
    pty.exited,
    new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`${what}: no exit within ${ms} ms\n--- screen:\n${pty.screen()}`)), ms)),
  ]);
}

/** The keyboard to the agent's pane, from wherever it is now (the status line says where the hotkey goes). */
async function toAgentPane(pty: PtyScreen): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  if (/Ctrl-\]: claude\s*$/.test(pty.screen())) pty.write(HOTKEY);
  await pty.waitFor(/Ctrl-\]: roz\s*$/, "the keyboard on the agent's pane");
}

async function press(pty: PtyScreen, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    pty.write(k);
    await new Promise((r) => setTimeout(r, 150));
  }
}

function world() {
  const top = realpathSync(tempDir('roz-attach-pty-'));
  const [bin, home, repo, info, tmp] = ['bin', 'home', 'proj', 'info', 'tmp'].map((d) => join(top, d)) as [string, string, string, string, string];
  for (const d of [bin, home, repo, info, tmp]) mkdirSync(d);
  // A stand-in client named claude: roz writes its settings (the launch is enforced); too old for http hooks, so each
  // hook is a process relayed on the supervisor's socket. It leaves its pid and how it reaches its supervisor.
  writeFileSync(
    join(bin, 'claude'),
    `#!${process.execPath}
if (process.argv[2] === '--version') { console.log('2.1.100 (Claude Code)'); process.exit(0); }
require('fs').writeFileSync(${JSON.stringify(info)} + '/' + (process.env.ROZ_AGENT || 'main') + '.json', JSON.stringify({ pid: process.pid, ROZ_SOCKET: process.env.ROZ_SOCKET, ROZ_TOKEN: process.env.ROZ_TOKEN }));
import(${JSON.stringify(fakeClaude)});
`,
  );
  chmodSync(join(bin, 'claude'), 0o755);
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    HOME: home,
    ROZ_STORAGE_PATH: join(top, 'store'),
    FAKE_HOOK: fakeHook,
    FAKE_INPUT_LOG: join(top, 'input.log'),
    TERM: 'xterm-256color',
    // The supervisor's socket folders go here: a supervisor these tests SIGKILL leaves them behind, removed with the test's folder.
    TMPDIR: tmp,
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, HOME: home }, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '--allow-empty', '-m', 'first');
  const store = join(top, 'store');
  const screen = (args: string[], cols = 110, rows = 30) => {
    const s = startPtyScreen(process.execPath, [roz, ...args], { cols, rows, env, cwd: repo });
    screens.push(s);
    return s;
  };
  const agentInfo = (name = 'main') => JSON.parse(readFileSync(join(info, `${name}.json`), 'utf8')) as { pid: number; ROZ_SOCKET: string; ROZ_TOKEN: string };
  const records = () => findControlRecords(store, controlKey(repo)).found;
  stores.push(() => records().map((r) => r.record.pid));
  const cli = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [roz, ...args], { cwd: repo, env, encoding: 'utf8', timeout: 20_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
  /** What the agent read as input, in order; `answers`: the cursor position reports among it. */
  const input = () =>
    existsSync(join(top, 'input.log'))
      ? readFileSync(join(top, 'input.log'), 'utf8')
          .split('\n')
          // The last piece is what follows the last newline: empty, or a line still being written.
          .slice(0, -1)
          .map((l) => JSON.parse(l) as string)
          .join('')
      : '';
  const answers = () => input().match(/\x1b\[\d+;\d+R/g)?.length ?? 0;
  return { top, repo, env, store, screen, agentInfo, records, cli, input, answers };
}

/** `roz run claude` in a pty, up to the agent's first screen; the background supervisor's pid is noted for cleanup. */
async function runFleet(w: ReturnType<typeof world>) {
  const tui = w.screen(['run', '--approval-timeout', '120', '--no-stats', '--', 'claude']);
  await tui.waitFor('FAKE CLAUDE READY', 'the agent started');
  const [rec] = w.records();
  expect(rec, 'a control record for the background supervisor').toBeDefined();
  supervisors.add(rec!.record.pid);
  expect(rec!.record.enforcement.mode, 'the launch confines its agent').toBe('enforced');
  // The supervisor is not the TUI: another process, in a session of its own.
  expect(rec!.record.pid).not.toBe(tui.pid);
  return { tui, supervisor: rec!.record.pid };
}

describe('agents outlive the window (pty, built CLI, background supervisor)', () => {
  it.each(['SIGKILL', 'SIGHUP'] as const)(
    'the TUI killed with %s while a request waits: supervisor, agent and request stay; roz attach replays the screen and `a` answers it',
    async (sig) => {
      const w = world();
      const { tui, supervisor } = await runFleet(w);
      tui.write('x');
      await tui.waitFor('KEY 78', 'a key reached the agent through the supervisor');
      tui.write('h');
      await tui.waitFor(/APPROVAL NEEDED[\s\S]*\[a\] approve once/, 'the request in the TUI');

      tui.signal(sig);
      const code = await exitOf(tui, 'the killed TUI');
      if (sig === 'SIGHUP') expect(code, 'SIGHUP detaches: exit 0').toBe(0);
      expect(alive(supervisor), 'the supervisor outlives the TUI').toBe(true);
      expect(alive(w.agentInfo().pid), 'the agent outlives the TUI').toBe(true);
      const q = await w.cli(['queue', '--json']);
      expect(q.code, q.stderr).toBe(0);
      expect(JSON.parse(q.stdout)).toEqual([expect.objectContaining({ agent: 'main', tool: 'Bash', summary: 'deletes the tree build/' })]);

      const att = w.screen(['attach', '--no-stats']);
      // Its screen replayed (written before this window existed), and the request, armed.
      await att.waitFor(/APPROVAL NEEDED[\s\S]*\[a\] approve once/, 'the request in the attached TUI');
      att.write(HOTKEY);
      await att.waitFor((s) => s.includes('FAKE CLAUDE READY') && s.includes('KEY 78') && s.includes('HOOK ASKING'), "the agent's screen, replayed");
      await press(att, HOTKEY);
      await att.waitFor(/\[a\] approve once/);
      att.write('a');
      await att.waitFor((s) => !s.includes('APPROVAL NEEDED'), 'the request answered');
      await toAgentPane(att);
      await att.waitFor(/HOOK ANSWER allow: roz: approved by the human/, "the agent's hook got the human's answer");
      expect(JSON.parse((await w.cli(['queue', '--json'])).stdout)).toEqual([]);

      // The agent quits: the run is over; the attached TUI exits with its code, the supervisor and its record go.
      att.write('q');
      expect(await exitOf(att, 'the attached TUI after the run ended')).toBe(3);
      await until(() => !alive(supervisor), 'the supervisor exits with its last agent', 10_000);
      expect(w.records()).toEqual([]);
    },
    60_000,
  );

  it('D detaches and roz attach comes back; roz run here attaches too; a killed supervisor ends the screen with a message, the agent with it, and its pending request is never allowed', async () => {
    const w = world();
    const { tui, supervisor } = await runFleet(w);
    await press(tui, HOTKEY, 'D');
    expect(await exitOf(tui, 'the TUI after D')).toBe(0);
    // The terminal is given back whole (the alternate screen left, modes reset), then one line and nothing else after it.
    const raw = tui.raw();
    const after = raw.slice(raw.lastIndexOf('\x1b[?1049l') + '\x1b[?1049l'.length);
    expect(raw.lastIndexOf('\x1b[?1049l')).toBeGreaterThan(raw.lastIndexOf('\x1b[?1049h'));
    expect(after.replace(/\r?\n$/, '')).toBe('roz: 1 agent goes on in the background — `roz attach` to come back');
    expect(alive(supervisor)).toBe(true);

    // roz run again in the same project attaches to it (and says its arguments are not started).
    const again = w.screen(['run', '--', 'claude', '--model', 'x']);
    await again.waitFor('FAKE CLAUDE READY', 'the same agent, replayed');
    expect(again.raw()).toMatch(/already runs this project's agents \(pid \d+\): attaching to it; claude --model x is not started/);
    expect(w.records()).toHaveLength(1);
    await press(again, HOTKEY, 'D');
    expect(await exitOf(again, 'the second roz run after D')).toBe(0);

    const att = w.screen(['attach']);
    await att.waitFor('FAKE CLAUDE READY');
    // A request waits (a hook process of the agent's, with its token), then the supervisor dies.
    const agent = w.agentInfo();
    const pending = relay({ ROZ_SOCKET: agent.ROZ_SOCKET, ROZ_TOKEN: agent.ROZ_TOKEN }, ASK, preToolUse('rm -rf build'));
    await att.waitFor(/APPROVAL NEEDED/, 'the request in the TUI');
    process.kill(supervisor, 'SIGKILL');
    expect(await exitOf(att, 'the attached TUI after its supervisor died')).not.toBe(0);
    expect(att.raw()).toMatch(/roz: the supervisor exited \(.*\); its agents ended with it/);
    // Its ptys died with it: the agent got SIGHUP and ended.
    await until(() => !alive(agent.pid), 'the agent ends with its supervisor', 10_000);
    // The request is never allowed: the hook falls back to its own verdict (ask: the client would ask; here it is gone).
    const hook = await pending;
    expect(hook.outcome).toBe('fallback');
    expect(hook.verdict.kind).toBe('ask');
    expect(hook.stderr).toMatch(/supervisor closed the connection before answering|unreachable/);
    // No live supervisor: roz attach says so.
    expect(w.records()).toEqual([]);
    const none = w.screen(['attach']);
    expect(await none.exited).toBe(3);
  }, 60_000);

  it('an advisory run keeps its supervisor in its window: it says so, roz attach is refused (exit 5), the window ends the agents', async () => {
    const w = world();
    // Not claude: roz writes no settings for it, so nothing confines it.
    const tui = w.screen(['run', '--no-stats', '--', process.execPath, fakeClaude]);
    await tui.waitFor('FAKE CLAUDE READY', 'the agent started');
    const [rec] = w.records();
    expect(rec!.record.enforcement.mode).toBe('advisory');
    expect(rec!.record.pid, 'the supervisor is the window').toBe(tui.pid);
    const att = w.screen(['attach']);
    expect(await exitOf(att, 'roz attach to an advisory run')).toBe(5);
    expect(att.screen()).toMatch(/is advisory: it runs in the window it started in/);
    // The window's own terminal answers the agent's cursor-position query, once.
    tui.write('r');
    await until(() => w.answers() === 1, 'the in-process window answers the query', 10_000);
    tui.write('x');
    await until(() => w.input().endsWith('x'), 'a key after the answer');
    expect(w.answers()).toBe(1);
    tui.write('q');
    expect(await exitOf(tui, 'the advisory run')).toBe(3);
    expect(tui.raw()).toMatch(
      /advisory \(the agent is not Claude Code launched with roz settings\): the supervisor runs in this window; closing it ends the agents/,
    );
  }, 30_000);

  it("terminal queries: roz attach does not answer the replay's old query again; with two screens one query gets one answer, and when the answering screen leaves the other answers", async () => {
    const w = world();
    const { tui } = await runFleet(w);
    /** Waits until the agent read `key` (typed after everything the screen sent before it: one socket, in order). */
    const typed = async (pty: PtyScreen, key: string) => {
      const before = w.input().length;
      pty.write(key);
      await until(() => w.input().slice(before).includes(key), `the key ${key} reached the agent`, 10_000);
    };
    tui.write('r');
    await tui.waitFor('CPR ASKED 1', 'the agent asked where its cursor is');
    await until(() => w.answers() === 1, 'the window answers the query', 10_000);
    await press(tui, HOTKEY, 'D');
    expect(await exitOf(tui, 'the TUI after D')).toBe(0);

    // A new screen replays the output with the query in it: its terminal parses it, and the answer is not sent.
    const one = w.screen(['attach', '--no-stats']);
    await one.waitFor('CPR ASKED 1', 'the replay drawn');
    await typed(one, 'x');
    expect(w.answers(), 'no stale cursor report from the replay').toBe(1);

    // Two screens: the query is answered once (by the one attached last).
    const two = w.screen(['attach', '--no-stats']);
    await two.waitFor('CPR ASKED 1', 'the second screen drawn');
    await typed(two, 'y');
    expect(w.answers(), 'nor from the second screen').toBe(1);
    two.write('r');
    await one.waitFor('CPR ASKED 2', 'the query on the first screen');
    await two.waitFor('CPR ASKED 2', 'the query on the second screen');
    await typed(one, 'x');
    await typed(two, 'y');
    expect(w.answers(), 'one query, one answer').toBe(2);

    // The answering screen leaves: the other one answers now.
    await press(two, HOTKEY, 'D');
    expect(await exitOf(two, 'the second screen after D')).toBe(0);
    await toAgentPane(one);
    one.write('r');
    await one.waitFor('CPR ASKED 3', 'the third query');
    await until(() => w.answers() === 3, 'the remaining screen answers', 10_000);
    await typed(one, 'x');
    expect(w.answers()).toBe(3);
  }, 60_000);

  it("with no TUI attached, the background supervisor runs the user's [notify] command for a new request; roz approve answers it", async () => {
    const w = world();
    // The user's config (the enforced launch keeps it read-only to the agent): a command that writes what it was told.
    const notify = join(w.top, 'notify.js');
    writeFileSync(
      notify,
      `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(join(w.top, 'notified.jsonl'))}, JSON.stringify({ agent: process.env.ROZ_AGENT, tool: process.env.ROZ_TOOL, id: process.env.ROZ_REQUEST_ID }) + '\\n');\n`,
      { mode: 0o755 },
    );
    mkdirSync(w.store, { recursive: true });
    writeFileSync(join(w.store, 'config.toml'), `[notify]\ncommand = [${JSON.stringify(notify)}]\n`);
    const { tui, supervisor } = await runFleet(w);
    await press(tui, HOTKEY, 'D');
    expect(await exitOf(tui, 'the TUI after D')).toBe(0);

    // No screen anywhere: a hook of the agent's (its token) asks.
    const agent = w.agentInfo();
    const pending = relay({ ROZ_SOCKET: agent.ROZ_SOCKET, ROZ_TOKEN: agent.ROZ_TOKEN }, ASK, preToolUse('rm -rf build'));
    const notified = () =>
      existsSync(join(w.top, 'notified.jsonl'))
        ? readFileSync(join(w.top, 'notified.jsonl'), 'utf8')
            .split('\n')
            // The file is made before its line is written: only whole lines count.
            .slice(0, -1)
            .map((l) => JSON.parse(l))
        : [];
    await until(() => notified().length === 1, 'the [notify] command to run', 10_000);
    const q = JSON.parse((await w.cli(['queue', '--json'])).stdout) as Array<{ id: string }>;
    expect(notified()).toEqual([{ agent: 'main', tool: 'Bash', id: q[0]!.id }]);
    // An enforced launch: nothing said about an agent-writable config.
    const log = join(w.store, 'supervisor.log');
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').not.toMatch(/is advisory|notify command/);
    const ok = await w.cli(['approve', q[0]!.id]);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await pending).verdict.kind).toBe('allow');
    expect((await w.cli(['agent', 'stop', '--all'])).code).toBe(0);
    await until(() => !alive(supervisor), 'the supervisor exits with its last agent', 10_000);
  }, 60_000);

  it('roz attach with no supervisor running: a clear message and exit 3', async () => {
    const w = world();
    const att = w.screen(['attach']);
    expect(await att.exited).toBe(3);
    expect(att.screen()).toMatch(/no roz supervisor is running for this project \(start one with `roz run claude`\)/);
  }, 20_000);
});
