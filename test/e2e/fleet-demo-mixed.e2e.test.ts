// `npm run demo -- --fleet --mixed` end to end (issue 33): the fleet demo with
// a Codex CLI agent, cx, among the Claude Code agents, each on its scripted
// model, offline, no API key. The banner names cx; once roz runs, the demo's
// `roz agent add cx --agent codex` has the supervisor start it in its worktree;
// its `rm -rf build` waits in the one queue beside b's and c's requests (the
// agents tab counts four agents), the human blocks it with `roz block` from
// another terminal, and cx's session records the human's decision, enforced.
// The newest Claude pin: the fleet's Claude side is roz's own path here
// (fleet-demo.e2e.test.ts walks it through the TUI); Codex has one pin.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { fleetWorktree } from '../../scripts/demo/fleet-scenario.js';
import { CODEX_AGENT } from '../../scripts/demo/mixed-scenario.js';
import { demoPaths } from '../../scripts/demo/scenario.js';
import { startPtyScreen, type PtyScreen } from '../supervisor/helpers/pty-screen.js';
import { killTree } from './harness/kill-tree.js';
import { assertRozBuilt, type TraceEvent } from './harness/roz.js';
import { claudeBin, REPO_ROOT, ROZ_BIN, ROZ_PATH_CLIENTS } from './harness/workspace.js';
import { until } from './harness/until.js';

const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'USER', 'LOGNAME', 'TZ'];
const HOTKEY = '\x1d';

describe.sequential.each(ROZ_PATH_CLIENTS)('npm run demo -- --fleet --mixed: Claude Code %s and Codex CLI agents, scripted models', (client) => {
  let term: PtyScreen | undefined;
  let running = false;
  let dir: string | undefined;
  afterEach(() => {
    if (term && running) killTree(term.pid);
    term = undefined;
    if (dir && !process.env.ROZ_E2E_KEEP) rmSync(dir, { recursive: true, force: true });
  });

  test("cx, a Codex agent, runs beside b and c under one roz run; its rm -rf waits in roz's queue under its name and the human's block is recorded in its session", async () => {
    assertRozBuilt();
    expect(existsSync(claudeBin(client))).toBe(true);
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'roz-e2e-demo-mixed-')));
    const demoDir = join(dir, 'demo');
    const env: Record<string, string> = { TERM: 'xterm-256color', ROZ_DEMO_CLIENT: client, ROZ_DEMO_DIR: demoDir, ROZ_DEMO_NO_WAIT: '1' };
    for (const k of INHERITED) if (process.env[k] !== undefined) env[k] = process.env[k]!;
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    env.TMPDIR = tmp;
    const t = startPtyScreen(process.execPath, [join(REPO_ROOT, 'scripts', 'demo.mjs'), '--fleet', '--mixed'], { cols: 120, rows: 40, env, cwd: REPO_ROOT });
    term = t;
    running = true;
    void t.exited.then(() => (running = false));
    const p = demoPaths(demoDir);
    const rozEnv = { ...process.env, HOME: p.home, ROZ_STORAGE_PATH: p.storage, GIT_CONFIG_NOSYSTEM: '1', TMPDIR: join(demoDir, 'tmp') };
    const roz = (...args: string[]) => spawnSync(process.execPath, [ROZ_BIN, ...args], { cwd: p.repo, env: rozEnv, encoding: 'utf8' });
    const dump = (): string => {
      const log = join(demoDir, 'agents.log');
      return `\n--- screen:\n${t.screen()}\n--- agents.log:\n${existsSync(log) ? readFileSync(log, 'utf8') : '(none)'}`;
    };

    await t.waitFor(/roz │/, "roz's status line", 60_000).catch((e: Error) => Promise.reject(new Error(e.message + dump())));
    type Entry = { id: string; agent: string; tool: string; summary: string };
    const cx = await until(
      "cx's request in roz queue",
      180_000,
      () => {
        const q = roz('queue', '--json');
        return q.status === 0 ? (JSON.parse(q.stdout) as Entry[]).find((e) => e.agent === CODEX_AGENT.name) : null;
      },
      dump,
      500, // each look starts roz processes: every half second, as before
    );
    expect(cx.summary).toContain('deletes the tree build/');
    expect(existsSync(fleetWorktree(p, CODEX_AGENT.name))).toBe(true);

    // The agents tab: main, b, c and cx under one supervisor; cx's client is codex in roz agent ls.
    await new Promise((r) => setTimeout(r, 1_000));
    t.write(HOTKEY);
    await new Promise((r) => setTimeout(r, 300));
    t.write('6');
    await t.waitFor(/agents · 4/, 'four agents in the tab', 20_000).catch((e: Error) => Promise.reject(new Error(e.message + dump())));
    const rows = JSON.parse(roz('agent', 'ls', '--json').stdout) as Array<{ name: string; client: string }>;
    expect(Object.fromEntries(rows.map((r) => [r.name, r.client]))).toMatchObject({ b: 'claude', c: 'claude', cx: 'codex' });

    const block = roz('block', cx.id, 'not in the demo');
    expect(block.status, block.stderr + block.stdout).toBe(0);
    const decided = await until(
      "the human's decision in cx's session",
      60_000,
      () => {
        const sessions = existsSync(join(p.storage, 'sessions')) ? spawnSync('ls', [join(p.storage, 'sessions')], { encoding: 'utf8' }).stdout.split('\n') : [];
        for (const sid of sessions.filter(Boolean)) {
          const trace = JSON.parse(roz('trace', sid, '--json').stdout || '[]') as TraceEvent[];
          const d = trace.find((e) => e.event === 'roz:HumanDecision' && e.reason === 'not in the demo');
          if (d) return { sid, d };
        }
        return null;
      },
      dump,
      500, // each look starts roz processes: every half second, as before
    );
    expect(decided.d).toMatchObject({ decided_by: 'human', decision: 'deny', code: 'DESTRUCTIVE_BLOCKED' });
    expect((JSON.parse(roz('debug', decided.sid, '--json').stdout) as { enforcement?: string }).enforcement).toBe('enforced');

    roz('agent', 'stop', '--all');
  }, 400_000);
});
