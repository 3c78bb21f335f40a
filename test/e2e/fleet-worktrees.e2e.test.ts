// Issue 25's fleet under ONE supervisor, both pinned clients, scripted model:
// `roz run claude` in a real pty in a governed repository with a committed
// ledger (main, idle, in the base checkout), and three agents a, b and c that
// `roz agent add NAME --prompt ...` makes (worktrees beside the repository,
// branches roz/NAME) and the running supervisor starts, each a real client in
// its own worktree with its own settings and sandbox. One fake API plays every
// agent's model (routed by each client's working directory).
//  - asks: a's and then b's `git push --force` wait for the human at the same
//    time; `roz queue --json` lists them in arrival order naming their
//    agents; `Ctrl-] w` brings a's up in the TUI and `a` lets it run; `roz
//    block ID REASON` from another process refuses b's, whose model reads the
//    reason; meanwhile `roz agent ls --json` shows a and b waiting, one
//    request each; a's session records the human's allow (keyboard), b's the
//    block (terminal).
//  - agent a's Bash (a project script, so the sandbox is the wall, not roz's
//    command parser) writes its own worktree with a redirect, python, node,
//    mv and ln -s (the control), then the same into agent b's worktree and
//    into the main checkout: each fails; it commits on roz/a, and cannot
//    `git update-ref refs/heads/main`, write the shared `info/attributes` or
//    `config`. It is never reviewed: `roz agent merge a` is refused.
//  - agent b asks for a review (#roz), the real reviewer (roz:roz) records
//    COMPLETE with `roz decide`, then b commits more work: refused, changed
//    since its approval.
//  - agent c asks for a review, is approved and stays put: merged; main moves,
//    the main checkout follows, c's ledger records arrive in the base's
//    ledger (none lost, none twice) and the merge's record names the agent,
//    the decision and the tree.
//  - `roz agent stop --all` ends the run and leaves no supervisor; each agent
//    was governed by the base checkout's intents file.
// (The roz exec variant this file was is not kept: roz exec in a worktree is
// test/e2e/worktree-sandbox.e2e.test.ts's.)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  bash,
  on,
  reply,
  routeScripts,
  say,
  startFakeApi,
  summarize,
  write,
  type FakeApi,
  type Matcher,
  type ParsedRequest,
  type Step,
} from './harness/fake-api.js';
import { killTree } from './harness/kill-tree.js';
import { RETRY_BWRAP } from './harness/steps.js';
import { OFFLINE_CLIENT } from './harness/run-print.js';
import { assertRozBuilt, reviewerScript, rozReviewerMarker, spawnReviewer, type RozState, type TraceEvent } from './harness/roz.js';
import { claudeBin, createWorkspace, PINNED_CLIENTS, ROZ_BIN, ROZ_PLUGIN_DIR, seedClaudeJson, type CliResult, type Workspace } from './harness/workspace.js';
import { startPtyScreen, type PtyScreen } from '../supervisor/helpers/pty-screen.js';

const LEDGER = join('.orchestration', 'agent_trace.jsonl');
const AGENTS = ['a', 'b', 'c'] as const;
type Agent = (typeof AGENTS)[number];
const HOTKEY = '\x1d';
/** Every client's arguments (main's and, as `roz agent add` records them, each agent's): the tools pre-authorised, so every prompt seen is roz's. */
const CLIENT_ARGS = ['--permission-mode', 'default', '--allowedTools', 'Bash', 'Write', 'Edit'];
const PROMPTS: Record<Agent, string> = {
  a: 'A-TASK: force-push my branch, then run the project script',
  b: '#roz B-TASK: force-push, then write src/b.txt',
  c: '#roz C-TASK: write src/c.txt',
};
/** The destructive command roz asks the human about; its second half leaves a file behind when it ran. */
const push = (name: Agent): string => `git push --force origin roz/${name}; echo ran > src/push-ran.txt`;
const BLOCK_REASON = 'not-now-B: no force pushes today';

const record = (note: string): string =>
  JSON.stringify({
    version: '0.1.0',
    id: `base-${note}-${Math.random().toString(16).slice(2)}`,
    timestamp: new Date().toISOString(),
    tool: { name: 'roz', version: '0.1.0' },
    files: [{ path: `src/${note}`, conversations: [] }],
    metadata: { 'dev.roz': { session_id: 'human', intent_id: 'INT-001', mutation_class: 'AST_REFACTOR', tool_name: 'Write' } },
  });

const ids = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { id: string }).id);

