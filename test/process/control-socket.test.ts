// The human's commands to a running supervisor, from another terminal: the
// built `roz` CLI as a process, a real Supervisor and its real control
// socket, and the hook's real relay waiting on the other socket for the
// answer. What must fail does: an unknown or answered id, no supervisor, a
// stale record, a wrong or missing secret, approve/block when the agents are
// not OS-confined (advisory).
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Enforcement } from '../../src/core/enforce/mode.js';
import { controlKey, findControlRecords } from '../../src/store/control-record.js';
import { FileSessionStore } from '../../src/store/file-store.js';
import { ControlServer } from '../../src/supervisor/control/control-server.js';
import type { FleetControl } from '../../src/supervisor/control/fleet-control.js';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { repoRoot } from '../supervisor/helpers/bundle.js';
import { ASK, preToolUse, relay, traceRecords, until } from '../supervisor/helpers/channel.js';

const ROZ = join(repoRoot, 'bin', 'roz');
const ENFORCED: Enforcement = { mode: 'enforced', reasons: [] };

let home: string;
let project: string;
let store: string;
let env: Record<string, string>;
let sup: Supervisor | null = null;
let ctl: ControlServer | null = null;

beforeAll(() => {
  if (!existsSync(join(repoRoot, 'plugin', 'dist'))) throw new Error('run npm run build first');
});

function fresh(): void {
  home = mkdtempSync(join(tmpdir(), 'roz-ctl-home-'));
  project = join(home, 'project');
  mkdirSync(project);
  store = join(home, 'store');
  env = { HOME: home, ROZ_STORAGE_PATH: store, PATH: process.env.PATH ?? '', NO_COLOR: '1' };
}

async function start(
  opts: { enforcement?: Enforcement; fleet?: FleetControl } = {},
): Promise<{ sup: Supervisor; ctl: ControlServer; hookEnv: Record<string, string> }> {
  fresh();
  sup = await Supervisor.start({ env, approvalTimeoutMs: 20_000, log: () => {} });
  ctl = await ControlServer.start({
    supervisor: sup,
    ...(opts.fleet ? { fleet: opts.fleet } : {}),
    store,
    repo: controlKey(project),
    cwd: project,
    enforcement: opts.enforcement ?? ENFORCED,
  });
  return { sup, ctl, hookEnv: { ...env, ...sup.childEnv() } };
}

afterEach(async () => {
  await ctl?.close();
  await sup?.close();
  ctl = null;
  sup = null;
  if (home) rmSync(home, { recursive: true, force: true });
});

/** The built CLI, asynchronously: the supervisor answers in this very process. */
function roz(args: string[], cwd = project): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [ROZ, ...args], { cwd, env, encoding: 'utf8', timeout: 20_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function rawRequest(socket: string, line: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const s = connect(socket);
    let buf = '';
    s.setEncoding('utf8');
    s.on('connect', () => s.write(line));
    s.on('data', (d: string) => (buf += d));
    s.on('error', reject);
    s.on('close', () => resolve(JSON.parse(buf.trim()) as Record<string, unknown>));
  });
}

