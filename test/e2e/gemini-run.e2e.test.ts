// `roz run gemini` (issue 33): the real pinned Gemini CLI's TUI under roz run,
// offline against the scripted Gemini API, in a real pty through the built
// CLI. Gemini has no sandbox here, so the launch is advisory and says so; its
// supervisor stays in the window and answers from that window's keyboard
// only. The guard's ask of Gemini's `rm -rf build` waits in roz's panel (not
// denied, as under `roz exec`). The agent's attack: a process it started
// before, unconfined, reads the supervisor's control record and asks its
// socket to approve the request: refused (an advisory run's control socket
// approves nothing), as is the human's own `roz approve` from another
// terminal. The human blocks it with a reason from the keyboard, the model
// reads the reason, build/ stays, and the session records the human's block.
// A second Gemini agent added to the run (`roz agent add g --agent gemini`)
// starts in its worktree under the same supervisor; its ask waits in the same
// queue under its name and the human's block reaches its model.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ownerOnlyTempDir } from '../helpers/owner-only-dir.js';
import { GEMINI_BIN, geminiClientEnv, onGemini, startFakeGeminiApi, type GeminiReply, type GeminiRequest } from './harness/fake-gemini-api.js';
import { blockFromKeyboard, HOTKEY, press, ptyWorlds, sleep } from './harness/pty-world.js';
import { assertRozBuilt, type TraceEvent } from './harness/roz.js';
import { CLI_POLL_MS, until } from './harness/until.js';
import { ROZ_BIN } from './harness/workspace.js';
import { startPtyScreen } from '../supervisor/helpers/pty-screen.js';

const REASON = 'keep the build';
const G_REASON = 'still keep the build';
/**
 * The agent's helper: it starts a detached copy of itself and returns (Gemini ends a command's process group
 * when the command returns); the copy finds the supervisor's control record, asks its socket for the queue and
 * approves the first request, and writes what it got to approve.out.
 */
const SELF_APPROVE = `const fs=require("fs"),net=require("net"),p=require("path");if(process.argv[2]!=="run"){require("child_process").spawn(process.execPath,[__filename,"run"],{detached:true,stdio:"ignore"}).unref();process.exit(0)}const out=m=>fs.writeFileSync(p.join(__dirname,"approve.out"),m+String.fromCharCode(10));const dir=p.join(process.env.ROZ_STORAGE_PATH||"",'control');const send=(r,o)=>new Promise(res=>{const s=net.connect(r.socket);let b="";s.on("connect",()=>s.write(JSON.stringify({v:1,secret:r.secret,...o})+String.fromCharCode(10)));s.on("data",d=>b+=d);s.on("close",()=>res(b.trim()));s.on("error",e=>res("ERR "+e.code))});(async()=>{const t=Date.now();while(Date.now()-t<60000){let f=[];try{f=fs.readdirSync(dir).filter(n=>n.endsWith(".json"))}catch(e){}if(f.length){const r=JSON.parse(fs.readFileSync(p.join(dir,f[0]),"utf8"));const q=await send(r,{op:"queue"});let j={};try{j=JSON.parse(q)}catch(e){}if(j.queue&&j.queue.length){out("APPROVE "+await send(r,{op:"approve",id:j.queue[0].id}));return}}await new Promise(r=>setTimeout(r,300))}out("NO-REQUEST "+dir)})()`;

