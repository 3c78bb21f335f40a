// The linked-worktree sandbox plan (core/enforce/worktree-sandbox.ts) from
// facts read off a real repository with two worktrees (store/linked-worktree.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planWorktreeSandbox, siblingsOff } from '../../src/core/enforce/worktree-sandbox.js';
import { linkedWorktreeOf } from '../../src/store/linked-worktree.js';
import { buildSettings, writeRunSettings } from '../../src/supervisor/launch/run-settings.js';
import { tempDir } from '../helpers/temp-dir.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function repoWithWorktrees(): { root: string; main: string; a: string; b: string } {
  const root = realpathSync(tempDir('roz-wt-'));
  dirs.push(root);
  const main = join(root, 'repo');
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root };
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, stdio: 'pipe' });
  execFileSync('git', ['init', '-q', '-b', 'main', main], { env });
  git(main, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init');
  git(main, 'tag', 'v1');
  const a = join(root, 'repo.roz', 'a');
  const b = join(root, 'repo.roz', 'b');
  git(main, 'worktree', 'add', '-q', '-b', 'roz/a', a);
  git(main, 'worktree', 'add', '-q', '-b', 'roz/b', b);
  return { root, main, a, b };
}

describe('siblingsOff', () => {
  it('denies what leaves the own path at the level it leaves, never the way to it', () => {
    const entries = ['refs/heads', 'refs/heads/main', 'refs/heads/roz', 'refs/heads/roz/a', 'refs/heads/roz/b', 'refs/tags', 'refs/tags/v1'];
    expect(siblingsOff(entries, 'refs/heads/roz/a')).toEqual(['refs/heads/main', 'refs/heads/roz/b', 'refs/tags']);
    expect(siblingsOff(entries, null)).toEqual(['refs']);
  });
});

describe('the sandbox of a linked worktree', () => {
  it('is null outside a linked worktree', () => {
    const { main } = repoWithWorktrees();
    expect(linkedWorktreeOf(main)).toBeNull();
  });

  it('allows the worktree, its admin dir, objects and its own ref; denies the shared rest, other refs, worktrees and the main checkout', () => {
    const { main, a, b } = repoWithWorktrees();
    const c = join(main, '.git');
    const facts = linkedWorktreeOf(join(a));
    expect(facts).toMatchObject({ worktree: a, gitDir: join(c, 'worktrees', 'a'), commonDir: c, branch: 'refs/heads/roz/a' });
    const plan = planWorktreeSandbox(facts!);
    expect(plan.allowWrite).toEqual([a, join(c, 'worktrees', 'a'), join(c, 'objects'), join(c, 'refs/heads/roz'), join(c, 'logs/refs/heads/roz')]);
    for (const d of [
      'config',
      'hooks',
      'info',
      'HEAD',
      'refs/heads/main',
      'refs/heads/roz/b',
      'refs/tags',
      'worktrees/b',
      'logs/HEAD',
      'logs/refs/heads/main',
      'logs/refs/heads/roz/b',
    ])
      expect(plan.denyWrite, d).toContain(join(c, d));
    // the main checkout holds the shared .git: never denied as a whole (the client keeps it read-only)
    expect(plan.denyWrite).not.toContain(main);
    expect(plan.denyWrite).toContain(b);
    // packed-refs only when it exists (a placeholder for a missing one breaks git on 2.1.197)
    expect(plan.denyWrite).not.toContain(join(c, 'packed-refs'));
    execFileSync('git', ['pack-refs', '--all'], { cwd: main, stdio: 'pipe' });
    expect(planWorktreeSandbox(linkedWorktreeOf(a)!).denyWrite).toContain(join(c, 'packed-refs'));
    // nothing on the way to its own ref or admin dir is denied, nor the worktree itself
    for (const d of ['refs', 'refs/heads', 'refs/heads/roz', 'refs/heads/roz/a', 'logs', 'logs/refs/heads/roz/a', 'worktrees', 'worktrees/a', 'objects'])
      expect(plan.denyWrite, d).not.toContain(join(c, d));
    expect(plan.denyWrite).not.toContain(a);
  });

  it('on a detached HEAD no ref is writable', () => {
    const { main, a } = repoWithWorktrees();
    execFileSync('git', ['checkout', '-q', '--detach'], { cwd: a, stdio: 'pipe' });
    const plan = planWorktreeSandbox(linkedWorktreeOf(a)!);
    expect(plan.denyWrite).toContain(join(main, '.git', 'refs'));
  });

  it('is merged into the settings roz launches the client with, after its own sandbox', () => {
    const { root, main, a } = repoWithWorktrees();
    const env = { HOME: root, ROZ_STORAGE_PATH: join(root, 'store') };
    const fs = (buildSettings(env, a, null).settings.sandbox as { filesystem: { allowWrite: string[]; denyWrite: string[] } }).filesystem;
    expect(fs.allowWrite).toContain(join(main, '.git', 'objects'));
    expect(fs.denyWrite).toContain(join(main, '.git', 'refs', 'heads', 'main'));
    expect(fs.denyWrite).toContain(join(root, 'store'));
    const plain = (buildSettings(env, main, null).settings.sandbox as { filesystem: { allowWrite?: string[] } }).filesystem;
    expect(plain.allowWrite).toBeUndefined();
  });

  it('a run in a worktree first makes an empty packed-refs, so it can be denied (a missing one is creatable)', () => {
    const { root, main, a } = repoWithWorktrees();
    const packed = join(main, '.git', 'packed-refs');
    expect(existsSync(packed)).toBe(false);
    const run = writeRunSettings({ HOME: root, ROZ_STORAGE_PATH: join(root, 'store') }, a);
    try {
      expect(readFileSync(packed, 'utf8')).toBe('');
      expect((run.settings.sandbox as { filesystem: { denyWrite: string[] } }).filesystem.denyWrite).toContain(packed);
      // git still reads every ref
      expect(execFileSync('git', ['rev-parse', 'roz/a'], { cwd: main, encoding: 'utf8' })).toMatch(/^[0-9a-f]{40}/);
    } finally {
      run.dispose();
    }
  });

  it('a ref only in packed-refs gets its loose file (same value) before the launch, so it can be denied', () => {
    const { root, main, a } = repoWithWorktrees();
    const c = join(main, '.git');
    const mainSha = execFileSync('git', ['rev-parse', 'main'], { cwd: main, encoding: 'utf8' }).trim();
    execFileSync('git', ['pack-refs', '--all'], { cwd: main, stdio: 'pipe' });
    expect(existsSync(join(c, 'refs', 'heads', 'main'))).toBe(false);
    const run = writeRunSettings({ HOME: root, ROZ_STORAGE_PATH: join(root, 'store') }, a);
    try {
      expect(readFileSync(join(c, 'refs', 'heads', 'main'), 'utf8')).toBe(`${mainSha}\n`);
      const deny = (run.settings.sandbox as { filesystem: { denyWrite: string[] } }).filesystem.denyWrite;
      for (const d of ['refs/heads/main', 'refs/heads/roz/b', 'refs/tags']) expect(deny, d).toContain(join(c, d));
      expect(execFileSync('git', ['rev-parse', 'main', 'v1'], { cwd: main, encoding: 'utf8' })).toMatch(/^[0-9a-f]{40}\n[0-9a-f]{40}\n$/);
    } finally {
      run.dispose();
    }
  });
});

