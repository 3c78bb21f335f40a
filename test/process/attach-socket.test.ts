// The attach stream on the control socket (src/supervisor/attach/attach-hub.ts,
// attach-client.ts): a real Supervisor and its real control server, a small
// fleet host standing in for the ptys, the screen's real client, and raw
// sockets for what a well-behaved client never sends. Wrong secret: refused
// before any stream; bad, unknown and oversize lines: an error line, the
// supervisor unhurt; advisory launch: no attach at all; the human's answer
// over the stream reaches the waiting hook.
import { connect, type Socket } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Enforcement } from '../../src/core/enforce/mode.js';
import { controlKey, findControlRecords, type FoundRecord } from '../../src/store/control-record.js';
import type { AttachHost } from '../../src/supervisor/attach/attach-hub.js';
import { AttachRefused, RemoteConnection } from '../../src/supervisor/attach/attach-client.js';
import { LineSplitter, parseAttachLine } from '../../src/supervisor/attach/attach-protocol.js';
import { sendControl } from '../../src/supervisor/control/control-client.js';
import { ControlServer } from '../../src/supervisor/control/control-server.js';
import type { ScreenAgent } from '../../src/supervisor/attach/fleet-connection.js';
import type { MergeResult } from '../../src/core/fleet/merge-result.js';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { ASK, preToolUse, relay, traceRecords, until } from '../supervisor/helpers/channel.js';
import { payloads, pluginDir, runHook } from '../helpers/hooks.js';

const ENFORCED: Enforcement = { mode: 'enforced', reasons: [] };
const ADVISORY: Enforcement = { mode: 'advisory', reasons: ['no sandbox tools'] };

/** A fleet host without ptys: it records what the screens sent and plays pty output on demand. */
class FakeHost implements AttachHost {
  readonly notes = ['note one'];
  readonly written: Array<[string, string]> = [];
  readonly sizes: Array<[number, number]> = [];
  private readonly pty = new Set<(a: string, d: string) => void>();
  private readonly change = new Set<() => void>();
  agents: ScreenAgent[] = [{ name: 'main', cwd: '/p', branch: null, running: true }];
  connected = () => this.agents;
  tail = (name: string): string => (name === 'main' ? 'EARLIER OUTPUT\r\n' : '');
  onPty(fn: (a: string, d: string) => void) {
    this.pty.add(fn);
    return () => this.pty.delete(fn);
  }
  onChange(fn: () => void) {
    this.change.add(fn);
    return () => this.change.delete(fn);
  }
  emit(agent: string, data: string) {
    for (const l of this.pty) l(agent, data);
  }
  write = (name: string, data: string) => void this.written.push([name, data]);
  resize = (cols: number, rows: number) => void this.sizes.push([cols, rows]);
  addAgent = async (name: string) => {
    this.agents = [...this.agents, { name, cwd: `/p/${name}`, branch: `roz/${name}`, running: true }];
    for (const l of this.change) l();
    return { ok: true, message: `started ${name}` };
  };
  humanMerges: Array<[string, string]> = [];
  humanMerge = async (name: string, head: string) => {
    this.humanMerges.push([name, head]);
    return { ok: true, message: `approved by you; merged roz/${name}` };
  };
  mergeAgent = async (name: string): Promise<MergeResult> => ({
    kind: 'refused',
    agent: name,
    branch: `roz/${name}`,
    base: 'main',
    code: 'never-reviewed',
    why: 'never reviewed',
    worktree: `/p/${name}`,
    session: null,
  });
  stopAgent = async (name: string) => ({ ok: true, message: `stopped ${name}` });
}

let home: string;
let sup: Supervisor | null = null;
let ctl: ControlServer | null = null;
const open: Socket[] = [];

async function start(enforcement: Enforcement = ENFORCED) {
  home = mkdtempSync(join(tmpdir(), 'roz-attach-'));
  const project = join(home, 'project');
  mkdirSync(project);
  const store = join(home, 'store');
  const env = { HOME: home, ROZ_STORAGE_PATH: store, PATH: process.env.PATH ?? '', NO_COLOR: '1' };
  sup = await Supervisor.start({ env, approvalTimeoutMs: 20_000, log: () => {} });
  const host = new FakeHost();
  ctl = await ControlServer.start({ supervisor: sup, attach: { host, supervisor: sup }, store, repo: controlKey(project), cwd: project, enforcement });
  const rec = findControlRecords(store, controlKey(project)).found[0]!;
  return { sup, ctl, host, rec, store, hookEnv: { ...env, ...sup.childEnv() } };
}

