// Several agents in one `roz run`, in a real pseudo-terminal, through the
// built CLI (plugin/bin/roz) with a fake agent command: `n` adds agent b (its
// worktree and branch, as `roz agent add`), b's request arrives while the
// human looks at main (bell + OSC 9, the status line says where it waits,
// main's pane stays), the jump key brings b's pane and its request up, the
// answer reaches b's hook only; `m` refuses to merge an unreviewed branch and
// offers the human's review (its branch's diff, `n` leaves it, `y` approves
// that commit and merges), `x` stops b, and the run ends with main.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundle, repoRoot } from './helpers/bundle.js';
import { startPtyScreen, type PtyScreen } from './helpers/pty-screen.js';

const HOTKEY = '\x1d';
const roz = join(repoRoot, 'plugin', 'bin', 'roz');
const fakeClaude = join(repoRoot, 'test/supervisor/fixtures/fake-claude.mjs');
let fakeHook: string;
let running: PtyScreen | null = null;
const dirs: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(repoRoot, 'plugin', 'dist', 'cli.mjs'))) throw new Error('run npm run build first: this test runs the built CLI');
  fakeHook = await bundle('test/supervisor/fixtures/fake-hook.ts');
}, 60_000);

afterEach(() => {
  running?.kill();
  running = null;
});

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Keys one by one (Ink reads a chunk of several keys as text, not as keys). */
async function press(pty: PtyScreen, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    pty.write(k);
    await new Promise((r) => setTimeout(r, 150));
  }
}

function gitRepo() {
  const top = realpathSync(mkdtempSync(join(tmpdir(), 'roz-fleet-pty-')));
  dirs.push(top);
  const repo = join(top, 'proj');
  const home = join(top, 'home');
  mkdirSync(repo);
  mkdirSync(home);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, HOME: home }, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 'T');
  writeFileSync(join(repo, 'README.md'), 'hello\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  return { top, repo, home, store: join(top, 'store') };
}

function start(cols: number, rows: number) {
  const w = gitRepo();
  // The user's [notify] command: writes the request it was told about (the supervisor runs it, TUI or not).
  const notify = join(w.top, 'notify.js');
  writeFileSync(
    notify,
    `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(join(w.top, 'notified.jsonl'))}, JSON.stringify({ agent: process.env.ROZ_AGENT, tool: process.env.ROZ_TOOL, summary: process.env.ROZ_SUMMARY, id: process.env.ROZ_REQUEST_ID }) + '\\n');\n`,
    { mode: 0o755 },
  );
  mkdirSync(w.store, { recursive: true });
  writeFileSync(join(w.store, 'config.toml'), `[notify]\ncommand = [${JSON.stringify(notify)}]\n`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: w.home,
    ROZ_STORAGE_PATH: w.store,
    FAKE_HOOK: fakeHook,
    FAKE_ASK_DELAY_MS: '2500',
    TERM: 'xterm-256color',
  };
  running = startPtyScreen(process.execPath, [roz, 'run', '--approval-timeout', '60', '--no-stats', '--', process.execPath, fakeClaude], {
    cols,
    rows,
    env,
    cwd: w.repo,
  });
  return { pty: running, ...w };
}