describe('roz queue / approve / block against a running supervisor', () => {
  it('lists the queue as JSON ({id, agent, tool, summary, since}) and as text, with a clear empty state', async () => {
    const { sup, hookEnv } = await start();
    const empty = await roz(['queue', '--json']);
    expect(empty.code, empty.stderr).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([]);
    expect((await roz(['queue'])).stdout).toMatch(/nothing is waiting for you/);

    const waiting = relay(hookEnv, ASK, preToolUse('rm -rf build'));
    await until(() => sup.queue().length === 1, 'the ask to queue');
    const listed = await roz(['queue', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const q = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(q).toHaveLength(1);
    expect(Object.keys(q[0]!).sort()).toEqual(['agent', 'id', 'since', 'summary', 'tool']);
    expect(q[0]).toMatchObject({ id: sup.queue()[0]!.id, agent: 'main', tool: 'Bash' });
    expect(Date.parse(q[0]!.since as string)).toBeGreaterThan(Date.now() - 60_000);
    const text = await roz(['queue']);
    expect(text.stdout).toContain(sup.queue()[0]!.id);
    expect(text.stdout).toMatch(/roz approve ID/);
    sup.answer(sup.queue()[0]!.id, { action: 'block', reason: 'cleanup' });
    await waiting;
  });

  it('approve: the waiting hook gets allow; the same id again is "already answered" (exit 4)', async () => {
    const { sup, hookEnv } = await start();
    const waiting = relay(hookEnv, ASK, preToolUse('rm -rf build'));
    await until(() => sup.queue().length === 1, 'the ask to queue');
    const id = sup.queue()[0]!.id;
    const r = await roz(['approve', id]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`approved ${id}`));
    const hook = await waiting;
    expect(hook.outcome).toBe('answered');
    expect(hook.verdict).toMatchObject({ kind: 'allow' });
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('allow');

    // The trace says who answered and where: the human, from a terminal (not the TUI's keys).
    expect(traceRecords(store).filter((r) => r.event === 'roz:HumanDecision')).toEqual([
      expect.objectContaining({ decided_by: 'human', decision: 'allow', scope: 'once', via: 'terminal', tool_name: 'Bash' }),
    ]);

    const again = await roz(['approve', id]);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/already answered: allow by human/);
    const blockAfter = await roz(['block', id, 'too late']);
    expect(blockAfter.code).toBe(4);
  });

  it('block with a reason: the waiting hook gets deny with that reason', async () => {
    const { sup, hookEnv } = await start();
    const waiting = relay(hookEnv, ASK, preToolUse('rm -rf build'));
    await until(() => sup.queue().length === 1, 'the ask to queue');
    const id = sup.queue()[0]!.id;
    const r = await roz(['block', id, 'keep', 'the build dir']);
    expect(r.code, r.stderr).toBe(0);
    const hook = await waiting;
    expect(hook.verdict).toMatchObject({ kind: 'deny' });
    const out = JSON.parse(hook.stdout).hookSpecificOutput;
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toContain('blocked by the human: keep the build dir');
    expect(sup.queue()).toEqual([]);
  });

  it('an unknown id exits 4 and says so; nothing waiting is touched', async () => {
    const { sup, hookEnv } = await start();
    const waiting = relay(hookEnv, ASK, preToolUse('rm -rf build'));
    await until(() => sup.queue().length === 1, 'the ask to queue');
    const r = await roz(['approve', 'no-such-id']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/no request no-such-id is waiting/);
    expect(sup.queue()).toHaveLength(1);
    sup.answer(sup.queue()[0]!.id, { action: 'block', reason: 'x' });
    await waiting;
  });

  it('no supervisor running: exit 3 and how to start one', async () => {
    fresh();
    for (const args of [['queue'], ['queue', '--json'], ['approve', 'x'], ['block', 'x', 'why'], ['agent', 'stop', 'main']]) {
      const r = await roz(args);
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stderr).toMatch(/no roz supervisor is running for this project \(start one with `roz run claude`\)/);
      expect(r.stdout).toBe('');
    }
    rmSync(home, { recursive: true, force: true });
  });

  it('stale records (a dead pid; a live pid whose socket nothing listens on) are ignored and removed', async () => {
    const { ctl } = await start();
    const rec = JSON.parse(readFileSync(ctl.record!, 'utf8')) as Record<string, unknown>;
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    const dir = join(store, 'control');
    const prefix = readdirSync(dir)[0]!.split('-')[0]!;
    writeFileSync(join(dir, `${prefix}-${deadPid}.json`), JSON.stringify({ ...rec, pid: deadPid, socket: join(home, 'gone.sock') }), { mode: 0o600 });
    // Our own (live) pid, but a socket path nothing listens on: a supervisor that lost its socket.
    writeFileSync(
      join(dir, `${prefix}-1.json`),
      JSON.stringify({ ...rec, pid: process.pid, socket: join(home, 'nothing.sock'), started_at: '2000-01-01T00:00:00Z' }),
      {
        mode: 0o600,
      },
    );
    const r = await roz(['queue', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual([ctl.record!.split('/').pop()]);

    // With the live supervisor gone too, only stale records remain: "no supervisor".
    await ctl.close();
    writeFileSync(join(dir, `${prefix}-${deadPid}.json`), JSON.stringify({ ...rec, pid: deadPid }), { mode: 0o600 });
    const none = await roz(['queue']);
    expect(none.code).toBe(3);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a wrong or missing secret, on the raw socket and from a tampered record', async () => {
    const { sup, ctl, hookEnv } = await start();
    const waiting = relay(hookEnv, ASK, preToolUse('rm -rf build'));
    await until(() => sup.queue().length === 1, 'the ask to queue');
    const id = sup.queue()[0]!.id;
    const rec = JSON.parse(readFileSync(ctl.record!, 'utf8')) as { socket: string; secret: string };
    // The record is private: a 0600 file in a 0700 directory.
    expect(readFileSync(ctl.record!, 'utf8')).toContain(rec.secret);
    const { statSync } = await import('node:fs');
    expect(statSync(ctl.record!).mode & 0o777).toBe(0o600);
    expect(statSync(join(store, 'control')).mode & 0o777).toBe(0o700);
    expect(statSync(ctl.dir).mode & 0o777).toBe(0o700);

    const missing = await rawRequest(rec.socket, `${JSON.stringify({ v: 1, op: 'approve', id })}\n`);
    expect(missing).toMatchObject({ ok: false, code: 'auth' });
    const wrong = await rawRequest(rec.socket, `${JSON.stringify({ v: 1, secret: 'f'.repeat(64), op: 'approve', id })}\n`);
    expect(wrong).toMatchObject({ ok: false, code: 'auth' });
    const garbage = await rawRequest(rec.socket, 'not json\n');
    expect(garbage).toMatchObject({ ok: false, code: 'auth' });
    expect(sup.queue()).toHaveLength(1);
    // The right secret on the raw socket works (the control for the refusals above).
    const right = await rawRequest(rec.socket, `${JSON.stringify({ v: 1, secret: rec.secret, op: 'queue' })}\n`);
    expect(right).toMatchObject({ ok: true, queue: [{ id }] });

    writeFileSync(ctl.record!, readFileSync(ctl.record!, 'utf8').replace(rec.secret, 'a'.repeat(64)));
    const r = await roz(['approve', id]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/wrong or missing secret/);
    expect(sup.queue()).toHaveLength(1);
    sup.answer(id, { action: 'block', reason: 'x' });
    expect((await waiting).verdict).toMatchObject({ kind: 'deny' });
  });

  it('advisory launch: approve and block are refused (exit 5, "only from the TUI keyboard"); the request keeps waiting; queue still lists', async () => {
    const { sup, hookEnv } = await start({ enforcement: { mode: 'advisory', reasons: ['the sandbox is unavailable: bwrap not installed'] } });
    const waiting = relay(hookEnv, ASK, preToolUse('rm -rf build'));
    await until(() => sup.queue().length === 1, 'the ask to queue');
    const id = sup.queue()[0]!.id;
    for (const args of [
      ['approve', id],
      ['block', id, 'no'],
    ]) {
      const r = await roz(args);
      expect(r.code, args[0]).toBe(5);
      expect(r.stderr).toMatch(/not confined by the OS sandbox \(advisory: the sandbox is unavailable: bwrap not installed\)/);
      expect(r.stderr).toMatch(/approvals come only from the TUI keyboard/);
    }
    expect(sup.queue()).toHaveLength(1);
    expect(JSON.parse((await roz(['queue', '--json'])).stdout)).toHaveLength(1);
    sup.answer(id, { action: 'block', reason: 'x' });
    await waiting;
  });

  it('an agent whose session reports advisory makes approve refused even when the launch was enforced', async () => {
    const { sup, hookEnv } = await start();
    await new FileSessionStore(store).update('sess-adv', new Date(), (st) => {
      (st as { enforcement?: unknown }).enforcement = { mode: 'advisory', reasons: ['sandbox.excludedCommands in x'] };
      return { value: null, trace: [] };
    });
    const waiting = relay(hookEnv, ASK, preToolUse('rm -rf build', { session_id: 'sess-adv' }));
    await until(() => sup.queue().length === 1, 'the ask to queue');
    const r = await roz(['approve', sup.queue()[0]!.id]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/agent main's session sess-adv is advisory/);
    sup.answer(sup.queue()[0]!.id, { action: 'block', reason: 'x' });
    await waiting;
  });
});

describe('roz agent stop / ls / add against a running supervisor', () => {
  it('stop NAME and stop --all go to the fleet host; without one, "not available in this run"', async () => {
    const calls: string[] = [];
    const fleet: FleetControl = {
      startAgent: async (n) => (calls.push(`start ${n}`), { ok: true, message: `started ${n}` }),
      stopAgent: async (n) => (calls.push(`stop ${n}`), n === 'main' ? { ok: true, message: `stopped ${n}` } : { ok: false, message: `no agent ${n}` }),
      stopAll: async () => (calls.push('stop-all'), { ok: true, message: 'stopped every agent' }),
    };
    await start({ fleet });
    const one = await roz(['agent', 'stop', 'main']);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(/stopped main/);
    const unknown = await roz(['agent', 'stop', 'zed']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no agent zed/);
    const all = await roz(['agent', 'stop', '--all']);
    expect(all.code, all.stderr).toBe(0);
    expect(calls).toEqual(['stop main', 'stop zed', 'stop-all']);
    expect((await roz(['agent', 'stop'])).code).toBe(2);

    // roz agent add (no worktree: not a git repository) asks the running supervisor to start it.
    const add = await roz(['agent', 'add', 'helper']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/the running supervisor started it: started helper/);
    expect(calls.at(-1)).toBe('start helper');

    await ctl!.close();
    await sup!.close();
    ctl = null;
    sup = null;
    rmSync(home, { recursive: true, force: true });
    await start();
    const none = await roz(['agent', 'stop', 'main']);
    expect(none.code).toBe(5);
    expect(none.stderr).toMatch(/stopping agents is not available in this run/);
  });

  it('ls fills state and pending from the running supervisor', async () => {
    const { sup, hookEnv } = await start();
    // Not in roz's registry (roz run started it where it runs): listed from the supervisor.
    const unregistered = JSON.parse((await roz(['agent', 'ls', '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(unregistered).toEqual([expect.objectContaining({ name: 'main', worktree: project, shared: true, state: 'idle', pending: 0 })]);
    // `main` is the agent roz run started: another agent of that name is refused (it would shadow it).
    expect((await roz(['agent', 'add', 'main', '--no-worktree'])).code).toBe(2);
    const before = JSON.parse((await roz(['agent', 'ls', '--json'])).stdout) as Array<Record<string, unknown>>;
    // The store alone would say `not running` (no session yet): this is the supervisor's live view.
    expect(before[0]).toMatchObject({ name: 'main', pending: 0, state: 'idle' });
    const waiting = relay(hookEnv, ASK, preToolUse('rm -rf build'));
    await until(() => sup.queue().length === 1, 'the ask to queue');
    const ls = await roz(['agent', 'ls', '--json']);
    expect(ls.code, ls.stderr).toBe(0);
    const rows = JSON.parse(ls.stdout) as Array<Record<string, unknown>>;
    expect(rows[0]).toMatchObject({ name: 'main', pending: 1, state: 'waiting for you', worktree: realpathSync(project) });
    expect((await roz(['agent', 'ls'])).stdout).toMatch(/main\s+\(base checkout\)\s+waiting for you\s+1/);
    sup.answer(sup.queue()[0]!.id, { action: 'approve-once' });
    await waiting;
  });
});

describe('control records', () => {
  it('are keyed by the repository: every worktree finds the same supervisor, another repository does not', async () => {
    fresh();
    const git = (cwd: string, ...args: string[]) =>
      spawnSync('git', args, {
        cwd,
        encoding: 'utf8',
        env: { ...env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
      });
    git(project, 'init', '-q', '-b', 'main');
    git(project, 'commit', '-q', '--allow-empty', '-m', 'init');
    git(project, 'worktree', 'add', '-q', '-b', 'roz/a', join(home, 'wt-a'));
    const other = join(home, 'other');
    mkdirSync(other);
    git(other, 'init', '-q');
    expect(controlKey(join(home, 'wt-a'))).toBe(controlKey(project));
    expect(controlKey(join(project))).not.toBe(controlKey(other));
    sup = await Supervisor.start({ env, approvalTimeoutMs: 20_000, log: () => {} });
    ctl = await ControlServer.start({ supervisor: sup, store, repo: controlKey(project), cwd: project, enforcement: ENFORCED });
    expect((await roz(['queue'], join(home, 'wt-a'))).code).toBe(0);
    expect((await roz(['queue'], other)).code).toBe(3);
    expect(findControlRecords(store, controlKey(project)).found).toHaveLength(1);
    await ctl.close();
    expect(findControlRecords(store, controlKey(project)).found).toHaveLength(0);
    ctl = null;
  });
});

describe('the MCP server', () => {
  it('offers no way to answer the queue or reach the control socket', () => {
    const dir = join(repoRoot, 'src', 'mcp');
    let tools = 0;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const src = readFileSync(join(dir, f), 'utf8');
      expect(src, f).not.toMatch(/control-(client|server|record)|approval-broker|\.answer\(/);
      for (const m of src.matchAll(/registerTool\(\s*'([^']+)'/g)) {
        tools++;
        expect(m[1], f).not.toMatch(/approve|block|answer|queue|stop/);
      }
    }
    expect(tools).toBeGreaterThan(0);
  });
});