afterEach(async () => {
  for (const s of open.splice(0)) s.destroy();
  await ctl?.close();
  await sup?.close();
  ctl = null;
  sup = null;
  if (home) rmSync(home, { recursive: true, force: true });
});

/** A raw connection: send lines, read the lines that come back. */
function raw(rec: FoundRecord) {
  const s = connect(rec.record.socket);
  open.push(s);
  s.setEncoding('utf8');
  let buf = '';
  let closed = false;
  s.on('data', (d: string) => (buf += d));
  s.on('close', () => (closed = true));
  s.on('error', () => {});
  const lines = () =>
    buf
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { s, lines, closed: () => closed, send: (o: unknown) => s.write(`${typeof o === 'string' ? o : JSON.stringify(o)}\n`) };
}

const attachLine = (secret: string) => ({ v: 1, secret, op: 'attach', view: 'main', cols: 90, rows: 30 });

describe('LineSplitter', () => {
  it('joins a line across chunks, splits several in one, and refuses one that grows past its cap', () => {
    const sp = new LineSplitter(10);
    expect(sp.push('ab')).toEqual({ lines: [], overflow: false });
    expect(sp.push('c\nde\nf')).toEqual({ lines: ['abc', 'de'], overflow: false });
    expect(sp.push('\n')).toEqual({ lines: ['f'], overflow: false });
    expect(sp.push('0123456789x')).toEqual({ lines: [], overflow: true });
    expect(sp.push('ok\n')).toEqual({ lines: ['ok'], overflow: false });
  });
});

describe('parseAttachLine', () => {
  it("an input line is the human's keys, or with kind reply a terminal's answer; no other kind", () => {
    expect(parseAttachLine('{"t":"input","agent":"main","data":"x"}')).toEqual({ ok: true, line: { t: 'input', agent: 'main', data: 'x' } });
    expect(parseAttachLine('{"t":"input","agent":"main","data":"\\u001b[2;1R","kind":"reply"}')).toEqual({
      ok: true,
      line: { t: 'input', agent: 'main', data: '\x1b[2;1R', kind: 'reply' },
    });
    expect(parseAttachLine('{"t":"input","agent":"main","data":"x","kind":"keys"}').ok).toBe(false);
  });
});

