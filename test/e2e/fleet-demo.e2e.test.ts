// `npm run demo -- --fleet` end to end (issue 25): the demo's banner says
// what to try; roz run starts main in the base checkout, the demo adds b and c
// with `roz agent add` while it runs, and each one's destructive command
// waits for the human. In a real pty: Ctrl-] 6 lists the agents and the
// queue, `w` brings the oldest request up, `a` answers it, `m` on that agent
// is refused (its branch's commit was never reviewed).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { FLEET_AGENTS, fleetWorktree } from '../../scripts/demo/fleet-scenario.js';
import { demoPaths } from '../../scripts/demo/scenario.js';
import { startPtyScreen, type PtyScreen } from '../supervisor/helpers/pty-screen.js';
import { killTree } from './harness/kill-tree.js';
import { assertRozBuilt } from './harness/roz.js';
import { claudeBin, ROZ_PATH_CLIENTS, REPO_ROOT, ROZ_BIN } from './harness/workspace.js';

const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'USER', 'LOGNAME', 'TZ'];
const HOTKEY = '\x1d';

async function press(t: PtyScreen, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    t.write(k);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe.sequential.each(ROZ_PATH_CLIENTS)('npm run demo -- --fleet: agents in one roz run, real clients %s, scripted model', (client) => {
  let term: PtyScreen | undefined;
  let running = false;
  let dir: string | undefined;
  afterEach(() => {
    if (term && running) killTree(term.pid);
    term = undefined;
    if (dir && !process.env.ROZ_E2E_KEEP) rmSync(dir, { recursive: true, force: true });
  });

  test('the agents tab lists main, b and c with requests waiting; w brings one up, a answers it; m on it is refused', async () => {
    assertRozBuilt();
    expect(existsSync(claudeBin(client)), `the pinned client is missing at ${claudeBin(client)}`).toBe(true);
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'roz-e2e-fleet-demo-')));
    // No ROZ_DEMO_DIR: the demo makes its own temp project, in a TMPDIR of the test's, and must remove it.
    const env: Record<string, string> = { TERM: 'xterm-256color', COLORTERM: 'truecolor', ROZ_DEMO_CLIENT: client };
    for (const k of INHERITED) if (process.env[k] !== undefined) env[k] = process.env[k]!;
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    env.TMPDIR = tmp;
    const t = startPtyScreen(process.execPath, [join(REPO_ROOT, 'scripts', 'demo.mjs'), '--fleet'], { cols: 120, rows: 40, env, cwd: REPO_ROOT });
    term = t;
    running = true;
    void t.exited.then(() => (running = false));
    let demoDir = '';
    const logs = (): string =>
      ['agents.log', 'fake-api.log']
        .map((f) => {
          try {
            return `--- ${f}:\n${readFileSync(join(demoDir, f), 'utf8')}`;
          } catch {
            return `--- (no ${f})`;
          }
        })
        .join('\n');
    const step = (cond: RegExp | string | ((s: string) => boolean), what: string, ms: number): Promise<string> =>
      t.waitFor(cond, what, ms).catch((err: Error) => {
        throw new Error(`${err.message}\n${logs()}`);
      });

    // The banner: what to try, before the TUI starts.
    const banner = await step('Press Enter to start', 'the fleet demo banner', 30_000);
    expect(banner).toMatch(/What to try:/);
    expect(banner).toMatch(new RegExp(`several real Claude Code clients\\s+\\(${client.replace(/\./g, '\\.')}\\)`));
    expect(banner).toMatch(/Ctrl-\] 6\s+the agents tab/);
    expect(banner).toMatch(/w\s+jump to the agent that needs you/);
    const project = /project\s+(\S+)/.exec(banner)?.[1];
    expect(project, banner).toBeTruthy();
    demoDir = dirname(project!);
    expect(demoDir.startsWith(tmp), demoDir).toBe(true);
    const p = demoPaths(demoDir);
    t.write('\r');

    await step(/roz │/, "roz's status line", 60_000);
    // b and c, added while the run runs, each ask for their destructive command while main is in view.
    await step(() => /!! \d waiting in [bc]/.test(t.row(39)), 'the status line names an agent waiting', 120_000);
    await new Promise((r) => setTimeout(r, 5_000));
    for (const a of FLEET_AGENTS) expect(existsSync(fleetWorktree(p, a.name)), `${a.name}'s worktree`).toBe(true);

    await press(t, HOTKEY, '6');
    const tab = await step(/agents · 3 · \d waiting for you[\s\S]*queue · \d waiting/, 'the agents tab: three agents, requests waiting', 20_000);
    // A row per agent: the selection mark (›), `!` for one waiting for you, or a blank, then its name.
    for (const name of ['main', 'b', 'c']) expect(tab).toMatch(new RegExp(`^[›! ] ${name} `, 'm'));
    expect(tab).toMatch(/^! [bc] .*waiting for you/m);
    // Each row: where it works and its enforcement from its launch (not only the agent in view's), and main,
    // which got no prompt, idle since its SessionStart (not "starting").
    expect(tab).toMatch(/^[› ] main\s+\(base checkout\)\s+idle\s.*\senforced\s*$/m);
    for (const name of ['b', 'c']) expect(tab).toMatch(new RegExp(`^[›! ] ${name}\\s+roz/${name}\\s.*\\senforced\\s*$`, 'm'));

    // w: the oldest request comes up with its agent's name and command; a lets it run.
    await press(t, 'w');
    const ask = await step(/APPROVAL NEEDED · Bash · \w+ · agent ([bc]) ·[\s\S]*\[a\] approve once/, 'a request, its keys armed', 20_000);
    const who = /agent ([bc]) ·/.exec(ask)![1]!;
    const agent = FLEET_AGENTS.find((a) => a.name === who)!;
    expect(ask).toContain(agent.command);
    await new Promise((r) => setTimeout(r, 1_000));
    t.write('a');
    await step((s) => !s.includes('APPROVAL NEEDED') || !s.includes(`agent ${who} ·`), 'answered', 30_000);

    // m on the agent just answered (its draft-notes commit was never reviewed): refused.
    // (After the answer the keyboard is still in roz's views.)
    await press(t, '6');
    await step(/agents · 3/, 'the agents tab again', 10_000);
    const mark = new RegExp(`› ${who} `);
    for (const k of ['k', 'k', 'k', 'j', 'j', 'j']) {
      if (mark.test(t.screen())) break;
      await press(t, k);
    }
    await step(mark, `${who} selected`, 10_000);
    await press(t, 'm');
    await step(new RegExp(`${who}'s work was never reviewed`), 'the merge refused', 30_000);

    // d: what it would have merged — its work against its base, by roz's own reading: the draft notes commit, coloured.
    await step(new RegExp(`› ${who}\\s+roz/${who}\\s.*\\+\\d+ −\\d+ ↑1 ↓0`), `${who}'s +N −M in the list`, 30_000);
    await press(t, 'd');
    const diff = await step(new RegExp(`diff · ${who} · \\+\\d+ −\\d+ ↑1 ↓0[\\s\\S]*\\+# ${who}'s notes`), `${who}'s diff`, 30_000);
    expect(diff).toContain(`${who}: draft notes`);
    expect(diff).toMatch(new RegExp(`A NOTES-${who}\\.md\\s+\\+3 −0\\s+committed`));
    await press(t, '\x1b');
    await step(/agents · 3/, 'back to the list', 10_000);

    // Every agent stopped from another terminal of the human's: the run ends, the demo removes its project.
    const stop = spawnSync(process.execPath, [ROZ_BIN, 'agent', 'stop', '--all'], {
      cwd: p.repo,
      env: { ...env, HOME: p.home, ROZ_STORAGE_PATH: p.storage, GIT_CONFIG_NOSYSTEM: '1' },
      encoding: 'utf8',
    });
    expect(stop.status, stop.stderr).toBe(0);
    await step(/roz fleet demo finished \(roz run exited \d+\)\. Temp project removed\./, 'the epilogue', 30_000);
    await t.exited;
    running = false;
    expect(existsSync(demoDir), 'the temp project is removed').toBe(false);
    expect(readdirSync(tmp).filter((n) => n.startsWith('roz-demo'))).toEqual([]);
  }, 300_000);
});