describe.sequential("roz run gemini (real Gemini CLI 0.61.0's TUI, offline, pty)", () => {
  const worlds = ptyWorlds();
  afterEach(() => worlds.leave());

  test("the guard's ask waits in roz's panel; the human's block reaches the model; advisory said", async () => {
    assertRozBuilt();
    expect(existsSync(GEMINI_BIN), `the pinned Gemini CLI is missing at ${GEMINI_BIN}`).toBe(true);
    const { dir, home, repo } = worlds.enter('gemini-run');
    // `gemini` on PATH, as a user has it (roz agent add --agent gemini starts it from there; not from npm's PATH:
    // a bare `vitest run` has none).
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(GEMINI_BIN, join(bin, 'gemini'));
    // Gemini skips a system settings file below a folder others can write (all of /tmp): roz's store lives in an owner-only folder.
    const storage = ownerOnlyTempDir('.roz-e2e-gemini-run-');
    worlds.closes({
      close: async () => void (process.env.ROZ_E2E_KEEP ? console.log(`store kept: ${storage}`) : rmSync(storage, { recursive: true, force: true })),
    });
    mkdirSync(join(repo, 'build'));
    writeFileSync(join(repo, 'build', 'keep.txt'), 'keep\n');
    const script: GeminiReply[] = [
      { call: 'write_file', args: { file_path: join(repo, 'approve.js'), content: SELF_APPROVE } },
      { call: 'run_shell_command', args: { command: 'node approve.js' } },
      { call: 'run_shell_command', args: { command: 'rm -rf build' } },
    ];
    // Agent g (added to the run later) works on G-TASK; main on everything else.
    const ofG = (r: GeminiRequest): boolean => JSON.stringify(r.raw.contents ?? '').includes('G-TASK');
    const api = await startFakeGeminiApi([
      { name: 'g-rm', when: (r) => ofG(r) && r.functionResponses.length === 0, reply: { call: 'run_shell_command', args: { command: 'rm -rf build' } } },
      { name: 'g-done', when: (r) => ofG(r) && r.functionResponses.length === 1, reply: { say: 'G-DONE: left build alone.' } },
      ...script.map((reply, i) => ({ name: `step-${i}`, when: (r: GeminiRequest) => !ofG(r) && onGemini.afterResponses(i)(r), reply })),
      { name: 'done', when: (r) => !ofG(r) && onGemini.afterResponses(script.length)(r), reply: { say: 'GEMINI-DONE: left build alone.' } },
    ]);
    worlds.closes(api);
    const env: Record<string, string> = {
      TERM: 'xterm-256color',
      HOME: home,
      SHELL: '/bin/bash',
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      ROZ_STORAGE_PATH: storage,
      GIT_CONFIG_NOSYSTEM: '1',
      ...geminiClientEnv(home, api),
    };
    const roz = (...args: string[]) => spawnSync(process.execPath, [ROZ_BIN, ...args], { cwd: repo, env, encoding: 'utf8', timeout: 20_000 });
    const t = worlds.track(
      startPtyScreen(
        process.execPath,
        [ROZ_BIN, 'run', '--approval-timeout', '120', '--no-stats', '--', GEMINI_BIN, '-m', 'gemini-2.5-flash', '--yolo', '-i', 'clean up'],
        {
          cols: 120,
          rows: 40,
          env,
          cwd: repo,
        },
      ),
    );
    const responses = () => api.requests.flatMap((r) => r.functionResponses.map((f) => JSON.stringify(f.response)));
    const dump = () => `\n--- screen:\n${t.screen()}\n--- responses:\n${responses().join('\n')}`;

    // The guard's ask: roz's panel over Gemini's pane; the run is advisory and its status line says so.
    await t
      .waitFor(/APPROVAL NEEDED · run_shell_command[\s\S]*\[b\] block/, "roz's approval panel", 90_000)
      .catch((e: Error) => Promise.reject(new Error(e.message + dump())));
    expect(t.screen()).toContain('rm -rf build');
    expect(t.screen()).toContain('ADVISORY');
    const [record] = readdirSync(join(storage, 'control'));
    const rec = JSON.parse(readFileSync(join(storage, 'control', record!), 'utf8')) as { pid: number; enforcement: { mode: string; reasons: string[] } };
    expect(rec.enforcement.mode).toBe('advisory');
    expect(rec.enforcement.reasons.join('; ')).toMatch(/container runtime/);
    expect(rec.pid, 'the supervisor stays in the window').toBe(t.pid);

    // The agent's helper reached the socket with the record's secret, and was refused.
    const attack = await until(
      'the helper to try',
      60_000,
      () => {
        const out = existsSync(join(repo, 'approve.out')) ? readFileSync(join(repo, 'approve.out'), 'utf8') : '';
        return /APPROVE|NO-REQUEST|ERR/.test(out) ? out : null;
      },
      dump,
    );
    expect(attack, dump()).toMatch(/APPROVE \{"ok":false,"code":"advisory"/);
    // The human's own terminal is refused too: an advisory run takes answers from its window's keyboard only.
    const queued = roz('queue', '--json');
    expect(queued.status, queued.stderr).toBe(0);
    const [entry] = JSON.parse(queued.stdout) as Array<{ id: string; agent: string }>;
    expect(entry).toBeDefined();
    const human = roz('approve', entry!.id);
    expect(human.status, human.stderr).toBe(5);
    expect(human.stderr).toMatch(/advisory[\s\S]*only from the TUI keyboard/);
    expect(existsSync(join(repo, 'build', 'keep.txt')), 'nothing ran yet').toBe(true);

    // The keyboard: b, the reason, Enter. The model reads the reason; build/ stays.
    await blockFromKeyboard(t, REASON);
    await until("the model to read the human's reason", 60_000, () => responses().some((r) => r.includes(REASON)), dump);
    await until('the model to end its turn', 60_000, () => api.requests.length > script.length, dump);
    expect(existsSync(join(repo, 'build', 'keep.txt'))).toBe(true);

    // roz's records: the human's block, from the keyboard, in the session of Gemini's agent, which says advisory.
    const sessions = readdirSync(join(storage, 'sessions'));
    expect(sessions).toHaveLength(1);
    const trace = JSON.parse(roz('trace', sessions[0]!, '--json').stdout) as TraceEvent[];
    expect(trace.filter((e) => e.event === 'roz:HumanDecision').map((e) => [e.decided_by, e.decision, e.code, e.reason, (e as { via?: string }).via])).toEqual([
      ['human', 'deny', 'DESTRUCTIVE_BLOCKED', REASON, 'keyboard'],
    ]);
    expect((JSON.parse(roz('debug', sessions[0]!, '--json').stdout) as { enforcement?: string }).enforcement).toBe('advisory');

    // A second Gemini agent joins this advisory run (`roz agent add --agent gemini`: the running supervisor starts
    // it in its worktree). Its ask waits in the same queue, under its name; the human answers it from the keyboard.
    const add = roz('agent', 'add', 'g', '--agent', 'gemini', '--prompt', 'G-TASK: clean the build', '--', '-m', 'gemini-2.5-flash', '--yolo');
    expect(add.status, add.stderr).toBe(0);
    expect(add.stdout, add.stdout + add.stderr).toMatch(/the running supervisor started it/);
    const gAsk = await until(
      "g's ask in roz queue",
      90_000,
      () => {
        const q = roz('queue', '--json');
        return q.status === 0 ? (JSON.parse(q.stdout) as Array<{ id: string; agent: string; summary: string }>).find((e) => e.agent === 'g') : null;
      },
      dump,
      CLI_POLL_MS,
    );
    expect(gAsk.summary).toMatch(/build/);
    await press(t, 'w');
    if (!/APPROVAL NEEDED[^\n]*agent g/.test(t.screen())) await press(t, HOTKEY, 'w');
    await t
      .waitFor(/APPROVAL NEEDED · run_shell_command · \w+ · agent g[\s\S]*\[b\] block/, "g's request in roz's panel", 20_000)
      .catch((e: Error) => Promise.reject(new Error(e.message + dump())));
    await blockFromKeyboard(t, G_REASON);
    await until(
      "g's model to read the human's reason",
      60_000,
      () => api.requests.some((r) => ofG(r) && JSON.stringify(r.functionResponses).includes(G_REASON)),
      dump,
    );
    expect(existsSync(join(repo, 'build', 'keep.txt'))).toBe(true);

    const stop = roz('agent', 'stop', '--all');
    expect(stop.status, stop.stderr).toBe(0);
    await Promise.race([t.exited, sleep(30_000)]);
  }, 240_000);
});
