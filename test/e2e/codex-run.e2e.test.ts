// `roz run codex` (issue 33): the real pinned Codex CLI's interactive TUI under
// roz's supervisor, in a real pty through the built CLI, offline against the
// scripted Responses API. Codex obeys neither `ask` nor `allow` from a
// PreToolUse hook (docs/clients.md), so roz's hook holds the call until the
// human answers: the scripted agent's `rm -rf build` brings roz's approval
// panel up over Codex's pane, the human blocks it there with a reason, and
// the model reads that reason. Then the agent asks Codex itself to run a
// command outside its sandbox (`sandbox_permissions: require_escalated`):
// Codex's own approval (its PermissionRequest hook) waits in the same queue,
// `roz queue --json` lists it under main, `roz block` from another terminal
// refuses it, and Codex tells its model so. A last `rm -rf` the human approves
// with `roz approve` runs once Codex's own approval of it (its policy asks
// about `rm -rf` too) is approved as well, in the same queue. The session is enforced (Codex's sandbox as roz
// configured it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { CODEX_BIN, codexHome, type FakeResponsesApi, type ResponsesRequest, startFakeResponsesApi } from './harness/fake-responses-api.js';
import { killTree } from './harness/kill-tree.js';
import { blockFromKeyboard, HOTKEY, press } from './harness/pty-world.js';
import { assertRozBuilt, type TraceEvent } from './harness/roz.js';
import { ROZ_BIN, ROZ_PLUGIN_DIR } from './harness/workspace.js';
import { CLI_POLL_MS, until } from './harness/until.js';
import { startPtyScreen, type PtyScreen } from '../supervisor/helpers/pty-screen.js';

const TUI_REASON = 'keep the build';
const CLI_REASON = 'no escalation';