describe('a fleet in one roz run (pty, built CLI)', () => {
  it("adds agent b with n, b's request waits while main is in view, the jump key brings b's pane and request up", async () => {
    const cols = 120;
    const rows = 32;
    const { pty, top, store, repo } = start(cols, rows);
    await pty.waitFor('FAKE CLAUDE READY', 'main started');
    expect(pty.screen()).toContain('agent=main');

    // The agents tab: only main yet, and how to add one.
    await press(pty, HOTKEY, '6');
    await pty.waitFor(/agents · 1 · nobody waits for you/, 'the agents tab');
    expect(pty.screen()).toContain('only main runs: n adds an agent');

    // n, a name, Enter, its first prompt (none here), Enter: worktree + branch roz/b, started with main's command and arguments, shown at once.
    pty.write('n');
    await pty.waitFor("new agent's name:", 'the name prompt');
    pty.write('b');
    await pty.waitFor("new agent's name: b▏");
    pty.write('\r');
    await pty.waitFor("b's first prompt: ▏", 'the first prompt asked');
    pty.write('\r');
    await pty.waitFor(/started b in .*proj\.roz\/b/, 'b started in its own worktree', 30_000);
    expect(existsSync(join(top, 'proj.roz', 'b', 'README.md'))).toBe(true);
    await pty.waitFor(/› b\s+roz\/b/, 'b in view, on its branch');

    // Enter: b's own pane (its own screen, its cwd is the worktree).
    pty.write('\r');
    // The cwd may run onto the next row (a long temp path): read the rows joined.
    await pty.waitFor((s) => /FAKE CLAUDE READY .*agent=b cwd=.*proj\.roz\/b/.test(s.replace(/\n/g, '')), "b's pane");
    expect(pty.screen()).not.toContain('agent=main');
    expect(pty.row(rows - 1)).toMatch(/^roz │ agent b │/);

    // b will ask in 2.5 s; meanwhile the human goes to main.
    pty.write('d');
    await pty.waitFor('ASKING SOON');
    await press(pty, HOTKEY, 'k', '\r');
    await pty.waitFor((s) => s.includes('agent=main') && !s.includes('agent=b'), "main's pane again");
    const rawBefore = pty.raw().length;

    // b's request arrives while main is in view: main's pane stays, the status line says where it waits.
    await pty.waitFor(() => /!! 1 waiting in b · Ctrl-\] w to jump/.test(pty.row(rows - 1)), 'the status line names the waiting agent', 20_000);
    expect(pty.screen()).toContain('agent=main');
    expect(pty.screen()).not.toContain('APPROVAL NEEDED');
    const told = pty.raw().slice(rawBefore);
    expect(told).toContain('\x07');
    expect(told).toMatch(/\x1b\]9;roz: b waits for you: Bash: deletes the tree build\/\x07/);
    // The [notify] command ran once, for b's request.
    // Complete lines only: the command may be writing its line as we look (a fresh-clone run read an empty file once).
    const notified = () =>
      existsSync(join(top, 'notified.jsonl'))
        ? readFileSync(join(top, 'notified.jsonl'), 'utf8')
            .split('\n')
            .slice(0, -1)
            .map((l) => JSON.parse(l))
        : [];
    await pty.waitFor(() => notified().length > 0, 'the [notify] command to run', 10_000);
    // The fake agents are not Claude Code, so their launches are advisory: the log says the command's file is theirs to write.
    expect(readFileSync(join(store, 'supervisor.log'), 'utf8')).toMatch(
      /b is advisory \(not confined by the sandbox\): it can write .*config\.toml, which names the \[notify\] command/,
    );
    expect(notified()).toEqual([{ agent: 'b', tool: 'Bash', summary: expect.stringContaining('build/'), id: expect.stringMatching(/\S/) }]);

    // The jump key (w, from roz's views): b's request comes up, for b.
    await press(pty, HOTKEY, 'w');
    await pty.waitFor(/APPROVAL NEEDED · Bash · DESTRUCTIVE_BLOCKED · agent b ·[\s\S]*\[a\] approve once/, "b's request, naming b, its keys armed");
    expect(pty.row(rows - 1)).toMatch(/^!! APPROVAL: Bash rm -rf build/);
    expect(pty.row(rows - 1)).toContain('agent b');
    pty.write('a');
    // The answer goes to b's hook; back in b's pane it shows there.
    await pty.waitFor((s) => !s.includes('APPROVAL NEEDED'), 'the request answered');
    pty.write(HOTKEY);
    await pty.waitFor(/HOOK ANSWER allow: roz: approved by the human/, "b's hook got the human's answer");
    expect(pty.screen()).toContain('agent=b');

    // Main never asked and never got an answer.
    await press(pty, HOTKEY, '6', 'k', '\r');
    await pty.waitFor((s) => s.includes('agent=main'), "main's pane");
    expect(pty.screen()).not.toContain('HOOK ANSWER');

    // b commits work (as the agent would, in its worktree); m on b: the merge gate refuses it, never reviewed.
    const wt = join(top, 'proj.roz', 'b');
    writeFileSync(join(wt, 'work.txt'), 'work\n');
    execFileSync('git', ['add', 'work.txt'], { cwd: wt, stdio: 'pipe' });
    execFileSync('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=b', 'commit', '-qm', 'work'], { cwd: wt, stdio: 'pipe' });
    await press(pty, HOTKEY, '6', 'j');
    await pty.waitFor(/› b /, 'b selected');
    // Its work in the list, and d: its diff against its base commit, coloured; Esc back.
    await pty.waitFor(/› b\s+roz\/b\s.*\+1 −0 ↑1 ↓0/, "b's +N −M in the list", 30_000);
    pty.write('d');
    await pty.waitFor(/diff · b · \+1 −0 ↑1 ↓0 · \d+ lines[\s\S]*\+work/, "b's diff", 30_000);
    expect(pty.raw()).toMatch(/\x1b\[[0-9;]*32m\+work/); // green
    pty.write('\x1b');
    await pty.waitFor(/queue · 0 waiting/, 'back to the list');
    pty.write('m');
    await pty.waitFor(/refused \(exit 5\): refused to merge roz\/b into main: b's work was never reviewed/, 'the merge refused, and why', 30_000);
    // Never reviewed: the human may review it here. The branch's diff comes up with the question; n leaves it, nothing recorded.
    await pty.waitFor(
      /diff · b · \+1 −0 ↑1 ↓0[\s\S]*\+work[\s\S]*review b yourself: y approves exactly this \(roz\/b at [0-9a-f]{12}\) and merges/,
      'the review offered',
      30_000,
    );
    pty.write('n');
    await pty.waitFor(/queue · 0 waiting/, 'back to the list');

    // x then y: b stops and reads "stopped" (not a crash's exit code); the run goes on with main.
    pty.write('x');
    await pty.waitFor('stop b? y stops it', 'the confirmation');
    pty.write('y');
    await pty.waitFor(/stopped b \(its worktree/, 'b stopped');
    await pty.waitFor(/b\s+roz\/b\s+stopped/, 'b stopped in the list');

    // r then y: roz agent rm, run by this window: b's commit is not merged, so it is refused and says how.
    pty.write('r');
    await pty.waitFor("remove b's worktree and branch? y removes them", 'the removal asked');
    pty.write('y');
    await pty.waitFor(/roz\/b has work not merged into main: merge it \(roz agent merge b\)/, 'the removal refused, and why', 30_000);
    expect(existsSync(join(top, 'proj.roz', 'b', 'work.txt'))).toBe(true);
    // m, then y on the review: the human's approval of that commit, recorded here, and the gate merges it.
    const bHead = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: wt, encoding: 'utf8' }).trim();
    pty.write('m');
    await pty.waitFor(/review b yourself: y approves exactly this/, 'the review offered again', 30_000);
    pty.write('y');
    await pty.waitFor(/approved by .*; merged roz\/b into main \(fast-forward\)/, 'approved and merged', 30_000);
    expect(execFileSync('git', ['rev-parse', 'main'], { cwd: repo, encoding: 'utf8' }).trim()).toBe(bHead);
    const approvalLedger = readFileSync(join(repo, '.orchestration', 'agent_trace.jsonl'), 'utf8');
    expect(approvalLedger).toContain('"tool_name":"roz:human-review"');
    expect(approvalLedger).toContain('"by":"human"');
    // Its work dropped by hand (nothing left to lose): r, y removes its worktree and branch, and b leaves the list.
    execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: wt, stdio: 'pipe' });
    execFileSync('git', ['clean', '-qfdx'], { cwd: wt, stdio: 'pipe' });
    pty.write('r');
    await pty.waitFor("remove b's worktree and branch?", 'asked again');
    pty.write('y');
    await pty.waitFor(/removed the worktree .*proj\.roz\/b; deleted the branch roz\/b/, 'removed', 30_000);
    await pty.waitFor((s) => /agents · 1 ·/.test(s) && !/roz\/b\s+exited/.test(s), 'b off the list');
    expect(existsSync(wt)).toBe(false);

    // The human decision was recorded in b's session, not main's.
    const trace = readFileSync(join(store, 'sessions', 'fake-session-b', 'trace.jsonl'), 'utf8');
    expect(trace).toContain('"decided_by":"human"');
    expect(existsSync(join(store, 'sessions', 'fake-session-1', 'trace.jsonl'))).toBe(false);

    await press(pty, '\r');
    await pty.waitFor('agent=main');
    pty.write('q');
    expect(await pty.exited).toBe(3);
  }, 120_000);
});
