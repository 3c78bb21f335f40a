// `roz agent push NAME [--pr]` as a process (issue 31, part 3): the built CLI
// in a real repository with a local bare remote. Only an approved, unchanged
// tree leaves the machine; the push runs no hook and no program the
// repository's config names (control: plain git runs them); `--pr` runs the gh
// on the human's PATH outside the project's folders (a fake that records its
// arguments), never one the project planted.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFile, fleetRepo, git, review } from '../helpers/fleet-repo.js';
import { rozBin, runProcess } from '../helpers/hooks.js';

const tip = (bare: string, ref: string): string | null => {
  try {
    return git(bare, 'rev-parse', '--verify', '-q', ref).trim();
  } catch {
    return null;
  }
};

function script(file: string, body: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

describe('roz agent push', () => {
  it('refuses unreviewed and changed work (exit 5, nothing pushed); pushes the approved commit; runs no hook or config-named program', async () => {
    const { tmp, repo, env, rozIn } = fleetRepo();
    const bare = join(tmp, 'remote.git');
    git(tmp, 'init', '-q', '--bare', bare);
    git(repo, 'remote', 'add', 'origin', bare);
    expect((await rozIn(repo, 'agent', 'add', 'w', '--no-start')).code).toBe(0);
    const wt = join(tmp, 'repo.roz', 'w');
    commitFile(wt, 'feature.txt', 'v1\n');

    const never = await rozIn(repo, 'agent', 'push', 'w');
    expect(never.code).toBe(5);
    expect(never.stderr).toMatch(/roz: refused to push roz\/w: w's work was never reviewed/);
    expect(tip(bare, 'refs/heads/roz/w')).toBeNull();

    await review(env, wt, 'COMPLETE');
    commitFile(wt, 'feature.txt', 'v2, after the approval\n');
    const changed = await rozIn(repo, 'agent', 'push', 'w', '--json');
    expect(changed.code).toBe(5);
    expect(JSON.parse(changed.stdout)).toMatchObject({ kind: 'refused', code: 'changed-since-approval' });
    expect(tip(bare, 'refs/heads/roz/w')).toBeNull();

    // Programs the repository names: a pre-push hook, a receive-pack for the remote, an fsmonitor.
    const marks = join(tmp, 'marks');
    script(join(repo, '.git', 'hooks', 'pre-push'), `echo pre-push >> ${marks}`);
    script(join(tmp, 'evil-receive-pack'), `echo receive-pack >> ${marks}; exec git-receive-pack "$@"`);
    git(repo, 'config', 'remote.origin.receivepack', join(tmp, 'evil-receive-pack'));
    script(join(tmp, 'evil-fsmonitor'), `echo fsmonitor >> ${marks}`);
    git(repo, 'config', 'core.fsmonitor', join(tmp, 'evil-fsmonitor'));

    await review(env, wt, 'COMPLETE');
    const ok = await rozIn(repo, 'agent', 'push', 'w');
    expect(ok.code, ok.stderr).toBe(0);
    const head = git(wt, 'rev-parse', 'HEAD').trim();
    expect(ok.stdout).toContain(`pushed roz/w (${head.slice(0, 12)}) to origin (${bare})`);
    expect(tip(bare, 'refs/heads/roz/w')).toBe(head);
    expect(existsSync(marks)).toBe(false);
    // Control: plain git in the same repository runs them.
    git(wt, 'push', '-q', 'origin', 'HEAD:refs/heads/control');
    expect(readFileSync(marks, 'utf8')).toMatch(/pre-push/);
    expect(readFileSync(marks, 'utf8')).toMatch(/receive-pack/);

    // A remote whose URL runs a command (ext::) is refused before git sees it.
    git(repo, 'remote', 'add', 'evil', `ext::sh -c "echo ext >> ${marks}"`);
    const ext = await rozIn(repo, 'agent', 'push', 'w', '--remote', 'evil');
    expect(ext.code).toBe(2);
    expect(ext.stderr).toMatch(/file, ssh or https only/);
    expect(readFileSync(marks, 'utf8')).not.toMatch(/ext/);
    expect((await rozIn(repo, 'agent', 'push', 'w', '--remote', 'nowhere')).code).toBe(2);
    expect((await rozIn(repo, 'agent', 'push', 'ghost')).code).toBe(3);
  }, 120_000);

  it('--pr: gh from the PATH without the project folders, told the repository, run outside it; refused work opens nothing', async () => {
    const { tmp, repo, env } = fleetRepo();
    const bare = join(tmp, 'remote.git');
    git(tmp, 'init', '-q', '--bare', bare);
    // The remote names a GitHub repository; git reaches it at the bare path (insteadOf), roz tells gh its name.
    git(repo, 'remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
    git(repo, 'config', `url.${bare}/.insteadOf`, 'https://github.com/acme/widgets.git/');
    git(repo, 'config', `url.${bare}.insteadOf`, 'https://github.com/acme/widgets.git');
    const record = join(tmp, 'gh-args.json');
    const humanBin = join(tmp, 'human-bin');
    script(
      join(humanBin, 'gh'),
      `node -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify({args: process.argv.slice(2), cwd: process.cwd()}))' ${record} "$@"\necho https://github.com/acme/widgets/pull/7`,
    );
    // A gh the project planted, earlier on PATH: never run.
    const planted = join(tmp, 'planted');
    script(join(repo, 'node_modules', '.bin', 'gh'), `echo planted > ${planted}; echo https://evil/pull/1`);
    const PATH = `${join(repo, 'node_modules', '.bin')}:.:${humanBin}:${process.env.PATH}`;
    const e = { ...env, PATH };
    const roz = (...args: string[]) => runProcess(process.execPath, [rozBin, ...args], '', e, repo);
    expect((await roz('agent', 'add', 'p', '--no-start')).code).toBe(0);
    const wt = join(tmp, 'repo.roz', 'p');
    commitFile(wt, 'feature.txt', 'the feature\n', 'add the feature');

    const never = await roz('agent', 'push', 'p', '--pr');
    expect(never.code).toBe(5);
    expect(existsSync(record)).toBe(false);

    await review(env, wt, 'COMPLETE');
    const ok = await roz('agent', 'push', 'p', '--pr', '--json');
    expect(ok.code, ok.stderr).toBe(0);
    const v = JSON.parse(ok.stdout);
    expect(v).toMatchObject({ kind: 'pushed', branch: 'roz/p', remote: 'origin', pr: { url: 'https://github.com/acme/widgets/pull/7' } });
    expect(tip(bare, 'refs/heads/roz/p')).toBe(git(wt, 'rev-parse', 'HEAD').trim());
    const gh = JSON.parse(readFileSync(record, 'utf8'));
    expect(gh.args.slice(0, 9)).toEqual(['pr', 'create', '--repo', 'acme/widgets', '--head', 'roz/p', '--base', 'main', '--title']);
    expect(gh.args[9]).toBe('roz/p: add the feature');
    expect(gh.args[11]).toMatch(/approved by roz's reviewer/);
    expect(gh.cwd.startsWith(tmp)).toBe(false);
    expect(existsSync(planted)).toBe(false);
  }, 120_000);
});