describe.sequential("roz run codex (real Codex CLI 0.169.0's TUI, offline, pty)", () => {
  let term: PtyScreen | undefined;
  let running = false;
  let dir: string | undefined;
  let api: FakeResponsesApi | undefined;
  afterEach(async () => {
    if (term && running) killTree(term.pid);
    term = undefined;
    await api?.close();
    api = undefined;
    if (dir && !process.env.ROZ_E2E_KEEP) rmSync(dir, { recursive: true, force: true });
  });

  test("the guard's ask and Codex's own approval wait in roz's queue; answered in the TUI and from the CLI; the model reads each reason", async () => {
    assertRozBuilt();
    expect(existsSync(CODEX_BIN), `the pinned Codex CLI is missing at ${CODEX_BIN}`).toBe(true);
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'roz-e2e-codex-run-')));
    const [home, repo, storage, bin, tmp] = ['home', 'repo', 'storage', 'bin', 'tmp'].map((d) => join(dir!, d)) as [string, string, string, string, string];
    for (const d of [home, repo, storage, bin, tmp]) mkdirSync(d);
    const gitEnv = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, env: gitEnv, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    mkdirSync(join(repo, 'build'));
    writeFileSync(join(repo, 'build', 'keep.txt'), 'keep\n');
    mkdirSync(join(repo, 'old'));
    writeFileSync(join(repo, 'old', 'stale.txt'), 'stale\n');

    api = await startFakeResponsesApi([
      { name: 'rm', when: (r: ResponsesRequest) => r.toolOutputs.length === 0, reply: { shell: 'rm -rf build' } },
      {
        name: 'escalate',
        when: (r: ResponsesRequest) => r.toolOutputs.length === 1,
        reply: { shell: 'echo out > escalated.txt', escalate: 'write outside the sandbox' },
      },
      { name: 'rm-old', when: (r: ResponsesRequest) => r.toolOutputs.length === 2, reply: { shell: 'rm -rf old && echo OLD-GONE' } },
      { name: 'done', when: (r: ResponsesRequest) => r.toolOutputs.length === 3, reply: { say: 'RUN-DONE' } },
    ]);
    // The user's Codex config: the scripted model; the project trusted (the user's choice; roz never makes it).
    const codexDir = codexHome(home, api.baseUrl, { tables: `[projects."${repo}"]\ntrust_level = "trusted"\n` });
    symlinkSync(CODEX_BIN, join(bin, 'codex'));
    const env: Record<string, string> = {
      TERM: 'xterm-256color',
      HOME: home,
      SHELL: '/bin/bash',
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      TMPDIR: tmp,
      CODEX_HOME: codexDir,
      ROZ_STORAGE_PATH: storage,
      ROZ_REVIEW_MODE: 'never',
      GIT_CONFIG_NOSYSTEM: '1',
      ...(process.env.LANG ? { LANG: process.env.LANG } : {}),
    };
    const roz = (...args: string[]) => spawnSync(process.execPath, [ROZ_BIN, ...args], { cwd: repo, env, encoding: 'utf8' });
    const outputs = (): string[] => api!.requests.flatMap((r) => r.toolOutputs);
    const dump = (): string =>
      `\n--- screen:\n${term?.screen() ?? ''}\n--- codex's API:\n${api!.requests
        .map((r) => `#${r.index} tools=${r.tools.length} outputs=${JSON.stringify(r.toolOutputs).slice(0, 600)}`)
        .join('\n')}`;

    const t = startPtyScreen(
      process.execPath,
      [ROZ_BIN, 'run', '--approval-timeout', '120', '--no-stats', '--plugin-dir', ROZ_PLUGIN_DIR, '--', 'codex', 'RUN-TASK'],
      {
        cols: 120,
        rows: 40,
        env,
        cwd: repo,
      },
    );
    term = t;
    running = true;
    void t.exited.then(() => (running = false));

    // The guard's ask: roz's panel comes up over Codex's pane; the human blocks it there, with a reason.
    await t
      .waitFor(/APPROVAL NEEDED · Bash[\s\S]*\[b\] block/, "roz's approval panel", 90_000)
      .catch((e: Error) => Promise.reject(new Error(e.message + dump())));
    expect(t.screen()).toContain('rm -rf build');
    await blockFromKeyboard(t, TUI_REASON);
    await until("the model to read the human's reason", 60_000, () => outputs().some((o) => o.includes(TUI_REASON)), dump);
    expect(existsSync(join(repo, 'build', 'keep.txt'))).toBe(true);

    // Codex's own approval (PermissionRequest) waits in the same queue, under main.
    type Entry = { id: string; agent: string; tool: string; summary: string };
    const asked = await until(
      "Codex's own approval in roz queue",
      60_000,
      () => {
        const q = roz('queue', '--json');
        return q.status === 0 ? (JSON.parse(q.stdout) as Entry[])[0] : null;
      },
      dump,
      CLI_POLL_MS,
    );
    expect(asked).toMatchObject({ agent: 'main', tool: 'Bash' });
    expect(asked.summary).toContain('echo out > escalated.txt');
    const block = roz('block', asked.id, CLI_REASON);
    expect(block.status, block.stderr + block.stdout).toBe(0);
    await until('the model to read the refusal', 60_000, () => outputs().some((o) => o.includes(CLI_REASON)), dump);
    expect(existsSync(join(repo, 'escalated.txt'))).toBe(false);

    // An ask the human approves (`roz approve`): the hook says nothing to Codex (it reports an explicit allow
    // as a failed hook). Codex's own policy then asks about the same `rm -rf` (its approval, not roz's): a
    // second request in the same queue, which the human approves too; then the command runs.
    const approveNext = async (what: string): Promise<void> => {
      const next = await until(
        what,
        60_000,
        () => {
          const q = roz('queue', '--json');
          return q.status === 0 ? (JSON.parse(q.stdout) as Entry[]).find((e) => /rm -rf old|the tree old\//.test(e.summary)) : null;
        },
        dump,
        CLI_POLL_MS,
      );
      const approve = roz('approve', next.id);
      expect(approve.status, approve.stderr + approve.stdout).toBe(0);
    };
    await approveNext("roz's ask about rm -rf old");
    await approveNext("Codex's own approval of rm -rf old");
    await until('the approved command to run', 60_000, () => outputs().some((o) => o.includes('OLD-GONE')), dump);
    expect(existsSync(join(repo, 'old'))).toBe(false);
    await t.waitFor(/RUN-DONE/, "Codex's pane shows its end", 30_000).catch((e: Error) => Promise.reject(new Error(e.message + dump())));
    expect(t.screen()).not.toMatch(/unsupported permissionDecision/);

    // roz's views name the pane the hotkey leads back to by its client: Codex's, not Claude's.
    await press(t, HOTKEY);
    await t.waitFor(/\? keys · Ctrl-\] codex/, "roz's views naming Codex's pane", 15_000).catch((e: Error) => Promise.reject(new Error(e.message + dump())));
    expect(t.screen()).toMatch(/Ctrl-\]: codex/);
    expect(t.screen()).not.toMatch(/Ctrl-\]:? claude/);

    // roz's records: both decisions the human's; the session enforced (Codex's sandbox as roz configured it).
    const sessions = spawnSync('ls', [join(storage, 'sessions')], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n')
      .filter(Boolean);
    expect(sessions).toHaveLength(1);
    const trace = JSON.parse(roz('trace', sessions[0]!, '--json').stdout) as TraceEvent[];
    expect(trace.filter((e) => e.event === 'roz:HumanDecision').map((e) => [e.decided_by, e.decision, e.code, e.reason])).toEqual([
      ['human', 'deny', 'DESTRUCTIVE_BLOCKED', TUI_REASON],
      ['human', 'deny', 'CLIENT_DIALOG', CLI_REASON],
      ['human', 'allow', 'DESTRUCTIVE_BLOCKED', expect.anything()],
      ['human', 'allow', 'CLIENT_DIALOG', expect.anything()],
    ]);
    expect((JSON.parse(roz('debug', sessions[0]!, '--json').stdout) as { enforcement?: string }).enforcement).toBe('enforced');

    const stop = roz('agent', 'stop', '--all');
    expect(stop.status, stop.stderr).toBe(0);
    await Promise.race([t.exited, new Promise((r) => setTimeout(r, 30_000))]);
  }, 300_000);
});
