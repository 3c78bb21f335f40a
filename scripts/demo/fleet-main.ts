// `npm run demo -- --fleet`: a fleet in one `roz run claude` (issue 25), with
// the pinned real client and the scripted model, offline, in a temporary
// governed git project. main runs in the base checkout; once roz's supervisor
// is up, the demo adds agents b and c with `roz agent add NAME --prompt ...`
// (the running supervisor starts each in its own worktree), and each one's
// first turn waits for the human: b's destructive command (roz asks), c's Write
// (its client's own dialog, in roz's queue). c commits its file and its `#roz`
// turn ends with roz's reviewer approving it, so `m` merges it.
//
// With --mixed (issue 33): a Codex CLI agent `cx` too, on its own scripted
// model (scripts/demo/mixed-scenario.ts), its requests in the same queue.
//
// Environment as for `npm run demo`: ROZ_DEMO_DIR=<dir> works there (kept),
// ROZ_DEMO_NO_WAIT=1 skips "press Enter to start", ROZ_DEMO_CLIENT=2.1.197
// runs the oldest pinned client.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeApi, summarize } from '../../test/e2e/harness/fake-api.js';
import { FLEET_AGENTS, FLEET_CLIENT_ARGS, fleetScenario, fleetWorktree, setupFleetDemo } from './fleet-scenario.js';
import { DEMO_APPROVAL_TIMEOUT_S, type DemoPaths, demoEnv } from './scenario.js';
import { demoStart, waitForEnter } from './main.js';
import { fleetIntro } from './intros.js';
import { untilAgentsEnd } from './reattach.js';
import { CODEX_AGENT, setupCodex, startCodexModel } from './mixed-scenario.js';

export async function fleetMain(root: string, opts: { mixed?: boolean } = {}): Promise<number> {
  const start = demoStart(root, 'roz-demo-fleet-');
  if (typeof start === 'number') return start;
  const { plugin, rozBin, claude, client, dir, kept } = start;
  try {
    const paths = setupFleetDemo(dir, client);
    const api = await startFakeApi(fleetScenario(paths, plugin), { maxRequests: 120 });
    const codexApi = opts.mixed ? await startCodexModel() : null;
    const env = { ...demoEnv(paths, api.url), ...(codexApi ? setupCodex(root, paths, codexApi) : {}) };
    const b = (s: string): string => (process.env.NO_COLOR ? s : `\x1b[1m${s}\x1b[0m`);
    process.stdout.write(`${fleetIntro({ client, repo: paths.repo, b, ...(codexApi ? { codex: CODEX_AGENT } : {}) }).join('\n')}\n`);
    if (!process.env.ROZ_DEMO_NO_WAIT) {
      process.stdout.write(`${b('Press Enter to start')} (Ctrl-C to quit) `);
      if (!(await waitForEnter())) {
        await api.close();
        await codexApi?.close();
        return 130;
      }
    }

    const args = [
      rozBin,
      'run',
      '--approval-timeout',
      String(DEMO_APPROVAL_TIMEOUT_S),
      '--no-stats',
      '--plugin-dir',
      plugin,
      '--',
      claude,
      ...FLEET_CLIENT_ARGS,
    ];
    const child = spawn(process.execPath, args, { cwd: paths.repo, env, stdio: 'inherit' });
    const ignore = (): void => undefined;
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) process.on(sig, ignore);
    let exited = false;
    const code = new Promise<number>((resolve) => {
      child.on('exit', (c, sig) => {
        exited = true;
        resolve(c ?? (sig ? 128 : 1));
      });
      child.on('error', (err) => {
        exited = true;
        process.stderr.write(`roz demo: could not start roz run: ${err.message}\n`);
        resolve(1);
      });
    });
    void addAgents(paths, rozBin, env, dir, () => exited, codexApi !== null);
    // What the scripted model was asked so far, kept current (the demo's test reads it when a step times out).
    const writeLog = (): void => writeFileSync(join(dir, 'fake-api.log'), `${summarize(api.requests)}\n`);
    const logTimer = setInterval(writeLog, 2_000);
    const rc = await untilAgentsEnd({ rozBin, env, cwd: paths.repo, code: await code, waitForEnter });
    clearInterval(logTimer);
    writeLog();
    await api.close();
    await codexApi?.close();
    process.stdout.write(`\n${b('roz fleet demo finished')} (roz run exited ${rc}).${kept ? ` Kept in ${dir}.` : ' Temp project removed.'}\n`);
    return rc;
  } finally {
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Once roz's supervisor answers on its control socket (`roz queue` exits 0),
 * add each agent: `roz agent add` makes its worktree and asks the running
 * supervisor to start it. Their output goes to agents.log: the terminal is the TUI's.
 */
async function addAgents(p: DemoPaths, rozBin: string, env: Record<string, string>, dir: string, gone: () => boolean, codex: boolean): Promise<void> {
  const log = join(dir, 'agents.log');
  // Not spawnSync: the scripted model's server runs in this process and must keep answering.
  const roz = (...a: string[]): Promise<{ status: number | null; out: string }> =>
    new Promise((resolve) => {
      const c = spawn(process.execPath, [rozBin, ...a], { cwd: p.repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      c.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
      c.on('close', (status) => resolve({ status, out }));
      c.on('error', (err) => resolve({ status: null, out: err.message }));
    });
  const deadline = Date.now() + 60_000;
  while (!gone() && Date.now() < deadline) {
    if ((await roz('queue', '--json')).status === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  // The client in main's pane settles first, so the agents' tab opens on a quiet main.
  await new Promise((r) => setTimeout(r, 2_000));
  for (const a of FLEET_AGENTS) {
    if (gone()) return;
    const r = await roz('agent', 'add', a.name, '--prompt', a.prompt, '--', ...FLEET_CLIENT_ARGS);
    appendFileSync(log, `$ roz agent add ${a.name} (exit ${r.status})\n${r.out}\n`);
    // Work on its branch that nobody reviewed, so `m` has something to refuse (made by the demo, as the human's setup).
    const wt = fleetWorktree(p, a.name);
    if (a.notes && r.status === 0 && existsSync(wt)) {
      writeFileSync(join(wt, `NOTES-${a.name}.md`), `# ${a.name}'s notes\n\nDraft, not reviewed.\n`);
      const git = (...g: string[]) => spawnSync('git', g, { cwd: wt, env, encoding: 'utf8' });
      git('add', `NOTES-${a.name}.md`);
      const c = git('commit', '-q', '-m', `${a.name}: draft notes`);
      appendFileSync(log, `$ git commit in ${wt} (exit ${c.status})\n${c.stdout}${c.stderr}\n`);
    }
  }
  // --mixed: a Codex CLI agent, started by the same supervisor in its own worktree.
  if (codex && !gone()) {
    const r = await roz('agent', 'add', CODEX_AGENT.name, '--agent', 'codex', '--prompt', CODEX_AGENT.prompt);
    appendFileSync(log, `$ roz agent add ${CODEX_AGENT.name} --agent codex (exit ${r.status})\n${r.out}\n`);
  }
}
