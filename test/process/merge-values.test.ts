// The merge gate and `agent add` as values (issue 32): `roz agent merge NAME
// --json` and `roz agent add NAME --json` print the value the engine returns
// (engine/fleet/agent-merge.ts, agent-add.ts), with the exit code the plain
// command has; the plain command prints the same value in words. The built
// CLI in real repositories, reviews through the real hooks.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFile, fleetRepo, git, review } from '../helpers/fleet-repo.js';

const json = (r: { stdout: string }) => JSON.parse(r.stdout);

describe('roz agent add --json', () => {
  it('added {name, worktree, branch, base, base_commit} or refused {reason} with the exit code', async () => {
    const { tmp, repo, rozIn } = fleetRepo();
    const a = await rozIn(repo, 'agent', 'add', 'va', '--no-start', '--json');
    expect(a.code, a.stderr).toBe(0);
    expect(json(a)).toEqual({
      kind: 'added',
      name: 'va',
      worktree: join(tmp, 'repo.roz', 'va'),
      branch: 'roz/va',
      base: 'main',
      base_commit: git(repo, 'rev-parse', 'main').trim(),
      shared: false,
      prompt: null,
      note: null,
    });
    const again = await rozIn(repo, 'agent', 'add', 'va', '--no-start', '--json');
    expect(again.code).toBe(1);
    expect(json(again)).toMatchObject({ kind: 'refused', name: 'va', reason: expect.stringContaining('already an agent va'), exit: 1 });
    const bad = await rozIn(repo, 'agent', 'add', 'Bad/Name', '--json');
    expect(bad.code).toBe(2);
    expect(json(bad)).toMatchObject({ kind: 'refused', exit: 2 });
    const main = await rozIn(repo, 'agent', 'add', 'main', '--json');
    expect(main.code).toBe(2);
    expect(json(main).kind).toBe('refused');
    const shared = await rozIn(repo, 'agent', 'add', 'sh', '--no-worktree', '--no-start', '--json');
    expect(json(shared)).toMatchObject({ kind: 'added', shared: true, branch: null, base: null, note: expect.stringContaining('collide') });
  }, 60_000);
});

describe('roz agent merge --json: one value per outcome, the same exit codes', () => {
  it('no-agent 3, failed 2 (no branch), nothing 0, refused 5 (never reviewed, changed), dirty-base 4, conflict 6, merged 0', async () => {
    const { tmp, repo, env, rozIn } = fleetRepo();
    const merge = async (name: string) => {
      const r = await rozIn(repo, 'agent', 'merge', name, '--json');
      return { code: r.code, v: json(r), stderr: r.stderr };
    };
    expect(await merge('ghost')).toMatchObject({ code: 3, v: { kind: 'no-agent', agent: 'ghost' } });
    await rozIn(repo, 'agent', 'add', 'sh', '--no-worktree', '--no-start');
    expect(await merge('sh')).toMatchObject({ code: 2, v: { kind: 'failed', exit: 2, message: expect.stringContaining('nothing to merge') } });

    await rozIn(repo, 'agent', 'add', 'w', '--no-start');
    const wt = join(tmp, 'repo.roz', 'w');
    expect(await merge('w')).toMatchObject({ code: 0, v: { kind: 'nothing', why: expect.stringContaining('nothing the base branch') } });

    commitFile(wt, 'feature.txt', 'v1\n');
    const never = await merge('w');
    expect(never).toMatchObject({ code: 5, v: { kind: 'refused', code: 'never-reviewed', branch: 'roz/w', base: 'main', worktree: wt } });
    // The words of the plain command are the same value's.
    const plain = await rozIn(repo, 'agent', 'merge', 'w');
    expect(plain.code).toBe(5);
    expect(plain.stderr).toContain(`roz: refused to merge roz/w into main: ${never.v.why}`);
    expect(plain.stderr).toContain('roz agent merge w --human');

    await review(env, wt, 'COMPLETE');
    commitFile(wt, 'feature.txt', 'v2\n');
    expect(await merge('w')).toMatchObject({ code: 5, v: { kind: 'refused', code: 'changed-since-approval' } });
    await review(env, wt, 'COMPLETE');

    // The base checkout dirty: refused before anything moves.
    writeFileSync(join(repo, 'README.md'), 'edited by the human\n');
    const before = git(repo, 'rev-parse', 'main').trim();
    expect(await merge('w')).toMatchObject({ code: 4, v: { kind: 'dirty-base', base: 'main', checkout: repo, files: ['README.md'] } });
    expect(git(repo, 'rev-parse', 'main').trim()).toBe(before);
    git(repo, 'checkout', '--', 'README.md');

    // Merged: the facts of the merge, the review that let it.
    const ok = await merge('w');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.v).toMatchObject({
      kind: 'merged',
      agent: 'w',
      branch: 'roz/w',
      base: 'main',
      strategy: 'fast-forward',
      from: before,
      commit: git(wt, 'rev-parse', 'HEAD').trim(),
      review: { by: 'reviewer', summary: 'checked the diff' },
      checkouts: [repo],
      ledger: { file: join(repo, '.orchestration', 'agent_trace.jsonl'), error: null },
    });
    expect(git(repo, 'rev-parse', 'main').trim()).toBe(ok.v.commit);
    const rec = JSON.parse(readFileSync(ok.v.ledger.file, 'utf8').trim().split('\n').at(-1)!);
    expect(rec.metadata['dev.roz'].merge.review).toEqual({
      decision: 'COMPLETE',
      decided_at: ok.v.review.decided_at,
      session_id: ok.v.review.session_id,
      summary: 'checked the diff',
    });

    // A conflict: nothing moves, the paths named.
    await rozIn(repo, 'agent', 'add', 'x', '--no-start');
    const wx = join(tmp, 'repo.roz', 'x');
    commitFile(wx, 'README.md', 'x says\n');
    commitFile(repo, 'README.md', 'main says\n');
    await review(env, wx, 'COMPLETE');
    const at = git(repo, 'rev-parse', 'main').trim();
    expect(await merge('x')).toMatchObject({ code: 6, v: { kind: 'conflict', branch: 'roz/x', base: 'main', paths: ['README.md'] } });
    expect(git(repo, 'rev-parse', 'main').trim()).toBe(at);
  }, 120_000);
});
