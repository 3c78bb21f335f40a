// `[notify] command`: a real supervisor (its socket, its broker) and real
// commands. Each request queued for the human runs the user's command once,
// with the request in its environment; the same command named by the
// project's .roz/config.toml does not run (the control: from the user's file
// it does); a command that hangs is killed at its timeout and the request is
// answered as fast as without it.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ASK, preToolUse, relay, until } from './helpers/channel.js';

let sup: Supervisor | null = null;
afterEach(async () => {
  await sup?.close();
  sup = null;
});

/** A home, a store, a project and a command that writes its environment to `out/<pid>.json`. */
function world() {
  const top = tempDir('roz-notify-');
  const home = join(top, 'home');
  const store = join(home, '.roz');
  const project = join(top, 'proj');
  const out = join(top, 'out');
  for (const d of [store, join(project, '.roz'), out]) mkdirSync(d, { recursive: true });
  const script = join(top, 'notify.sh');
  writeFileSync(
    script,
    `#!${process.execPath}
const fs = require('node:fs');
const e = process.env;
const file = ${JSON.stringify(out)} + '/' + process.pid;
// Written whole, then renamed: the test reads every .json file it sees.
fs.writeFileSync(file + '.tmp', JSON.stringify({ agent: e.ROZ_AGENT, tool: e.ROZ_TOOL, summary: e.ROZ_SUMMARY, id: e.ROZ_REQUEST_ID, args: process.argv.slice(2), token: e.ROZ_TOKEN ?? null }));
fs.renameSync(file + '.tmp', file + '.json');
if (process.argv[2] === 'hang') { process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); }
`,
  );
  chmodSync(script, 0o755);
  const env = { HOME: home, PATH: process.env.PATH ?? '' };
  const runs = () =>
    readdirSync(out)
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ pid: Number(f.replace('.json', '')), ...JSON.parse(readFileSync(join(out, f), 'utf8')) }));
  const toml = (argv: string[], timeout = 10) => `[notify]\ncommand = ${JSON.stringify(argv)}\ntimeout_seconds = ${timeout}\n`;
  return { store, project, script, env, runs, toml };
}