describe('the shared git directory under a launch (issue 29)', () => {
  it("what the human's git reads when present is denied even when missing; objects/ is denied once a staging store exists", () => {
    const { main, a } = repoWithWorktrees();
    const c = join(main, '.git');
    const facts = linkedWorktreeOf(a)!;
    const staged = planWorktreeSandbox(facts, true);
    for (const d of ['objects', 'modules', 'lfs', 'rr-cache', 'shallow', 'rebase-merge', 'sequencer', 'MERGE_HEAD', 'FETCH_HEAD', 'ORIG_HEAD'])
      expect(staged.denyWrite, d).toContain(join(c, d));
    expect(staged.allowWrite).toEqual([a, join(c, 'worktrees', 'a'), join(c, 'refs/heads/roz'), join(c, 'logs/refs/heads/roz')]);
    // Printed for a launch roz does not make (no staging store, no shim): objects/ stays writable for git to commit.
    expect(planWorktreeSandbox(facts).allowWrite).toContain(join(c, 'objects'));
    expect(planWorktreeSandbox(facts).denyWrite).not.toContain(join(c, 'objects'));
  });

  it("a run makes the staging store and denies the repository's objects/, in a worktree and in the main checkout", () => {
    const { root, main, a } = repoWithWorktrees();
    const c = join(main, '.git');
    for (const [cwd, gitDir] of [
      [a, join(c, 'worktrees', 'a')],
      [main, c],
    ] as const) {
      const run = writeRunSettings({ HOME: root, ROZ_STORAGE_PATH: join(root, 'store') }, cwd);
      try {
        expect(run.objects).toMatchObject({ staging: join(gitDir, 'roz-objects'), objects: join(c, 'objects') });
        expect(existsSync(join(gitDir, 'roz-objects', 'pack'))).toBe(true);
        const s = run.settings as { sandbox: { filesystem: { denyWrite: string[]; allowWrite?: string[] } }; permissions: { deny: string[] } };
        expect(s.sandbox.filesystem.denyWrite).toContain(join(c, 'objects'));
        expect(s.sandbox.filesystem.allowWrite ?? []).not.toContain(join(c, 'objects'));
        expect(s.permissions.deny).toContain(`Edit(/${join(c, 'objects')}/**)`);
        // What the human's git would run or apply from there, even when missing: the main checkout's agent too.
        for (const n of ['modules', 'lfs', 'rr-cache', 'shallow']) expect(s.sandbox.filesystem.denyWrite, n).toContain(join(c, n));
      } finally {
        run.dispose();
      }
    }
    // `roz settings` (printed, no launch): no staging store, objects/ not denied.
    const printed = buildSettings({ HOME: root, ROZ_STORAGE_PATH: join(root, 'store') }, main, null).settings as { permissions: { deny: string[] } };
    expect(printed.permissions.deny.join('\n')).not.toMatch(/objects/);
  });
});
