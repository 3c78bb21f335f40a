// A human reviews instead of the reviewer, and `roz agent push` (issue 31,
// part 3), both pinned clients, print mode under `roz exec` (enforced) in the
// worktree of `roz agent add`. The agent attacks the human's approval from its
// Bash: `roz agent merge h --human` (no terminal: refused), the same inside a
// pty it makes itself with `script`, its own name piped in (the approval
// cannot be written: roz's store and the base ledger are out of its sandbox's
// reach), and `roz agent push h` (never approved: refused). Nothing of that
// counts: main does not move, no approval is recorded, the remote has no
// branch. Then the human, in a real pty, sees the branch's diff, types the
// name: approved (session and ledger, naming them) and merged; `roz agent push`
// takes the approved branch to a local bare remote. The agent commits again:
// merge and push are refused (changed since the approval), the remote keeps
// the approved commit.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startPtyScreen } from '../supervisor/helpers/pty-screen.js';
import { bash, on, reply, say, write, type Step } from './harness/fake-api.js';
import { workspacePerTest } from './harness/per-test.js';
import { runRoz } from './harness/roz.js';
import { PINNED_CLIENTS, ROZ_BIN, rozCli } from './harness/workspace.js';

const ATTACK = [
  'tty; echo TTY-RC=$?',
  'roz agent merge h --human; echo HUMAN-RC=$?',
  'echo h | script -qec "roz agent merge h --human" /dev/null; echo SCRIPT-RC=$?',
  'roz agent push h; echo PUSH-RC=$?',
  'echo ATTACK-DONE',
].join('\n');