describe('the attach stream', () => {
  it('a wrong or missing secret is refused before any stream: no hello, nothing of the fleet', async () => {
    const { rec } = await start();
    for (const secret of ['0'.repeat(64), '']) {
      const c = raw(rec);
      c.send(secret ? attachLine(secret) : { v: 1, op: 'attach', view: 'main', cols: 90, rows: 30 });
      await until(() => c.closed(), 'the server to close the connection');
      expect(c.lines()).toEqual([expect.objectContaining({ ok: false, code: 'auth' })]);
    }
    await expect(
      RemoteConnection.connect({ ...rec, record: { ...rec.record, secret: 'f'.repeat(64) } }, { view: 'main', cols: 80, rows: 24 }),
    ).rejects.toMatchObject({
      code: 'auth',
    });
  });

  it('hello replays the pty and pushes state; keys, resizes and pty output flow; bad lines get an error line and change nothing', async () => {
    const { rec, host, sup } = await start();
    const c = raw(rec);
    c.send(attachLine(rec.record.secret));
    await until(() => c.lines().some((l) => l.t === 'state'), 'hello and state');
    const [hello] = c.lines();
    expect(hello).toMatchObject({ t: 'hello', notes: ['note one'], agents: [{ name: 'main' }], replay: { main: 'EARLIER OUTPUT\r\n' } });
    expect(host.sizes).toEqual([[90, 30]]);

    // Not JSON, an unknown line type, a wrong field, an input for nobody's business (extra field): each an error, none acted on.
    c.send('this is not json');
    c.send({ t: 'approve-everything' });
    c.send({ t: 'resize', cols: -1, rows: 10 });
    c.send({ t: 'input', agent: 'main', data: 'x', secret: 'extra' });
    await until(() => c.lines().filter((l) => l.t === 'error').length === 4, 'four error lines');
    expect(host.written).toEqual([]);
    expect(host.sizes).toHaveLength(1);

    // The stream still works after them.
    c.send({ t: 'input', agent: 'main', data: 'hi\r' });
    c.send({ t: 'resize', cols: 100, rows: 40 });
    host.emit('main', 'NEW OUTPUT');
    await until(() => host.written.length === 1 && c.lines().some((l) => l.t === 'pty'), 'the key in, the output out');
    expect(host.written).toEqual([['main', 'hi\r']]);
    expect(host.sizes.at(-1)).toEqual([100, 40]);
    expect(c.lines().find((l) => l.t === 'pty')).toEqual({ t: 'pty', agent: 'main', data: 'NEW OUTPUT' });
    expect(c.closed()).toBe(false);

    // add: the agents line comes before the reply (a screen selects the new agent when the reply comes).
    c.send({ t: 'add', rid: 7, name: 'b' });
    await until(() => c.lines().some((l) => l.t === 'reply'), 'the reply');
    const after = c.lines();
    const agentsAt = after.findIndex((l) => l.t === 'agents');
    expect(agentsAt).toBeGreaterThan(-1);
    expect(agentsAt).toBeLessThan(after.findIndex((l) => l.t === 'reply'));
    expect(after.find((l) => l.t === 'reply')).toEqual({ t: 'reply', rid: 7, ok: true, message: 'started b' });

    // merge: refused for want of an approval, the reply says the human may review it; human-merge carries the commit shown.
    c.send({ t: 'merge', rid: 8, name: 'b' });
    await until(() => c.lines().some((l) => l.t === 'reply' && l.rid === 8), 'the merge reply');
    expect(c.lines().find((l) => l.t === 'reply' && l.rid === 8)).toMatchObject({
      ok: false,
      review: true,
      message: expect.stringMatching(/^refused \(exit 5\)/),
    });
    const head = 'a'.repeat(40);
    c.send({ t: 'human-merge', rid: 9, name: 'b', head: 'HEAD' });
    c.send({ t: 'human-merge', rid: 10, name: 'b', head });
    await until(() => c.lines().some((l) => l.t === 'reply' && l.rid === 10), 'the human-merge reply');
    expect(host.humanMerges).toEqual([['b', head]]); // a head that is not a commit id never reaches the host
    expect(c.lines().find((l) => l.t === 'reply' && l.rid === 10)).toMatchObject({ ok: true, message: 'approved by you; merged roz/b' });

    // The supervisor is unhurt: other commands still answer.
    const q = await sendControl(rec, { op: 'queue' });
    expect(q).toMatchObject({ reached: true, reply: { ok: true } });
    expect(sup.queue()).toEqual([]);
  });

  it("a screen is sent only the agent in view's output, and another's query; coming into view, that agent's tail replaces what the screen had", async () => {
    const { rec, host } = await start();
    host.tail = (name: string) => (name === 'b' ? 'B TAIL' : 'EARLIER OUTPUT\r\n');
    await host.addAgent('b');
    const c = raw(rec);
    c.send(attachLine(rec.record.secret));
    await until(() => c.lines().some((l) => l.t === 'state'), 'hello and state');
    host.emit('b', 'B HIDDEN');
    host.emit('b', 'B ASKS \x1b[6n');
    host.emit('main', 'MAIN LIVE');
    await until(() => c.lines().some((l) => l.data === 'MAIN LIVE'), "main's output");
    const pty = () => c.lines().filter((l) => l.t === 'pty');
    // b's plain output stays with the supervisor; its query comes (the client waits for the answer).
    expect(pty()).toEqual([
      { t: 'pty', agent: 'b', data: 'B ASKS \x1b[6n' },
      { t: 'pty', agent: 'main', data: 'MAIN LIVE' },
    ]);
    c.send({ t: 'view', agent: 'b' });
    await until(() => pty().some((l) => l.resync), "b's tail");
    expect(pty().at(-1)).toEqual({ t: 'pty', agent: 'b', data: 'B TAIL', resync: true });
    host.emit('b', 'B LIVE');
    host.emit('main', 'MAIN HIDDEN');
    await until(() => pty().some((l) => l.data === 'B LIVE'), "b's output now");
    // Control: main, now out of view, sends nothing; back in view, its tail, once.
    expect(pty().some((l) => l.data === 'MAIN HIDDEN')).toBe(false);
    c.send({ t: 'view', agent: 'main' });
    await until(() => pty().some((l) => l.resync && l.agent === 'main'), "main's tail");
    c.send({ t: 'view', agent: 'b' });
    c.send({ t: 'view', agent: 'main' });
    await new Promise((r) => setTimeout(r, 200));
    expect(pty().filter((l) => l.resync && l.agent === 'main')).toHaveLength(1);
  });

  it('an oversize line (no newline within 256 KiB) is refused and that connection closed; the supervisor stays up', async () => {
    const { rec } = await start();
    const c = raw(rec);
    c.send(attachLine(rec.record.secret));
    await until(() => c.lines().some((l) => l.t === 'state'), 'attached');
    c.s.write('x'.repeat(300 * 1024));
    await until(() => c.closed(), 'the connection closed');
    expect(c.lines().at(-1)).toMatchObject({ t: 'error', message: expect.stringMatching(/over 262144 bytes/) });
    expect(await sendControl(rec, { op: 'queue' })).toMatchObject({ reached: true, reply: { ok: true } });
    // And an oversize attach request line is refused like any request.
    const big = raw(rec);
    big.s.write('y'.repeat(20 * 1024));
    await until(() => big.closed(), 'refused');
    expect(big.lines()).toEqual([expect.objectContaining({ ok: false, code: 'bad-request' })]);
  });

  it('an advisory launch refuses attach (an agent could reach the socket and type or answer through it)', async () => {
    const { rec, host } = await start(ADVISORY);
    const c = raw(rec);
    c.send(attachLine(rec.record.secret));
    await until(() => c.closed(), 'refused');
    expect(c.lines()).toEqual([expect.objectContaining({ ok: false, code: 'advisory', message: expect.stringMatching(/no sandbox tools/) })]);
    await expect(RemoteConnection.connect(rec, { view: 'main', cols: 80, rows: 24 })).rejects.toBeInstanceOf(AttachRefused);
    // A raw answer line sent right behind the refused request is never read as one.
    const d = raw(rec);
    d.s.write(`${JSON.stringify(attachLine(rec.record.secret))}\n${JSON.stringify({ t: 'input', agent: 'main', data: 'y' })}\n`);
    await until(() => d.closed(), 'refused');
    expect(host.written).toEqual([]);
  });

  it("the stats of an attached screen: 'reading' until the supervisor answers, then its numbers, the screen told to redraw; new numbers as hooks arrive", async () => {
    const { rec, sup, store } = await start();
    const project = join(home!, 'project');
    const sid = 'stats-session-1';
    const hookEnv = { HOME: home!, ROZ_STORAGE_PATH: store, PATH: process.env.PATH ?? '', CLAUDE_PLUGIN_ROOT: pluginDir, CLAUDE_PROJECT_DIR: project };
    const p = payloads(sid, project);
    expect((await runHook('SessionStart', p.sessionStart(), hookEnv)).code).toBe(0);
    await runHook('PreToolUse', p.pre('Read', { file_path: join(project, 'a.txt') }), hookEnv);
    const conn = await RemoteConnection.connect(rec, { view: 'main', cols: 80, rows: 24 });
    let changes = 0;
    conn.subscribe(() => changes++);
    const before = conn.snapshot('main');
    // Not answered yet: said so (never "no session state recorded"); the answer comes with a new snapshot, so a view redraws.
    expect(conn.stats(sid)).toBeUndefined();
    await until(() => conn.stats(sid) !== undefined, 'the stats answer');
    expect(changes).toBeGreaterThan(0);
    expect(conn.snapshot('main')).not.toBe(before);
    const first = conn.stats(sid)!;
    expect(first).toEqual(sup!.stats(sid));
    expect(first.tool_calls).toBe(1);
    // More hooks: the screen asks again (at most every 2 s while it is shown) and gets the new numbers.
    await runHook('PreToolUse', p.pre('Read', { file_path: join(project, 'b.txt') }), hookEnv);
    await until(() => conn.stats(sid)?.tool_calls === 2, 'the new numbers', 10_000);
    conn.detach();
  });

  it("the human's answer over the stream reaches the waiting hook; the trace says it came from the keyboard", async () => {
    const { rec, sup, store, hookEnv } = await start();
    const conn = await RemoteConnection.connect(rec, { view: 'main', cols: 80, rows: 24 });
    const waiting = relay(hookEnv, ASK, preToolUse('rm -rf build'));
    await until(() => conn.snapshot('main').pending.length === 1, 'the request in the screen');
    expect(conn.queue()).toHaveLength(1);
    const id = conn.snapshot('main').pending[0]!.id;
    expect(conn.answer('no-such-id', { action: 'approve-once' })).toBe(false);
    expect(conn.answer(id, { action: 'approve-once' })).toBe(true);
    const hook = await waiting;
    expect(hook.verdict).toMatchObject({ kind: 'allow' });
    expect(sup.queue()).toEqual([]);
    expect(traceRecords(store).filter((r) => r.event === 'roz:HumanDecision')).toEqual([
      expect.objectContaining({ decided_by: 'human', decision: 'allow', via: 'keyboard' }),
    ]);
    // The decided history reaches the screen once it changed, and stays in its snapshot after (sent again only when it changes).
    await until(() => conn.snapshot('main').decided.length === 1, 'the decision in the screen');
    expect(conn.snapshot('main').decided[0]).toMatchObject({ decided_by: 'human', decision: 'allow' });
    const c = raw(rec);
    c.send(attachLine(rec.record.secret));
    await until(() => c.lines().some((l) => l.t === 'state'), 'attached');
    c.send({ t: 'view', agent: 'main' });
    await until(() => c.lines().filter((l) => l.t === 'state').length >= 2, 'a second state');
    const states = c.lines().filter((l) => l.t === 'state') as Array<{ snapshot: { decided: unknown[] | null } }>;
    expect(states[0]!.snapshot.decided).toHaveLength(1);
    expect(states[1]!.snapshot.decided).toBeNull();
    // The end of the run reaches the screen: main's code and the stats.
    await ctl!.end({ code: 3, stats: [] });
    expect(await conn.ended).toEqual({ kind: 'ended', code: 3, stats: [] });
  });

  it("pty output between the attach and the screen's first listener is kept (live, not replay); a later listener gets no replay twice", async () => {
    const { rec, host } = await start();
    const conn = await RemoteConnection.connect(rec, { view: 'main', cols: 80, rows: 24 });
    host.emit('main', 'WHILE DRAWING');
    await new Promise((r) => setTimeout(r, 200));
    const seen: string[] = [];
    conn.onPty((a, d, replay) => seen.push(`${a}:${d}${replay ? ' (replay)' : ''}`));
    expect(seen).toEqual(['main:EARLIER OUTPUT\r\n (replay)', 'main:WHILE DRAWING']);
    const later: string[] = [];
    conn.onPty((a, d) => later.push(`${a}:${d}`));
    host.emit('main', 'LIVE');
    await until(() => seen.length === 3 && later.length === 1, 'live output to both');
    expect(later).toEqual(['main:LIVE']);
    conn.detach!();
  });

  it('terminal answers (input kind reply) are taken from the screen attached last only, then from the one before it; keys from every screen', async () => {
    const { rec, host } = await start();
    const a = raw(rec);
    a.send(attachLine(rec.record.secret));
    await until(() => a.lines().some((l) => l.t === 'state'), 'first screen attached');
    const b = raw(rec);
    b.send(attachLine(rec.record.secret));
    await until(() => b.lines().some((l) => l.t === 'state'), 'second screen attached');
    a.send({ t: 'input', agent: 'main', data: 'A-REPLY', kind: 'reply' });
    a.send({ t: 'input', agent: 'main', data: 'A-KEY' });
    b.send({ t: 'input', agent: 'main', data: 'B-REPLY', kind: 'reply' });
    b.send({ t: 'input', agent: 'main', data: 'B-KEY' });
    await until(() => host.written.length === 3, 'three inputs through');
    await new Promise((r) => setTimeout(r, 100));
    expect(host.written.map(([, d]) => d).sort()).toEqual(['A-KEY', 'B-KEY', 'B-REPLY']);
    // The answering screen goes: the one before it answers.
    b.s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    a.send({ t: 'input', agent: 'main', data: 'A-REPLY-2', kind: 'reply' });
    await until(() => host.written.length === 4, 'the remaining screen answers');
    expect(host.written.at(-1)).toEqual(['main', 'A-REPLY-2']);
  });

  it('the supervisor going away ends an attached screen as lost; detaching ends it as detached and leaves the supervisor running', async () => {
    const { rec } = await start();
    const a = await RemoteConnection.connect(rec, { view: 'main', cols: 80, rows: 24 });
    a.detach!();
    expect(await a.ended).toEqual({ kind: 'detached' });
    expect(await sendControl(rec, { op: 'queue' })).toMatchObject({ reached: true });
    const b = await RemoteConnection.connect(rec, { view: 'main', cols: 80, rows: 24 });
    await ctl!.close();
    ctl = null;
    expect(await b.ended).toMatchObject({ kind: 'lost' });
  });
});
