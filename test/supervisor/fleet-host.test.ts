// The fleet host: one supervisor, several agent launches, real processes in
// real ptys. An agent from roz's registry (made by the built `roz agent add`)
// starts in its worktree with its recorded arguments and prompt and its own
// token; a child's exit reaches supervisor.agentExited (code or signal);
// stopAgent/stopAll end them; in-process http hooks judge each agent with
// its own environment, chosen by the token, never by the cwd it sends.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/store/file-store.js';
import { PROTOCOL_VERSION } from '../../src/supervisor/hooks/channel-protocol.js';
import { FleetHost } from '../../src/supervisor/host/fleet-host.js';
import { readRegistry, updateRegistry } from '../../src/store/agent-registry.js';
import { findInterrupted } from '../../src/cli/commands/resume-offer.js';
import { statusLabel } from '../../src/core/fleet/agent-state.js';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { repoRoot } from './helpers/bundle.js';
import { sendRaw, until } from './helpers/channel.js';

const roz = join(repoRoot, 'plugin', 'bin', 'roz');
const dirs: string[] = [];
let host: FleetHost | null = null;
let sup: Supervisor | null = null;

beforeAll(() => {
  if (!existsSync(join(repoRoot, 'plugin', 'dist', 'cli.mjs'))) throw new Error('run npm run build first: this test runs the built CLI');
});

afterEach(async () => {
  if (host) {
    await host.stopAll();
    await host.finish();
  }
  host = null;
  await sup?.close();
  sup = null;
});

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function world() {
  const top = realpathSync(mkdtempSync(join(tmpdir(), 'roz-fleet-host-')));
  dirs.push(top);
  const repo = join(top, 'proj');
  const home = join(top, 'home');
  const reports = join(top, 'reports');
  for (const d of [repo, home, reports]) mkdirSync(d);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, HOME: home }, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '--allow-empty', '-m', 'first');
  // The fake agent: reports what it was started with, exits with EXIT_CODE on `q`, dies of SIGTERM otherwise.
  const agent = join(top, 'fake-agent');
  writeFileSync(
    agent,
    `#!${process.execPath}
const fs = require('node:fs');
const name = process.env.ROZ_AGENT;
fs.writeFileSync(process.env.REPORT_DIR + '/' + name + '.' + process.pid + '.json', JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), token: process.env.ROZ_TOKEN, socket: process.env.ROZ_SOCKET }));
process.stdin.setRawMode(true);
process.stdin.on('data', (d) => { if (String(d) === 'q') process.exit(Number(process.env.EXIT_CODE || 5)); });
process.stdout.write('AGENT ' + name + ' READY\\r\\n');
`,
  );
  chmodSync(agent, 0o755);
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, ROZ_STORAGE_PATH: join(top, 'store'), REPORT_DIR: reports };
  const report = (name: string): Array<{ argv: string[]; cwd: string; token: string; socket: string }> => {
    const { readdirSync } = require('node:fs') as typeof import('node:fs');
    return readdirSync(reports)
      .filter((f: string) => f.startsWith(`${name}.`))
      .flatMap((f: string) => {
        try {
          return [JSON.parse(readFileSync(join(reports, f), 'utf8'))];
        } catch {
          return []; // being written
        }
      });
  };
  const rozCli = (...args: string[]) => execFileSync(process.execPath, [roz, ...args], { cwd: repo, env, encoding: 'utf8', stdio: 'pipe' });
  const rozAsync = (...args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [roz, ...args], { cwd: repo, env, encoding: 'utf8' }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
  return { top, repo, env, agent, report, rozCli, rozAsync };
}

const frame = (token: string, event: string, input: Record<string, unknown>) =>
  `${JSON.stringify({ v: PROTOCOL_VERSION, id: `f-${Math.random().toString(36).slice(2)}`, token, event, input, verdict: { kind: 'none' } })}\n`;