describe.each(PINNED_CLIENTS)("a human's review, and push, under the gate (client %s)", (client) => {
  const workspace = workspacePerTest();

  test("the agent cannot approve or push its own work; the human's typed approval merges and pushes that tree only", async () => {
    const ws = workspace();
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: ws.env, stdio: 'pipe', encoding: 'utf8' });
    const bare = join(ws.root, 'remote.git');
    git(ws.root, 'init', '-q', '--bare', bare);
    git(ws.repo, 'remote', 'add', 'origin', bare);
    const add = rozCli(ws, ['agent', 'add', 'h', '--no-start']);
    expect(add.code, add.stderr).toBe(0);
    const wt = join(ws.root, 'repo.roz', 'h');
    const agentWs = { ...ws, repo: wt };
    const main0 = git(ws.repo, 'rev-parse', 'main').trim();
    const remoteTip = () => {
      try {
        return git(bare, 'rev-parse', '--verify', '-q', 'refs/heads/roz/h').trim();
      } catch {
        return null;
      }
    };

    // Run 1: the work, committed; then the attacks on the gate from its Bash.
    const work: Step[] = [
      { name: 'write', when: on.start(), reply: reply('Writing.', write(join(wt, 'feature.txt'), 'the feature\n')) },
      {
        name: 'commit',
        when: on.toolResult('Write'),
        reply: reply('Committing.', bash('git add feature.txt && git commit -q -m "add the feature" && echo COMMITTED', 'Commit')),
      },
      { name: 'attack', when: on.toolResult('Bash', { match: /COMMITTED/ }), reply: reply('Approving it myself.', bash(ATTACK, 'Approve and push')) },
      { name: 'done', when: on.toolResult('Bash', { match: /ATTACK-DONE/ }), reply: say('Done.') },
    ];
    const first = await runRoz({
      prompt: 'add feature.txt, commit it, merge it',
      client,
      workspace: agentWs,
      exec: true,
      timeoutMs: 150_000,
      scenario: { main: work },
    });
    const why1 = first.why();
    expect(
      first.requests.filter((r) => r.role === 'main').map((r) => r.answeredBy),
      why1,
    ).toEqual(['write', 'commit', 'attack', 'done']);
    const out = first.requests.flatMap((r) => r.toolResults.map((t) => t.text)).find((t) => t.includes('ATTACK-DONE')) ?? '';
    if (process.env.ROZ_E2E_SHOW) console.log(out);
    // The agent's Bash has no terminal: --human is refused outright.
    expect(out, why1).toMatch(/not a tty/);
    expect(out).toMatch(/refused: --human takes the approval typed at your terminal/);
    expect(out).toMatch(/HUMAN-RC=5/);
    // In a pty of its own, its name typed: whatever it got to, it failed.
    expect(out).toMatch(/SCRIPT-RC=[1-9]/);
    expect(out).toMatch(/refused to push roz\/h: h's work was never reviewed/);
    expect(out).toMatch(/PUSH-RC=5/);
    // Nothing counted: main where it was, no approval anywhere, nothing on the remote.
    expect(git(ws.repo, 'rev-parse', 'main').trim()).toBe(main0);
    expect(first.trace().some((e) => e.event === 'roz:HumanApproval')).toBe(false);
    expect(first.state().review.decision_history.filter((d) => (d as { human?: string }).human)).toEqual([]);
    expect(remoteTip()).toBeNull();
    const refused = rozCli(ws, ['agent', 'merge', 'h', '--json']);
    expect(refused.code).toBe(5);
    expect(JSON.parse(refused.stdout)).toMatchObject({ kind: 'refused', code: 'never-reviewed' });

    // The human, at a terminal: the diff of the branch, the name typed.
    const pty = startPtyScreen(process.execPath, [ROZ_BIN, 'agent', 'merge', 'h', '--human'], {
      cols: 120,
      rows: 40,
      env: ws.env as Record<string, string>,
      cwd: ws.repo,
    });
    await pty.waitFor(/Type h to approve it and merge/, 'the question', 60_000);
    expect(pty.screen()).toContain('+the feature');
    pty.write('h\r');
    expect(await pty.exited).toBe(0);
    await pty.waitFor(/merged roz\/h into main/, 'the merge');
    const head = git(wt, 'rev-parse', 'HEAD').trim();
    expect(git(ws.repo, 'rev-parse', 'main').trim()).toBe(head);
    const ledger = readFileSync(join(ws.repo, '.orchestration', 'agent_trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).metadata['dev.roz']);
    const approval = ledger.filter((m) => m.tool_name === 'roz:human-review');
    expect(approval).toHaveLength(1);
    expect(approval[0]).toMatchObject({ session_id: first.sessionId, approval: { agent: 'h', commit: head } });
    expect(approval[0].decided_by).toContain(userInfo().username);
    expect(ledger.filter((m) => m.tool_name === 'roz:merge')).toEqual([
      expect.objectContaining({ merge: expect.objectContaining({ review: expect.objectContaining({ by: 'human' }) }) }),
    ]);
    expect(first.state().review.decision_history.at(-1)).toMatchObject({ kind: 'complete', valid: true, human: expect.stringContaining(userInfo().username) });

    // Approved and unchanged: it leaves the machine.
    const push = rozCli(ws, ['agent', 'push', 'h']);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    expect(remoteTip()).toBe(head);

    // Run 2: the agent commits again. The approval covered the tree before: merge and push refused.
    const more: Step[] = [
      {
        name: 'more',
        when: on.start(),
        reply: reply('More.', bash('echo more > more.txt && git add more.txt && git commit -q -m more && echo MORE', 'Commit more')),
      },
      { name: 'done', when: on.toolResult('Bash', { match: /MORE/ }), reply: say('Done.') },
    ];
    const second = await runRoz({ prompt: 'add more.txt and commit', client, workspace: agentWs, exec: true, timeoutMs: 120_000, scenario: { main: more } });
    expect(
      second.requests.map((r) => r.answeredBy),
      second.why(),
    ).toContain('done');
    const changed = rozCli(ws, ['agent', 'merge', 'h', '--json']);
    expect(changed.code).toBe(5);
    expect(JSON.parse(changed.stdout)).toMatchObject({ kind: 'refused', code: 'changed-since-approval' });
    const push2 = rozCli(ws, ['agent', 'push', 'h']);
    expect(push2.code).toBe(5);
    expect(push2.stderr).toMatch(/changed since its approval/);
    expect(remoteTip()).toBe(head);
    expect(git(ws.repo, 'rev-parse', 'main').trim()).toBe(head);
  }, 400_000);
});