const bashRan =
  (re: RegExp): Matcher =>
  (req) =>
    req.toolResults.some((r) => r.toolName === 'Bash' && re.test(String(r.toolInput?.command ?? '')));

function probes(text: string): Record<string, { code: number; out: string }> {
  const out: Record<string, { code: number; out: string }> = {};
  for (const m of text.matchAll(/^([A-Za-z-]+)=(\d+) ?(.*)$/gm)) out[m[1]!] = { code: Number(m[2]), out: m[3] ?? '' };
  return out;
}

const WRITE_WAYS = ['redirect', 'python', 'node', 'mv', 'ln'] as const;

/**
 * Agent a's script: every way of writing, into its own worktree's src/ (the
 * control), into agent b's worktree and into the main checkout; then git.
 * Run as `bash src/probe.sh`: roz runs a project script like `make` (the scope
 * audit sees what it changed), so what stops the writes here is the sandbox.
 */
function probeScript(b: string, main: string): string {
  return `#!/bin/bash
B=${JSON.stringify(b)}
M=${JSON.stringify(main)}
C="$(git rev-parse --path-format=absolute --git-common-dir)"
w_redirect() { echo x > "$1/evil-redirect.txt"; }
w_python() { python3 -c 'import sys; open(sys.argv[1], "w").write("x")' "$1/evil-python.txt"; }
w_node() { node -e 'require("fs").writeFileSync(process.argv[1], "x")' "$1/evil-node.txt"; }
w_mv() { echo x > "$TMPDIR/mv.$$" && mv "$TMPDIR/mv.$$" "$1/evil-mv.txt"; }
w_ln() { ln -s /etc/hostname "$1/evil-ln"; }
probe() { n=$1; shift; "$@" >"$TMPDIR/$n.out" 2>&1; echo "$n=$? $(tail -c 160 "$TMPDIR/$n.out" | tr '\\n' ' ')"; }
for w in ${WRITE_WAYS.join(' ')}; do
  probe "OWN-$w" "w_$w" "$PWD/src"
  probe "B-$w" "w_$w" "$B"
  probe "MAIN-$w" "w_$w" "$M"
done
probe MAIN-mvout mv "$M/README.md" "$TMPDIR/stolen-main.md"
probe B-mvout mv "$B/README.md" "$TMPDIR/stolen-b.md"
probe GIT-COMMIT sh -c 'echo a > src/a.txt && git add src/a.txt && git commit -q -m agent-a-work && git log -1 --format=%s'
probe GIT-UPDATE-REF-MAIN git update-ref refs/heads/main HEAD
probe GIT-INFO-ATTR sh -c 'mkdir -p "$1/info" && echo "* filter=evil" > "$1/info/attributes"' _ "$C"
probe GIT-CONFIG sh -c 'echo "[core]" >> "$1/config"' _ "$C"
echo ALL-PROBES-DONE
`;
}

const SELECT: Step = { name: 'select', when: on.start(), reply: reply('Selecting the intent.', bash('roz intent select INT-001', 'Select INT-001')) };
const GIVE_UP: Step = { name: 'give-up', when: on.stopFeedback(), reply: say('Leaving it to the human.'), times: Infinity };

function scriptA(wt: string, b: string, main: string): Step[] {
  return [
    RETRY_BWRAP,
    SELECT,
    { name: 'push', when: bashRan(/intent select/), reply: reply('Force-pushing: roz asks the human first.', bash(push('a'), 'Force-push')) },
    { name: 'write-probe', when: bashRan(/push --force/), reply: reply(undefined, write(join(wt, 'src', 'probe.sh'), probeScript(b, main))) },
    { name: 'probe', when: on.toolResult('Write'), reply: reply(undefined, bash('bash src/probe.sh', 'Run the project script')) },
    { name: 'done', when: bashRan(/probe\.sh/), reply: say('A-DONE.') },
    GIVE_UP,
  ];
}

/**
 * The reviewer has ended: 2.1.330's TUI runs it in the background (its end
 * comes as a `<task-notification>` prompt), 2.1.197's in the foreground (the
 * Agent tool's result is the reviewer's last word).
 */
const reviewDone: Matcher = on.any(on.user(/<task-notification>/), (req) =>
  req.toolResults.some((r) => (r.toolName === 'Agent' || r.toolName === 'Task') && !/Async agent launched/.test(r.text)),
);

/**
 * Write src/NAME.txt, commit it with the ledger, ask for a review (the TUI's
 * client may run the reviewer in the background: wait for its end); b
 * first force-pushes once `go` exists (so its ask arrives after a's) and then
 * commits more work after the approval.
 */
