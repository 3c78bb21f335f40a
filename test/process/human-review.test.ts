// `roz agent merge NAME --human` (issue 31, part 3): the human reviews instead
// of the reviewer, in a real pty with the built CLI. Without a terminal it is
// refused (an agent's Bash has none); the diff shown is the branch's; typing
// anything but the name approves nothing; the name approves that commit's tree
// (session and ledger, naming the human) and the gate merges it; the branch
// moving while the human reads, or after the approval, is refused.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFile, fleetRepo, git, startSession } from '../helpers/fleet-repo.js';
import { rozBin } from '../helpers/hooks.js';
import { startPtyScreen } from '../supervisor/helpers/pty-screen.js';

function humanMerge(env: NodeJS.ProcessEnv, cwd: string, name: string) {
  return startPtyScreen(process.execPath, [rozBin, 'agent', 'merge', name, '--human'], {
    cols: 120,
    rows: 40,
    env: env as Record<string, string>,
    cwd,
  });
}

const ledger = (repo: string) =>
  readFileSync(join(repo, '.orchestration', 'agent_trace.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('roz agent merge --human', () => {
  it('no terminal: refused, nothing recorded; a wrong name approves nothing; the name approves the tree shown and it merges', async () => {
    const { tmp, repo, env, rozIn } = fleetRepo();
    expect((await rozIn(repo, 'agent', 'add', 'w', '--no-start')).code).toBe(0);
    const wt = join(tmp, 'repo.roz', 'w');
    const sid = await startSession(env, wt);
    commitFile(wt, 'feature.txt', 'the feature\n', 'add the feature');
    const main0 = git(repo, 'rev-parse', 'main').trim();

    // Pipes, as an agent's Bash has them: the name on stdin changes nothing.
    const piped = await rozIn(repo, 'agent', 'merge', 'w', '--human');
    expect(piped.code).toBe(5);
    expect(piped.stderr).toMatch(/refused: --human takes the approval typed at your terminal/);
    expect(git(repo, 'rev-parse', 'main').trim()).toBe(main0);

    // A wrong name.
    const no = humanMerge(env, repo, 'w');
    await no.waitFor(/Type w to approve it and merge/, 'the question');
    expect(no.screen()).toContain('+the feature');
    expect(no.screen()).toMatch(/exactly what roz\/w holds \(commit [0-9a-f]{12}/);
    no.write('yes\r');
    expect(await no.exited).toBe(5);
    await no.waitFor(/not approved/, 'the refusal');
    expect(git(repo, 'rev-parse', 'main').trim()).toBe(main0);
    expect((await rozIn(repo, 'agent', 'merge', 'w')).code).toBe(5);

    // The name: approved, recorded, merged.
    const yes = humanMerge(env, repo, 'w');
    await yes.waitFor(/Type w to approve it and merge/, 'the question');
    yes.write('w\r');
    expect(await yes.exited).toBe(0);
    const head = git(wt, 'rev-parse', 'HEAD').trim();
    await yes.waitFor(/merged roz\/w into main \(fast-forward\)/, 'the merge');
    expect(yes.screen()).toMatch(new RegExp(`approved by .*${userInfo().username}`));
    expect(git(repo, 'rev-parse', 'main').trim()).toBe(head);
    const records = ledger(repo);
    const approval = records.find((r) => r.metadata['dev.roz'].tool_name === 'roz:human-review');
    expect(approval.metadata['dev.roz']).toMatchObject({ session_id: sid, approval: { agent: 'w', branch: 'roz/w', commit: head } });
    expect(approval.metadata['dev.roz'].decided_by).toContain(userInfo().username);
    const merge = records.find((r) => r.metadata['dev.roz'].tool_name === 'roz:merge');
    expect(merge.metadata['dev.roz'].merge.review).toMatchObject({ by: 'human', session_id: sid });
    expect(merge.metadata['dev.roz'].merge.reviewed_tree).toBe(approval.metadata['dev.roz'].approval.tree);
    // The session holds the decision, naming the human.
    const debug = await rozIn(repo, 'debug', sid, '--json');
    const state = JSON.parse(debug.stdout);
    expect(state.review.decision_history.at(-1)).toMatchObject({
      kind: 'complete',
      valid: true,
      agent_id: null,
      human: expect.stringContaining(userInfo().username),
    });
    const trace = JSON.parse((await rozIn(repo, 'trace', sid, '--json')).stdout);
    expect(trace.filter((r: { event: string }) => r.event === 'roz:HumanApproval')).toEqual([
      expect.objectContaining({ agent: 'w', branch: 'roz/w', commit: head, human: expect.stringContaining(userInfo().username) }),
    ]);
  }, 120_000);

  it('the branch moving while the human reads, or after the approval, is refused; an approval of the unchanged tree merges (control)', async () => {
    const { tmp, repo, env, rozIn } = fleetRepo();
    for (const n of ['x', 'y']) expect((await rozIn(repo, 'agent', 'add', n, '--no-start')).code).toBe(0);
    const wx = join(tmp, 'repo.roz', 'x');
    const wy = join(tmp, 'repo.roz', 'y');
    await startSession(env, wx);
    await startSession(env, wy);
    commitFile(wx, 'x.txt', 'x1\n');
    commitFile(wy, 'y.txt', 'y1\n');

    // Advisory (no sandbox, as here): a process that makes itself a pty with `script` and types the name
    // passes the terminal check. Under an enforced launch roz's store is out of its reach and it fails
    // (test/e2e/human-review.e2e.test.ts); this is the control that shows the check alone does not enforce.
    const scripted = spawnSync('script', ['-qec', `${process.execPath} ${rozBin} agent merge y --human`, '/dev/null'], {
      cwd: repo,
      env,
      input: 'y\n',
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(scripted.stdout).toMatch(/approved by/);
    git(repo, 'reset', '-q', '--hard', git(repo, 'rev-parse', 'main@{1}').trim());
    expect(git(repo, 'rev-parse', 'main').trim()).not.toBe(git(wy, 'rev-parse', 'HEAD').trim());

    // Moved while the diff is on screen: nothing recorded.
    const p = humanMerge(env, repo, 'x');
    await p.waitFor(/Type x to approve it and merge/, 'the question');
    commitFile(wx, 'x.txt', 'x2, written while the human read\n');
    p.write('x\r');
    expect(await p.exited).toBe(5);
    await p.waitFor(/changed since you saw it/, 'the refusal');
    expect(JSON.parse((await rozIn(repo, 'agent', 'merge', 'x', '--json')).stdout)).toMatchObject({ kind: 'refused', code: 'never-reviewed' });

    // Approved while the base checkout has changes: recorded, not merged (exit 4).
    writeFileSync(join(repo, 'README.md'), 'the human edits\n');
    for (const [n] of [['x'], ['y']]) {
      const a = humanMerge(env, repo, n!);
      await a.waitFor(new RegExp(`Type ${n} to approve it and merge`), 'the question');
      a.write(`${n}\r`);
      expect(await a.exited).toBe(4);
    }
    git(repo, 'checkout', '--', 'README.md');
    // x changes after its approval: refused. y does not: it merges on the human's approval.
    commitFile(wx, 'x.txt', 'x3, after the approval\n');
    const xr = await rozIn(repo, 'agent', 'merge', 'x', '--json');
    expect(xr.code).toBe(5);
    expect(JSON.parse(xr.stdout)).toMatchObject({ kind: 'refused', code: 'changed-since-approval' });
    const yr = await rozIn(repo, 'agent', 'merge', 'y', '--json');
    expect(yr.code, yr.stderr).toBe(0);
    expect(JSON.parse(yr.stdout)).toMatchObject({ kind: 'merged', review: { by: 'human' } });
  }, 120_000);
});