describe('FleetHost', () => {
  it("starts main, then a registry agent in its worktree with its args, prompt and own token; stop and exit reach the agent's state", async () => {
    const w = world();
    w.rozCli('agent', 'add', 'b', '--prompt', 'say hi', '--', '--model', 'x');
    host = await FleetHost.start({ command: w.agent, args: ['--main-arg'], cwd: w.repo, env: w.env, approvalTimeoutMs: 10_000, pty: { cols: 80, rows: 24 } });
    const h = host;
    await until(() => w.report('main').length === 1, 'main to start', 10_000);
    const main = w.report('main')[0]!;
    expect(main.argv).toEqual(['--main-arg']);
    expect(main.cwd).toBe(w.repo);

    expect(await h.startAgent('nope')).toMatchObject({ ok: false, message: expect.stringContaining('no agent nope') });
    expect(await h.startAgent('main')).toMatchObject({ ok: false });
    const started = await h.startAgent('b');
    expect(started).toMatchObject({ ok: true });
    await until(() => w.report('b').length === 1, 'b to start', 10_000);
    const b = w.report('b')[0]!;
    expect(b.argv).toEqual(['--model', 'x', 'say hi']);
    expect(b.cwd).toBe(join(w.top, 'proj.roz', 'b'));
    expect(b.token).toMatch(/^[0-9a-f]{64}$/);
    expect(b.token).not.toBe(main.token);
    expect(b.socket).toBe(h.supervisor.socketPath);
    expect(await h.startAgent('b')).toMatchObject({ ok: false, message: 'b is already running' });
    expect(h.supervisor.agents().map((a) => a.name)).toEqual(['main', 'b']);

    // b's token is b's: its frame moves b's state only.
    await sendRaw(h.supervisor.socketPath, frame(b.token, 'UserPromptSubmit', { session_id: 'sb', prompt: 'go' }));
    const live = (n: string) => h.supervisor.agents().find((a) => a.name === n)!.live;
    expect(live('b').status.kind).toBe('working');
    expect(live('main').status.kind).toBe('starting');

    // Stopped: SIGTERM, but it reads "stopped" (not a crash), its token refused from then on.
    expect(await h.stopAgent('b')).toMatchObject({ ok: true, message: expect.stringMatching(/^stopped b \(its worktree, branch and session stay/) });
    await until(() => live('b').status.kind === 'exited', "b's exit in its state");
    expect(live('b').status).toEqual({ kind: 'exited', code: null, signal: 'SIGTERM', stopped: true });
    expect(statusLabel(live('b').status)).toBe('stopped');
    expect(h.get('b')!.code).toBe(0);
    const refused = await sendRaw(h.supervisor.socketPath, frame(b.token, 'UserPromptSubmit', { session_id: 'sb', prompt: 'x' }), { untilClose: true });
    expect(JSON.parse(refused[0]!)).toMatchObject({ type: 'error', code: 'BAD_TOKEN' });
    expect(await h.stopAgent('b')).toMatchObject({ ok: true, message: 'b is already stopped' });

    // Started again: a new token, a fresh state.
    expect(await h.startAgent('b')).toMatchObject({ ok: true });
    await until(() => w.report('b').length === 2, 'b to start again', 10_000);
    const again = w.report('b').find((r) => r.token !== b.token)!;
    expect(again.token).toMatch(/^[0-9a-f]{64}$/);
    expect(live('b').status.kind).toBe('starting');

    // main exits by itself: its code reaches its state; the run goes on while b runs.
    h.main.child.write('q');
    await until(() => live('main').status.kind === 'exited', "main's exit in its state", 10_000);
    expect(live('main').status).toEqual({ kind: 'exited', code: 5, signal: null });
    let over = false;
    void h.allExited.then(() => (over = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(over).toBe(false);

    // stopAll: the last agent goes, the run is over, its code is main's.
    expect(await h.stopAll()).toMatchObject({ ok: true, message: 'stopping b (the run ends with them)' });
    await h.allExited;
    const result = await h.finish();
    expect(result.code).toBe(5);
    host = null;
  }, 60_000);

  it('stopAll ends the run with 0, not 143: stopping is not a crash', async () => {
    const w = world();
    host = await FleetHost.start({ command: w.agent, args: [], cwd: w.repo, env: w.env, approvalTimeoutMs: 10_000, pty: { cols: 80, rows: 24 } });
    const h = host;
    await until(() => w.report('main').length === 1, 'main to start', 10_000);
    expect(await h.stopAll()).toMatchObject({ ok: true, message: 'stopping main (the run ends with them)' });
    const result = await h.finish();
    expect(result.code).toBe(0);
    expect(statusLabel(h.supervisor.agents().find((a) => a.name === 'main')!.live.status)).toBe('stopped');
    host = null;
  }, 30_000);

  it('the registry marks a recorded agent running under this supervisor with its newest session; a stop clears the mark and keeps the session; a gone supervisor leaves it offered', async () => {
    const w = world();
    w.rozCli('agent', 'add', 'b', '--prompt', 'say hi');
    host = await FleetHost.start({ command: w.agent, args: [], cwd: w.repo, env: w.env, approvalTimeoutMs: 10_000, pty: { cols: 80, rows: 24 } });
    const h = host;
    const key = realpathSync(join(w.repo, '.git'));
    const store = join(w.top, 'store');
    const rec = () => readRegistry(store, key).agents.b!;
    expect((await h.startAgent('b')).ok).toBe(true);
    await until(() => w.report('b').length === 1, 'b to start', 10_000);
    await until(() => rec().running?.supervisor_pid === process.pid, 'b marked running', 10_000);
    const sid = '0b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    await sendRaw(h.supervisor.socketPath, frame(w.report('b')[0]!.token, 'UserPromptSubmit', { session_id: sid, prompt: 'go' }));
    await until(() => rec().running?.session === sid, "b's session in its mark", 10_000);
    expect(rec().last_session).toBe(sid);
    // While this supervisor lives, nothing is offered; with it gone (its pid not among the live ones), b is.
    expect(findInterrupted(store, w.repo, new Set([process.pid]))).toBeNull();
    expect(findInterrupted(store, w.repo, new Set())).toMatchObject({ registryKey: key, agents: [{ name: 'b', session: sid, problem: null }] });
    await h.stopAgent('b');
    await until(() => rec().running === undefined, 'the mark cleared by the stop', 10_000);
    expect(rec().last_session).toBe(sid);
    expect(findInterrupted(store, w.repo, new Set())).toBeNull();
    // Marked by a supervisor that died, its worktree gone since: reported with why, not crashed on.
    await updateRegistry(store, key, (reg) => {
      reg.agents.b!.running = { supervisor_pid: 2 ** 22 + 17, since: new Date().toISOString(), session: sid };
    });
    execFileSync('git', ['worktree', 'remove', '--force', join(w.top, 'proj.roz', 'b')], { cwd: w.repo, stdio: 'pipe' });
    expect(findInterrupted(store, w.repo, new Set([process.pid]))?.agents).toEqual([
      { name: 'b', branch: 'roz/b', session: sid, problem: expect.stringContaining('git no longer lists the worktree') },
    ]);
  }, 40_000);

  it("a stopped agent starts again into its last conversation (the client's --resume), never its first prompt again", async () => {
    const w = world();
    // The client must be claude for --resume: the fake agent under that name (answers the version probe).
    const bin = join(w.top, 'bin');
    mkdirSync(bin);
    const claude = join(bin, 'claude');
    writeFileSync(
      claude,
      readFileSync(w.agent, 'utf8').replace(
        "const fs = require('node:fs');",
        "const fs = require('node:fs');\nif (process.argv.includes('--version')) { console.log('2.1.330 (Claude Code)'); process.exit(0); }",
      ),
    );
    chmodSync(claude, 0o755);
    w.rozCli('agent', 'add', 'b', '--prompt', 'delete the old files', '--', '--model', 'x');
    host = await FleetHost.start({ command: claude, args: [], cwd: w.repo, env: w.env, approvalTimeoutMs: 10_000, pty: { cols: 80, rows: 24 } });
    const h = host;
    const worktree = join(w.top, 'proj.roz', 'b');
    expect(await h.startAgent('b')).toMatchObject({ ok: true, message: `started b in ${worktree}` });
    await until(() => w.report('b').length === 1, 'b to start', 10_000);
    expect(w.report('b')[0]!.argv).toContain('delete the old files');

    // Its conversation, as roz's store records it (SessionStart in its worktree); an id that is no UUID never reaches argv.
    const files = new FileSessionStore(w.env.ROZ_STORAGE_PATH!);
    const sid = '0b7c2f4e-1a2b-4c3d-8e9f-0123456789ab';
    const record = (id: string, n: number) =>
      files.update(id, new Date(Date.UTC(2026, 0, 1, 0, 0, n)), (st) => {
        st.git = { project_dir: worktree, identity: null, at: new Date().toISOString() };
        return { value: null, trace: [] };
      });
    await record(sid, 1);
    await record('--evil', 2);
    expect((await h.stopAgent('b')).ok).toBe(true);

    const again = await h.startAgent('b');
    expect(again).toMatchObject({ ok: true, message: `resumed b in ${worktree} (session ${sid})` });
    await until(() => w.report('b').length === 2, 'b to start again', 10_000);
    const argv = w.report('b').find((r) => r.argv.includes('--resume'))!.argv;
    expect(argv.slice(argv.indexOf('--resume'), argv.indexOf('--resume') + 2)).toEqual(['--resume', sid]);
    expect(argv).toContain('--model');
    expect(argv).not.toContain('delete the old files');
    expect(argv).not.toContain('--evil');
  }, 60_000);

  it("addAgent makes the worktree as `roz agent add` does and starts it with the first agent's arguments; mergeAgent runs the merge gate", async () => {
    const w = world();
    host = await FleetHost.start({ command: w.agent, args: ['--same'], cwd: w.repo, env: w.env, approvalTimeoutMs: 10_000, pty: { cols: 80, rows: 24 } });
    const h = host;
    const r = await h.addAgent('c');
    expect(r).toMatchObject({ ok: true, message: expect.stringContaining('started c in') });
    await until(() => w.report('c').length === 1, 'c to start', 10_000);
    expect(w.report('c')[0]!).toMatchObject({ argv: ['--same'], cwd: join(w.top, 'proj.roz', 'c') });
    expect(h.get('c')!.branch).toBe('roz/c');
    // Async: the supervisor `roz agent ls` asks runs in this process.
    expect((JSON.parse(await w.rozAsync('agent', 'ls', '--json')) as Array<{ name: string }>).map((a) => a.name).sort()).toEqual(['c', 'main']);
    expect(await h.addAgent('c')).toMatchObject({ ok: false, message: 'c is already running' });
    // One made with `roz agent add` elsewhere: n NAME starts it as recorded (its prompt, its arguments).
    await w.rozAsync('agent', 'add', 'd', '--prompt', 'fix the bug', '--', '--own');
    expect(await h.addAgent('d')).toMatchObject({ ok: false, message: 'd is already running' }); // roz agent add started it
    await until(() => w.report('d').length === 1, 'd to start', 10_000);
    expect(w.report('d')[0]!.argv).toEqual(['--own', 'fix the bug']);
    expect((await h.addAgent('../x')).ok).toBe(false);

    // Nothing committed on roz/c yet: nothing to merge; once it has work, the gate refuses it (never reviewed).
    expect(await h.mergeAgent('c')).toMatchObject({ kind: 'nothing', why: expect.stringContaining('nothing the base branch does not already have') });
    const wt = join(w.top, 'proj.roz', 'c');
    execFileSync('git', ['-c', 'user.email=c@example.com', '-c', 'user.name=c', 'commit', '-q', '--allow-empty', '-m', 'work'], { cwd: wt, stdio: 'pipe' });
    writeFileSync(join(wt, 'f.txt'), 'x\n');
    execFileSync('git', ['add', 'f.txt'], { cwd: wt, stdio: 'pipe' });
    execFileSync('git', ['-c', 'user.email=c@example.com', '-c', 'user.name=c', 'commit', '-q', '-m', 'work'], { cwd: wt, stdio: 'pipe' });
    const refused = await h.mergeAgent('c');
    expect(refused).toMatchObject({
      kind: 'refused',
      code: 'never-reviewed',
      branch: 'roz/c',
      base: 'main',
      why: expect.stringContaining("c's work was never reviewed"),
    });
  }, 60_000);
});

describe('the control socket drives the fleet host', () => {
  it('roz agent add starts the agent in the running roz run; roz agent stop stops it; roz agent ls shows both', async () => {
    const w = world();
    host = await FleetHost.start({ command: w.agent, args: ['--x'], cwd: w.repo, env: w.env, approvalTimeoutMs: 10_000, pty: { cols: 80, rows: 24 } });
    const h = host;
    expect(h.control).not.toBeNull();
    // Not execFileSync: the supervisor answering it runs in this process.
    const add = await w.rozAsync('agent', 'add', 'e', '--prompt', 'go on');
    expect(add).toContain('the running supervisor started it');
    await until(() => w.report('e').length === 1, 'e to start', 10_000);
    expect(w.report('e')[0]!.argv).toEqual(['--x', 'go on']);
    const ls = JSON.parse(await w.rozAsync('agent', 'ls', '--json')) as Array<{ name: string; state: string; where: string; enforcement: string | null }>;
    expect(ls.map((a) => a.name).sort()).toEqual(['e', 'main']);
    // Where and enforcement as the supervisor holds them from each launch: the same words the agents tab shows.
    // (The fake agent is not Claude Code: roz writes no settings for it, so its launch is advisory.)
    const byName = Object.fromEntries(ls.map((a) => [a.name, a]));
    expect(byName.main).toMatchObject({ where: '(base checkout)', enforcement: 'advisory' });
    expect(byName.e).toMatchObject({ where: 'roz/e', enforcement: 'advisory' });
    expect(h.supervisor.agents().map((a) => [a.name, a.where, a.enforcement])).toEqual([
      ['main', '(base checkout)', 'advisory'],
      ['e', 'roz/e', 'advisory'],
    ]);
    const table = await w.rozAsync('agent', 'ls');
    expect(table).toMatch(/^main\s+\(base checkout\)\s/m);
    expect(table).not.toContain('(shared)');
    expect(await w.rozAsync('agent', 'stop', 'e')).toContain('stopped e');
    await until(() => h.get('e')!.code !== null, 'e to exit');
    expect(h.get('main')!.code).toBeNull();
    // roz agent start: the running roz run starts it again (no conversation recorded in its worktree: fresh).
    expect(await w.rozAsync('agent', 'start', 'e')).toMatch(/^started e in /);
    await until(() => h.get('e')!.code === null, 'e to run again');
    await expect(w.rozAsync('agent', 'start', 'e')).rejects.toThrow(/e is already running/);
  }, 60_000);

  it('roz agent start without a running roz run says how to start one (exit 3)', () => {
    const w = world();
    let err: { status?: number; stderr?: string } = {};
    try {
      w.rozCli('agent', 'start', 'e');
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.status).toBe(3);
    expect(String(err.stderr)).toMatch(/no roz run is running in this project/);
  });
});

describe('in-process http hooks in a fleet', () => {
  it("run the engine with the sending agent's project and settings, chosen by its token, whatever cwd it sends", async () => {
    const top = realpathSync(mkdtempSync(join(tmpdir(), 'roz-fleet-env-')));
    dirs.push(top);
    const [a, b, home, tmp] = ['a', 'b', 'home', 'tmp'].map((d) => join(top, d));
    for (const d of [a, b, home, tmp]) mkdirSync(d!);
    const env = { HOME: home!, ROZ_STORAGE_PATH: join(top, 'store'), PATH: process.env.PATH ?? '', CLAUDE_PLUGIN_ROOT: join(repoRoot, 'plugin'), TMPDIR: tmp! };
    sup = await Supervisor.start({ env, approvalTimeoutMs: 10_000, httpHooks: true, log: () => {} });
    const s = sup;
    const bToken = s.addAgent('b').token;
    s.addHookEnv({ CLAUDE_PROJECT_DIR: a!, ROZ_SETTINGS_FILE: join(top, 'a.json') }, 'main');
    s.addHookEnv({ CLAUDE_PROJECT_DIR: b!, ROZ_SETTINGS_FILE: join(top, 'b.json') }, 'b');
    const write = async (token: string, file: string, cwd: string) => {
      const body = JSON.stringify({
        session_id: `s-${token.slice(0, 6)}`,
        cwd,
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: file, content: 'x' },
        tool_use_id: 't1',
      });
      const r = await fetch(`${s.httpUrl}/hook/PreToolUse`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
      expect(r.status).toBe(200);
      const text = await r.text();
      return (
        (text ? (JSON.parse(text) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision : undefined) ?? 'none'
      );
    };
    // b says it works in a: its project is still b (its token says so), so a's files are outside its write area.
    expect(await write(bToken, join(a!, 'x.txt'), a!)).toBe('deny');
    expect(await write(bToken, join(b!, 'x.txt'), a!)).not.toBe('deny');
    // main's hooks run with main's project: a is its own.
    expect(await write(s.token, join(a!, 'x.txt'), a!)).not.toBe('deny');
    expect(await write(s.token, join(b!, 'x.txt'), b!)).toBe('deny');
  }, 30_000);
});

describe("the reviewer's decision and a tripped breaker in an agent's state", () => {
  it('are read from the store after Stop / SubagentStop of the agent named by the token, never from the frame', async () => {
    const top = realpathSync(mkdtempSync(join(tmpdir(), 'roz-fleet-review-')));
    dirs.push(top);
    const store = join(top, 'store');
    sup = await Supervisor.start({ env: { HOME: top, ROZ_STORAGE_PATH: store, PATH: process.env.PATH ?? '' }, approvalTimeoutMs: 10_000, log: () => {} });
    const s = sup;
    const b = s.addAgent('b').token;
    const live = (n: string) => s.agents().find((a) => a.name === n)!.live;
    const files = new FileSessionStore(store);
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n));
    await sendRaw(s.socketPath, frame(b, 'UserPromptSubmit', { session_id: 'sb', prompt: 'go' }));
    // A frame claiming a decision changes nothing: only the store's record counts.
    await sendRaw(s.socketPath, frame(b, 'SubagentStop', { session_id: 'sb', decision: 'COMPLETE' }));
    expect(live('b').review).toBe('none');

    await files.update('sb', at(1), (st) => {
      st.review.decision = { kind: 'complete', summary: 'ok', decided_at: at(1).toISOString(), agent_id: 'r1', valid: true };
      return { value: null, trace: [] };
    });
    await sendRaw(s.socketPath, frame(b, 'SubagentStop', { session_id: 'sb' }));
    expect(live('b').review).toBe('approved');
    expect(live('main').review).toBe('none');

    await files.update('sb', at(2), (st) => {
      st.review.decision = { kind: 'issues', summary: 'bad', decided_at: at(2).toISOString(), agent_id: 'r2', valid: true };
      return { value: null, trace: [] };
    });
    await sendRaw(s.socketPath, frame(b, 'Stop', { session_id: 'sb' }));
    expect(live('b').status.kind).toBe('issues');

    await files.update('sb', at(3), (st) => {
      st.review.breaker.trips.push({ at: at(3).toISOString(), block_count: 3, attempt_id: null, trigger: null });
      return { value: null, trace: [] };
    });
    await sendRaw(s.socketPath, frame(b, 'Stop', { session_id: 'sb' }));
    expect(live('b').status.kind).toBe('breaker');
  }, 20_000);
});