function scriptReviewed(name: 'b' | 'c', wt: string, go: string): Step[] {
  const file = `src/${name}.txt`;
  const steps: Step[] = [RETRY_BWRAP, SELECT];
  let next = bashRan(/intent select/);
  if (name === 'b') {
    steps.push(
      {
        name: 'wait-for-a',
        when: next,
        reply: reply(undefined, bash(`for i in $(seq 1 900); do [ -e ${go} ] && break; sleep 0.1; done; echo WAITED`, 'Wait for my turn')),
      },
      { name: 'push', when: bashRan(/WAITED/), reply: reply('Force-pushing: roz asks the human first.', bash(push('b'), 'Force-push')) },
    );
    next = bashRan(/push --force/);
  }
  steps.push(
    { name: 'write', when: next, reply: reply(undefined, write(join(wt, file), `${name} v1\n`)) },
    {
      name: 'commit',
      when: on.toolResult('Write'),
      reply: reply(undefined, bash(`git add -- ${file} ${LEDGER} && git commit -q -m ${name}-work && echo COMMITTED`, 'Commit the work')),
    },
    { name: 'claim-done', when: bashRan(/COMMITTED/), reply: say('Done.') },
    { name: 'spawn', when: on.stopFeedback(/SESSION_ID=/), reply: (req) => spawnReviewer(req, { background: false, summary: `Wrote ${file}.` }), times: 1 },
  );
  if (name === 'b')
    steps.push(
      {
        name: 'more',
        when: reviewDone,
        reply: reply(undefined, bash(`echo 'b v2, after the approval' > ${file} && git commit -q -am b-more && echo MORE-COMMITTED`, 'More work')),
      },
      { name: 'done-again', when: bashRan(/MORE-COMMITTED/), reply: say('B-DONE.') },
    );
  else steps.push({ name: 'reviewed', when: reviewDone, reply: say('C-DONE: reviewed and approved.') });
  // Until the background reviewer's notification arrives the model can only wait.
  steps.push({ name: 'wait', when: on.any(on.toolResult('Agent'), on.stopFeedback()), reply: say('Waiting for the roz:roz reviewer.'), times: Infinity });
  return steps;
}

/** The built CLI in the main checkout, as a child process: the fake API and the pty live in this process and must keep running. */
function roz(ws: Workspace, args: string[], timeoutMs = 120_000): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ROZ_BIN, ...args], { cwd: ws.repo, env: ws.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const git = (ws: Workspace, cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: ws.env, encoding: 'utf8', stdio: 'pipe' }).trim();
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface QueueEntry {
  id: string;
  agent: string;
  tool: string;
  summary: string;
  since: string;
}

interface Fleet {
  ws: Workspace;
  api: FakeApi;
  term: PtyScreen;
  running: boolean;
  main: string;
  common: string;
  wt: Record<Agent, string>;
  go: string;
  baseLedger: string[];
  mainBefore: string;
  /** Requests answered by `roz approve` after a retried push (RETRY_BWRAP). */
  approvedAgain: string[];
}