async function start(w: ReturnType<typeof world>, logged: string[]): Promise<Supervisor> {
  sup = await Supervisor.start({ env: w.env, cwd: w.project, approvalTimeoutMs: 20_000, log: (l) => logged.push(l) });
  return sup;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('[notify] command', () => {
  it('runs once per request with the request in its environment, arguments as written', async () => {
    const w = world();
    writeFileSync(join(w.store, 'config.toml'), w.toml([w.script, 'roz', '{summary}']));
    const logged: string[] = [];
    const s = await start(w, logged);
    const env = { ...w.env, ...s.childEnv() };
    const first = relay(env, ASK, preToolUse('rm -rf build'));
    await until(() => s.queue().length === 1, 'the first request');
    await until(() => w.runs().length === 1, 'the command to run for it');
    const q = s.queue()[0]!;
    expect(w.runs()[0]).toMatchObject({ agent: 'main', tool: 'Bash', summary: q.summary, id: q.id, args: ['roz', '{summary}'], token: null });
    expect(q.summary).not.toBe('');
    s.answer(q.id, { action: 'approve-once' });
    expect((await first).verdict.kind).toBe('allow');

    const second = relay(env, ASK, preToolUse('rm -rf dist', { tool_use_id: 'toolu_y' }));
    await until(() => w.runs().length === 2, 'the command for the second request', 5_000);
    s.answer(s.queue()[0]!.id, { action: 'block', reason: 'no' });
    expect((await second).verdict.kind).toBe('deny');
    // Another agent's request names that agent (by its token).
    const b = s.addAgent('b');
    const third = relay({ ...w.env, ...b.env }, ASK, preToolUse('rm -rf out', { tool_use_id: 'toolu_z' }));
    await until(() => w.runs().length === 3, "the command for b's request", 5_000);
    expect(
      w
        .runs()
        .map((r) => r.agent)
        .sort(),
    ).toEqual(['b', 'main', 'main']);
    s.answer(s.queue()[0]!.id, { action: 'approve-once' });
    await third;
    expect(new Set(w.runs().map((r) => r.id)).size).toBe(3);
    // Nothing more: an answer does not notify.
    await new Promise((r) => setTimeout(r, 300));
    expect(w.runs()).toHaveLength(3);
    expect(logged.filter((l) => l.includes('notify'))).toEqual([]);
  });

  it("a project's .roz/config.toml cannot name it (reported, not run); the same in the user's file runs (the control)", async () => {
    const w = world();
    writeFileSync(join(w.project, '.roz', 'config.toml'), w.toml([w.script]));
    const s = await start(w, []);
    expect(s.snapshot().config.problems.join('\n')).toMatch(/notify\.command: not settable from a project file/);
    const asked = relay({ ...w.env, ...s.childEnv() }, ASK);
    await until(() => s.queue().length === 1, 'the request');
    await new Promise((r) => setTimeout(r, 500));
    expect(w.runs()).toEqual([]);
    s.answer(s.queue()[0]!.id, { action: 'approve-once' });
    await asked;
    await s.close();
    sup = null;

    writeFileSync(join(w.store, 'config.toml'), w.toml([w.script]));
    const c = await start(w, []);
    const control = relay({ ...w.env, ...c.childEnv() }, ASK);
    await until(() => w.runs().length === 1, "the user's command to run");
    c.answer(c.queue()[0]!.id, { action: 'approve-once' });
    await control;
  });

  it('a command that hangs is killed at its timeout, and the answer does not wait for it', async () => {
    const w = world();
    writeFileSync(join(w.store, 'config.toml'), w.toml([w.script, 'hang'], 1));
    const logged: string[] = [];
    const s = await start(w, logged);
    const t0 = Date.now();
    const asked = relay({ ...w.env, ...s.childEnv() }, ASK);
    await until(() => w.runs().length === 1, 'the command to start');
    const pid = w.runs()[0]!.pid;
    expect(alive(pid)).toBe(true);
    s.answer(s.queue()[0]!.id, { action: 'approve-once' });
    expect((await asked).verdict.kind).toBe('allow');
    // Answered while the command still runs (it ignores SIGTERM: SIGKILL 1 s after the 1 s timeout).
    expect(alive(pid)).toBe(true);
    expect(Date.now() - t0).toBeLessThan(1_000 + 500);
    await until(() => !alive(pid), 'the hanging command to be killed', 5_000);
    await until(() => logged.some((l) => /notify command .*killed after 1 s/.test(l)), 'the failure in the log');
    expect(s.events.toArray().some((e) => e.event === 'roz:NotifyFailed' && /killed after 1 s/.test(e.summary))).toBe(true);
  });

  it('at most 4 run at once: a request beyond that is not notified (logged); closing the supervisor kills them', async () => {
    const w = world();
    writeFileSync(join(w.store, 'config.toml'), w.toml([w.script, 'hang'], 30));
    const logged: string[] = [];
    const s = await start(w, logged);
    const env = { ...w.env, ...s.childEnv() };
    const asks = Array.from({ length: 6 }, (_, i) => relay(env, ASK, preToolUse(`rm -rf build${i}`, { tool_use_id: `toolu_${i}` })));
    await until(() => s.queue().length === 6, 'six requests');
    await until(() => logged.filter((l) => /notify command skipped .*4 still running/.test(l)).length === 2, 'two skipped', 5_000);
    await until(() => w.runs().length === 4, 'four commands');
    const pids = w.runs().map((r) => r.pid);
    expect(pids.every(alive)).toBe(true);
    for (const q of s.queue()) s.answer(q.id, { action: 'approve-once' });
    await Promise.all(asks);
    await s.close();
    sup = null;
    await until(() => !pids.some(alive), 'the commands killed with the supervisor', 5_000);
  });

  it('a command that fails is logged and shown; the supervisor goes on', async () => {
    const w = world();
    writeFileSync(join(w.store, 'config.toml'), w.toml(['roz-no-such-notify-program']));
    const logged: string[] = [];
    const s = await start(w, logged);
    const asked = relay({ ...w.env, ...s.childEnv() }, ASK);
    await until(() => logged.some((l) => l.includes('cannot find "roz-no-such-notify-program"')), 'the failure in the log');
    s.answer(s.queue()[0]!.id, { action: 'approve-once' });
    expect((await asked).verdict.kind).toBe('allow');
    expect(existsSync(join(w.store, 'config.toml'))).toBe(true);
  });
});
