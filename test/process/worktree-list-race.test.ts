// `git worktree list` while another `roz agent add` is creating a worktree: the
// new worktree's admin files exist before what is in them, and git fails to
// read an empty one. Seen in fleet-worktrees (three `roz agent add` at once): "git
// cannot list the worktrees: fatal: failed to read .../worktrees/b/commondir".
// roz asks again for a moment; a listing that stays broken is still an error.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { worktrees } from '../../src/store/agent-worktrees.js';
import { tempDir } from '../helpers/temp-dir.js';

function repoWithWorktree(): { common: string; admin: string; commondir: string; wt: string } {
  const top = realpathSync(tempDir('roz-wt-race-'));
  const repo = join(top, 'repo');
  mkdirSync(repo);
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init');
  const wt = join(top, 'repo.roz', 'b');
  git('worktree', 'add', '-q', '-b', 'roz/b', wt);
  const admin = join(repo, '.git', 'worktrees', 'b');
  return { common: join(repo, '.git'), admin, commondir: readFileSync(join(admin, 'commondir'), 'utf8'), wt };
}

describe('listing worktrees while one is being made', () => {
  it('a worktree whose admin files appear a moment later is listed, not an error', async () => {
    const r = repoWithWorktree();
    // git writes the file after creating it: for a moment it is empty (a missing one is merely listed as prunable).
    writeFileSync(join(r.admin, 'commondir'), '');
    // Another process finishes the worktree 300 ms from now (roz's listing blocks this one's event loop).
    const finisher = spawn(
      process.execPath,
      ['-e', `setTimeout(() => require('fs').writeFileSync(${JSON.stringify(join(r.admin, 'commondir'))}, ${JSON.stringify(r.commondir)}), 300)`],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => finisher.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const list = worktrees({ gitDir: r.common, workTree: null });
    await exited;
    expect(list.map((e) => e.path)).toContain(r.wt);
  });

  it('one that stays broken is an error that says what git said', () => {
    const r = repoWithWorktree();
    writeFileSync(join(r.admin, 'commondir'), '');
    const started = Date.now();
    expect(() => worktrees({ gitDir: r.common, workTree: null })).toThrow(/git cannot list the worktrees: .*commondir/);
    // Asked again for about a second, not for ever.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('any other failure is not asked again', () => {
    const r = repoWithWorktree();
    writeFileSync(join(r.common, 'HEAD'), 'garbage\n');
    const started = Date.now();
    expect(() => worktrees({ gitDir: r.common, workTree: null })).toThrow(/git cannot list the worktrees/);
    expect(Date.now() - started).toBeLessThan(500);
  });
});