describe.each(PINNED_CLIENTS)('a fleet of three agents in worktrees under one roz run, client %s', (client) => {
  let f: Fleet;
  /** Set when beforeAll failed and cleaned up itself. */
  let cleaned = false;

  /** The fake API's log and the screen: what a failure needs. */
  const why = (): string =>
    `--- fake API:\n${summarize(f.api.requests)}\n--- script errors: ${JSON.stringify(f.api.scriptErrors)}\n--- screen:\n${f.term.screen()}`;
  const answered = (step: string): ParsedRequest | undefined => f.api.requests.find((r) => r.answeredBy === step);
  /** Set once a wait timed out: the scenario is off its script, so later waits fail at once instead of running out their time. */
  let lost = '';
  /** ROZ_E2E_VERBOSE: when each wait ended, from the start of the run. */
  let t0 = Date.now();
  async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined> | T | undefined, everyMs = 250): Promise<T> {
    const deadline = lost ? 0 : Date.now() + ms;
    for (;;) {
      const v = await probe();
      if (v !== undefined && v !== false) {
        if (process.env.ROZ_E2E_VERBOSE) process.stderr.write(`[${client}] +${((Date.now() - t0) / 1000).toFixed(1)} s ${what}\n`);
        return v;
      }
      if (Date.now() > deadline) {
        if (lost) throw new Error(`not waiting for ${what}: the scenario already timed out waiting for ${lost}`);
        lost = what;
        throw new Error(`timed out (${ms} ms) waiting for ${what}\n${why()}`);
      }
      await pause(everyMs);
    }
  }
  async function queue(): Promise<QueueEntry[]> {
    const r = await roz(f.ws, ['queue', '--json']);
    if (r.code !== 0) throw new Error(`roz queue --json exited ${r.code}: ${r.stderr}\n${why()}`);
    return JSON.parse(r.stdout) as QueueEntry[];
  }
  /** A push a bwrap race made the model retry is asked again: the human approves it from the terminal. */
  async function approveRetriedPush(): Promise<void> {
    for (const q of await queue())
      if (q.agent === 'a' && /force-push/.test(q.summary) && !f.approvedAgain.includes(q.id)) {
        const r = await roz(f.ws, ['approve', q.id]);
        expect(r.code, r.stderr).toBe(0);
        f.approvedAgain.push(q.id);
      }
  }
  /** Each agent's sessions (its main session and its reviewer's are one), by the project roz recorded for it, with roz's state of each. */
  async function sessions(): Promise<Map<string, Array<{ sid: string; state: RozState }>>> {
    const dir = join(f.ws.storage, 'sessions');
    const sids = existsSync(dir) ? readdirSync(dir) : [];
    const debugs = await Promise.all(sids.map((sid) => roz(f.ws, ['debug', sid, '--json'])));
    const out = new Map<string, Array<{ sid: string; state: RozState }>>();
    for (const [i, sid] of sids.entries()) {
      if (debugs[i]!.code !== 0) continue;
      const state = JSON.parse(debugs[i]!.stdout) as RozState & { git?: { project_dir?: string } };
      const project = state.git?.project_dir;
      const name = AGENTS.find((n) => project === f.wt[n]) ?? (project === f.main ? 'main' : `? ${project}`);
      out.set(name, [...(out.get(name) ?? []), { sid, state }]);
    }
    return out;
  }

  beforeAll(async () => {
    assertRozBuilt();
    const claude = claudeBin(client);
    expect(existsSync(claude), `the pinned client is missing at ${claude}`).toBe(true);
    const ws = createWorkspace({ ROZ_MAX_BLOCKS: '1' });
    const main = realpathSync(ws.repo);
    ws.repo = main;
    let api: FakeApi | undefined;
    try {
      mkdirSync(join(main, '.orchestration'));
      mkdirSync(join(main, 'src'));
      writeFileSync(
        join(main, '.orchestration', 'active_intents.yaml'),
        'active_intents:\n  - id: INT-001\n    name: Core\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n',
      );
      const baseLedger = [record('one'), record('two')];
      writeFileSync(join(main, LEDGER), `${baseLedger.join('\n')}\n`);
      writeFileSync(join(main, 'src', 'app.txt'), 'app\n');
      git(ws, main, 'add', '-A');
      git(ws, main, 'commit', '-q', '-m', 'intents, ledger and app');
      // Where `roz agent add` will put each worktree, trusted like the checkout (the client asks about a new folder otherwise).
      const wt = Object.fromEntries(AGENTS.map((n) => [n, join(`${main}.roz`, n)])) as Record<Agent, string>;
      seedClaudeJson({ repo: main, home: ws.home }, 'sk-ant-e2e', client);
      const cjFile = join(ws.home, '.claude.json');
      const cj = JSON.parse(readFileSync(cjFile, 'utf8')) as { projects: Record<string, unknown> };
      for (const n of AGENTS) cj.projects[wt[n]] = cj.projects[main];
      writeFileSync(cjFile, JSON.stringify(cj, null, 2));
      const go = join(ws.root, 'go-b');

      // One fake API for every client: a request belongs to the agent whose directory the client names
      // (in the system prompt on 2.1.197, in an in-band system message on 2.1.330); a reviewer
      // subagent of 2.1.197 names none, so its request goes by the session id in its prompt.
      const bySession = new Map<string, string>();
      const agentOf = (req: ParsedRequest): string | undefined => {
        const env = [req.system, ...req.messages.filter((m) => m.role === 'system').map((m) => m.text)].join('\n');
        const dir = /Primary working directory:\s*(\S+)/.exec(env)?.[1];
        const name = dir === main ? 'main' : (AGENTS.find((n) => dir === wt[n]) ?? (req.sessionId ? bySession.get(req.sessionId) : undefined));
        if (name && req.sessionId && req.role === 'main') bySession.set(req.sessionId, name);
        return name;
      };
      const marker = rozReviewerMarker();
      api = await startFakeApi(
        {
          reviewerMarker: marker,
          main: routeScripts(agentOf, { main: [], a: scriptA(wt.a, wt.b, main), b: scriptReviewed('b', wt.b, go), c: scriptReviewed('c', wt.c, go) }),
          reviewer: routeScripts(agentOf, {
            b: [RETRY_BWRAP, ...reviewerScript('COMPLETE', 'b.txt is right')],
            c: [RETRY_BWRAP, ...reviewerScript('COMPLETE', 'c.txt is right')],
          }),
        },
        { maxRequests: 120 },
      );
      Object.assign(ws.env, {
        TERM: 'xterm-256color',
        ANTHROPIC_BASE_URL: api.url,
        ANTHROPIC_API_KEY: 'sk-ant-e2e',
        ...OFFLINE_CLIENT,
      });
      delete ws.env.NO_COLOR;
      const mainBefore = git(ws, main, 'rev-parse', 'main');

      const started = Date.now();
      const term = startPtyScreen(
        process.execPath,
        [ROZ_BIN, 'run', '--approval-timeout', '180', '--no-stats', '--plugin-dir', ROZ_PLUGIN_DIR, '--', claude, ...CLIENT_ARGS],
        { cols: 120, rows: 40, env: ws.env as Record<string, string>, cwd: main },
      );
      f = { ws, api, term, running: true, main, common: join(main, '.git'), wt, go, baseLedger: ids(baseLedger.join('\n')), mainBefore, approvedAgain: [] };
      void term.exited.then(() => (f.running = false));
      await term.waitFor(/roz │/, "roz's status line", 60_000);
      t0 = Date.now();
      if (process.env.ROZ_E2E_VERBOSE) process.stderr.write(`[${client}] roz run's status line after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

      // Three agents added from another terminal while the run runs: each gets its worktree and branch, and the running supervisor starts it.
      const adds = await Promise.all(AGENTS.map((name) => roz(ws, ['agent', 'add', name, '--prompt', PROMPTS[name], '--', ...CLIENT_ARGS])));
      for (const [i, name] of AGENTS.entries()) {
        const add = adds[i]!;
        expect(add.code, `${add.stdout}\n${add.stderr}`).toBe(0);
        expect(add.stdout).toContain(wt[name]);
        expect(add.stdout, add.stderr).toMatch(/the running supervisor started it/);
        expect(git(ws, wt[name], 'symbolic-ref', 'HEAD')).toBe(`refs/heads/roz/${name}`);
      }
    } catch (err) {
      // afterAll has nothing left to clean: this run is over.
      if (f?.running) {
        // Every agent and the supervisor (which may outlive the TUI's process), then whatever is left.
        await roz(ws, ['agent', 'stop', '--all'], 20_000);
        await Promise.race([f.term.exited, pause(15_000)]);
        if (f.running) killTree(f.term.pid);
      }
      cleaned = true;
      await api?.close();
      ws.cleanup();
      throw err;
    }
  }, 120_000);

  afterAll(async () => {
    if (!f || cleaned) return;
    if (f.running) {
      await roz(f.ws, ['agent', 'stop', '--all'], 20_000);
      await Promise.race([f.term.exited, pause(15_000)]);
      if (f.running) killTree(f.term.pid);
    }
    await f.api.close();
    f.ws.cleanup();
  }, 60_000);

  test("a's and b's force pushes wait in one queue in arrival order; Ctrl-] w and a allow a's in the TUI, roz block refuses b's", async () => {
    await until("a's model to push", 120_000, () => answered('a:push'));
    const first = await until("a's push in roz's queue", 30_000, async () => (await queue()).find((q) => q.agent === 'a'), 500);
    // b's model pushes only now: its ask arrives after a's, while a's still waits.
    writeFileSync(f.go, 'go\n');
    await until("b's model to push", 90_000, () => answered('b:push'));
    const both = await until(
      "b's push queued behind a's",
      30_000,
      async () => {
        const q = await queue();
        return q.length >= 2 ? q : undefined;
      },
      500,
    );
    expect(
      both.map((q) => [q.agent, q.tool]),
      why(),
    ).toEqual([
      ['a', 'Bash'],
      ['b', 'Bash'],
    ]);
    expect(both[0]!.id).toBe(first.id);
    for (const q of both) expect(q.summary).toMatch(/force-push/);
    expect(Date.parse(both[0]!.since)).toBeLessThanOrEqual(Date.parse(both[1]!.since));
    // roz agent ls (another terminal): a and b wait for the human, one request each; every agent runs enforced, in its own worktree.
    const ls = await roz(f.ws, ['agent', 'ls', '--json']);
    expect(ls.code, ls.stderr).toBe(0);
    const rows = JSON.parse(ls.stdout) as Array<{
      name: string;
      worktree: string;
      branch: string | null;
      state: string;
      pending: number;
      enforcement: string | null;
    }>;
    const row = (n: string) => rows.find((r) => r.name === n);
    expect(
      [row('a'), row('b'), row('c')].map((r) => r && [r.state, r.pending]),
      ls.stdout,
    ).toEqual([
      ['waiting for you', 1],
      ['waiting for you', 1],
      [expect.not.stringMatching(/waiting for you/), 0],
    ]);
    for (const n of AGENTS) expect(row(n), ls.stdout).toMatchObject({ worktree: f.wt[n], branch: `roz/${n}`, enforcement: 'enforced' });
    expect(row('main'), ls.stdout).toMatchObject({ worktree: f.main, pending: 0, enforcement: 'enforced' });
    // The status line, from main's pane, says two wait elsewhere.
    await f.term.waitFor(() => /!! 2 waiting in a,b/.test(f.term.row(39)), 'the status line naming a and b', 20_000);

    // The jump key brings the oldest request up: a's.
    f.term.write(HOTKEY);
    await pause(300);
    f.term.write('w');
    const ask = await f.term.waitFor(/APPROVAL NEEDED · Bash · \w+ · agent a ·[\s\S]*\[a\] approve once/, "a's request, its keys armed", 20_000);
    expect(ask).toContain('git push --force origin roz/a');
    await pause(1_000);
    f.term.write('a');
    const left = await until(
      "a's request answered",
      30_000,
      async () => {
        const q = await queue();
        return q.some((e) => e.id === first.id) ? undefined : q;
      },
      500,
    );
    expect(left.map((q) => q.id)).toEqual([both[1]!.id]);

    // b's from another terminal of the human's.
    const block = await roz(f.ws, ['block', both[1]!.id, BLOCK_REASON]);
    expect(block.code, block.stderr).toBe(0);
    // Nothing else waits (but a's push once more, when a bwrap race made its model run it again).
    expect((await queue()).filter((q) => q.agent !== 'a' || !/force-push/.test(q.summary))).toEqual([]);

    // a's command ran (its file is there); b's did not, and b's model read the human's reason.
    const aNext = await until(
      "a's model to hear its push's result",
      90_000,
      async () => {
        if (!answered('a:write-probe') && answered('a:retry-bwrap')) await approveRetriedPush();
        return answered('a:write-probe');
      },
      500,
    );
    const aPush = aNext.toolResults.find((r) => r.toolName === 'Bash')!;
    expect(aPush.isError, why()).toBe(false);
    expect(existsSync(join(f.wt.a, 'src', 'push-ran.txt')), why()).toBe(true);
    const bNext = await until("b's model to hear the refusal", 60_000, () => answered('b:write'));
    const bPush = bNext.toolResults.find((r) => r.toolName === 'Bash')!;
    expect(bPush.isError, why()).toBe(true);
    expect(bPush.text).toContain(BLOCK_REASON);
    expect(existsSync(join(f.wt.b, 'src', 'push-ran.txt'))).toBe(false);
  }, 300_000);

  test("agent a's sandboxed Bash writes its own worktree (control) but not agent b's worktree or the main checkout", async () => {
    const done = await until("a's project script to end", 120_000, () => answered('a:done'));
    const text = done.toolResults
      .filter((r) => r.toolName === 'Bash')
      .map((r) => r.text)
      .join('\n');
    const p = probes(text);
    if (process.env.ROZ_E2E_VERBOSE) process.stderr.write(`[${client}] ${JSON.stringify(p, null, 1)}\n`);
    expect(text, why()).toContain('ALL-PROBES-DONE');
    for (const w of WRITE_WAYS) {
      expect(`OWN-${w}: ${p[`OWN-${w}`]?.code} ${p[`OWN-${w}`]?.out}`, text).toMatch(/^\S+: 0 /);
      for (const where of ['B', 'MAIN']) expect(`${where}-${w}: ${p[`${where}-${w}`]?.code} ${p[`${where}-${w}`]?.out}`, text).toMatch(/^\S+: [1-9]\d* /);
    }
    for (const k of ['B-mvout', 'MAIN-mvout']) expect(`${k}: ${p[k]?.code} ${p[k]?.out}`, text).toMatch(/^\S+: [1-9]\d* /);
    // The control's files are there; nothing landed in b's worktree or the main checkout, and nothing left them.
    for (const name of ['evil-redirect.txt', 'evil-python.txt', 'evil-node.txt', 'evil-mv.txt', 'evil-ln']) {
      expect(lstatSync(join(f.wt.a, 'src', name), { throwIfNoEntry: false }), `own ${name}`).toBeTruthy();
      for (const dir of [f.wt.b, f.main]) expect(lstatSync(join(dir, name), { throwIfNoEntry: false }), join(dir, name)).toBeUndefined();
    }
    for (const dir of [f.wt.b, f.main]) expect(existsSync(join(dir, 'README.md')), dir).toBe(true);

    // Its commit works on roz/a; main, the shared info/attributes and config do not move.
    expect(p['GIT-COMMIT'], text).toEqual({ code: 0, out: 'agent-a-work ' });
    expect(git(f.ws, f.main, 'log', '-1', '--format=%s', 'roz/a')).toBe('agent-a-work');
    for (const k of ['GIT-UPDATE-REF-MAIN', 'GIT-INFO-ATTR', 'GIT-CONFIG']) expect(`${k}: ${p[k]?.code} ${p[k]?.out}`, text).toMatch(/^\S+: [1-9]\d* /);
    expect(existsSync(join(f.common, 'info', 'attributes'))).toBe(false);
    expect(readFileSync(join(f.common, 'config'), 'utf8')).not.toMatch(/\[core\]\n$/);
  }, 180_000);

  test('roz agent merge: a (never reviewed) and b (changed after its approval) are refused; c (approved, unchanged) merges with its ledger records', async () => {
    await until("b's commit after its approval", 180_000, () => answered('b:done-again'));
    await until("c's approval", 120_000, () => answered('c:reviewed'));
    // b and c were reviewed COMPLETE by the real reviewer flow. A decide that bwrap refused to
    // start (RETRY_BWRAP) was already recorded from its PreToolUse payload, so its retry records
    // the same COMPLETE again: every decision is COMPLETE, not exactly one.
    const byAgent = await sessions();
    const sessionOf: Record<string, string> = {};
    for (const name of ['b', 'c'] as const) {
      const [s] = byAgent.get(name) ?? [];
      expect(s, `${name}'s session: ${JSON.stringify([...byAgent.keys()])}`).toBeTruthy();
      const kinds = s!.state.review.decision_history.map((d) => d.kind);
      expect(kinds.length, why()).toBeGreaterThan(0);
      expect(new Set(kinds), why()).toEqual(new Set(['complete']));
      sessionOf[name] = s!.sid;
    }
    expect(git(f.ws, f.main, 'log', '-1', '--format=%s', 'roz/b')).toBe('b-more');
    expect(git(f.ws, f.main, 'log', '-1', '--format=%s', 'roz/c')).toBe('c-work');
    expect(git(f.ws, f.main, 'rev-parse', 'main'), 'no agent moved main').toBe(f.mainBefore);

    const a = await roz(f.ws, ['agent', 'merge', 'a']);
    expect(a.code, a.stderr).toBe(5);
    expect(a.stderr).toMatch(/never reviewed/);
    const b = await roz(f.ws, ['agent', 'merge', 'b']);
    expect(b.code, b.stderr).toBe(5);
    expect(b.stderr).toMatch(/changed since its approval/);
    expect(git(f.ws, f.main, 'rev-parse', 'main')).toBe(f.mainBefore);

    // c's records: its branch's ledger and its worktree's, each beyond the base's.
    const cTracked = ids(git(f.ws, f.main, 'show', `roz/c:${LEDGER}`));
    const cWorking = ids(readFileSync(join(f.wt.c, LEDGER), 'utf8'));
    const cRecords = [...new Set([...cTracked, ...cWorking])].filter((id) => !f.baseLedger.includes(id));
    expect(cRecords.length, 'c wrote ledger records (its Write)').toBeGreaterThan(0);

    const c = await roz(f.ws, ['agent', 'merge', 'c']);
    expect(c.code, `${c.stdout}\n${c.stderr}`).toBe(0);
    expect(c.stdout).toMatch(/merged roz\/c into main/);
    const mainAfter = git(f.ws, f.main, 'rev-parse', 'main');
    expect(mainAfter).not.toBe(f.mainBefore);
    expect(git(f.ws, f.main, 'merge-base', '--is-ancestor', 'roz/c', 'main')).toBe('');
    expect(readFileSync(join(f.main, 'src', 'c.txt'), 'utf8')).toBe('c v1\n');
    expect(existsSync(join(f.main, 'src', 'b.txt'))).toBe(false);

    // The base's ledger: its own records, then c's, each once, then the merge's record.
    const after = readFileSync(join(f.main, LEDGER), 'utf8');
    const got = ids(after);
    expect(got.slice(0, f.baseLedger.length)).toEqual(f.baseLedger);
    expect(new Set(got).size, 'no record twice').toBe(got.length);
    for (const id of cRecords) expect(got, `c's record ${id}`).toContain(id);
    expect(got).toHaveLength(f.baseLedger.length + cRecords.length + 1);
    const merge = JSON.parse(after.trim().split('\n').at(-1)!).metadata['dev.roz'];
    expect(merge).toMatchObject({
      tool_name: 'roz:merge',
      decided_by: userInfo().username,
      merge: { agent: 'c', branch: 'roz/c', base: 'main', review: { decision: 'COMPLETE', session_id: sessionOf.c } },
    });
    expect(merge.merge.tree).toBe(git(f.ws, f.main, 'rev-parse', 'main^{tree}'));
    // The tracked ledger in main holds no record twice either.
    const tracked = ids(git(f.ws, f.main, 'show', `main:${LEDGER}`));
    expect(new Set(tracked).size).toBe(tracked.length);
  }, 300_000);

  test("roz agent stop --all ends the run; a's session records the human's allow from the keyboard, b's the block from the terminal, none other a decision", async () => {
    const stop = await roz(f.ws, ['agent', 'stop', '--all'], 30_000);
    expect(stop.code, stop.stderr).toBe(0);
    await Promise.race([f.term.exited, pause(30_000)]);
    expect(f.running, 'roz run ended').toBe(false);
    // No supervisor is left running for the project (roz run's may run apart from its window).
    const gone = await until(
      'no supervisor left',
      15_000,
      async () => {
        const q = await roz(f.ws, ['queue']);
        return q.code === 3 ? q : undefined;
      },
      500,
    );
    expect(gone.stderr).toMatch(/no roz supervisor is running/);

    const byAgent = await sessions();
    // Every session is one of the four agents' (main's in the base checkout, each other one's in its worktree).
    expect([...byAgent.keys()].filter((n) => n !== 'main').sort(), JSON.stringify([...byAgent])).toEqual(['a', 'b', 'c']);
    const human: Record<string, unknown[][]> = {};
    const governed: Record<string, unknown> = {};
    const launched: Record<string, { enforcement: unknown; hooks: unknown }> = {};
    for (const [name, list] of byAgent)
      for (const { sid } of list) {
        const r = await roz(f.ws, ['trace', sid, '--json']);
        expect(r.code, r.stderr).toBe(0);
        const trace = JSON.parse(r.stdout) as TraceEvent[];
        const on = trace.find((e) => e.event === 'roz:GovernanceOn');
        const started = trace.find((e) => e.event === 'roz:SessionStarted');
        if (started) launched[name] = { enforcement: started.enforcement, hooks: started.hooks };
        if (on) governed[name] = { root: on.root, intents: on.intents };
        const got = trace
          .filter((e) => e.event === 'roz:HumanDecision')
          .map((e) => [e.decision, e.via, e.tool_name, String(e.reason ?? '').includes(BLOCK_REASON)]);
        human[name] = [...(human[name] ?? []), ...got];
      }
    // a: allowed from the keyboard (and, after a bwrap race, its retried push from the terminal).
    expect(human.a, JSON.stringify(human)).toEqual([['allow', 'keyboard', 'Bash', false], ...f.approvedAgain.map(() => ['allow', 'terminal', 'Bash', false])]);
    expect(human.b, JSON.stringify(human)).toEqual([['deny', 'terminal', 'Bash', true]]);
    expect(human.c ?? []).toEqual([]);
    expect(human.main ?? []).toEqual([]);
    // Every agent enforced (its own settings and sandbox), its hooks as its client takes them: http to
    // the supervisor on 2.1.330, a process per event on 2.1.197.
    for (const n of ['main', ...AGENTS]) {
      expect(launched[n]?.enforcement, JSON.stringify(launched)).toBe('enforced');
      if (client === '2.1.330') expect(launched[n]?.hooks, JSON.stringify(launched)).toBe('http');
      else expect(launched[n]?.hooks, JSON.stringify(launched)).not.toBe('http');
    }
    // Each agent the fleet host started in its worktree is governed by the base checkout's intents, its root its worktree.
    for (const n of AGENTS)
      expect(governed[n], JSON.stringify(governed)).toEqual({ root: f.wt[n], intents: join(f.main, '.orchestration', 'active_intents.yaml') });
  }, 120_000);
});
