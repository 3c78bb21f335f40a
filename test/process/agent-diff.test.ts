// `roz agent diff` as a process, in real temporary repositories: the agent's
// commits, uncommitted and untracked files against its base commit; and what
// the agent can plant to change what the human sees — a diff driver, a
// textconv, attributes, index flags, an exclude file, a forged object — each
// with a plain-git control that shows the plant working on git itself.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rozBin, runProcess, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';
import { GIT_ENV } from '../helpers/test-git.js';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function commitFile(cwd: string, file: string, text: string, msg = `edit ${file}`): void {
  mkdirSync(join(cwd, file, '..'), { recursive: true });
  writeFileSync(join(cwd, file), text);
  git(cwd, 'add', file);
  git(cwd, 'commit', '-q', '-m', msg);
}

async function setup(name = 'b') {
  const tmp = realpathSync(tempDir('roz-diff-'));
  const repo = join(tmp, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  commitFile(repo, 'README.md', 'hello\n', 'init');
  commitFile(repo, 'lines.txt', `${Array.from({ length: 6 }, (_, i) => `line ${i + 1}`).join('\n')}\n`, 'lines');
  const sb = sandbox();
  const rozIn = (cwd: string, ...args: string[]) => runProcess(process.execPath, [rozBin, ...args], '', sb.env, cwd);
  const add = await rozIn(repo, 'agent', 'add', name, '--no-start');
  expect(add.code, add.stderr).toBe(0);
  return { tmp, repo, wt: join(tmp, 'repo.roz', name), env: sb.env, rozIn };
}

/** Replace the loose object `id`'s bytes with `text` under the same name (what an agent with write access to `.git/objects` can do). */
function forge(repo: string, id: string, text: string): void {
  const file = join(repo, '.git', 'objects', id.slice(0, 2), id.slice(2));
  const body = Buffer.from(text);
  chmodSync(file, 0o644);
  writeFileSync(file, deflateSync(Buffer.concat([Buffer.from(`blob ${body.length}\0`), body])));
}

describe('roz agent diff', () => {
  it('shows commits, uncommitted and untracked files against the base commit, ahead/behind, and the patch; --stat and --json', async () => {
    const { repo, wt, rozIn } = await setup();
    commitFile(wt, 'lines.txt', readFileSync(join(wt, 'lines.txt'), 'utf8').replace('line 3', 'line three'), 'three in words');
    commitFile(wt, 'added.txt', 'one\ntwo\n', 'add a file');
    writeFileSync(join(wt, 'README.md'), 'hello\nworld\n'); // uncommitted
    writeFileSync(join(wt, 'staged.txt'), 'staged\n');
    git(wt, 'add', 'staged.txt'); // in the index, not committed
    writeFileSync(join(wt, 'loose.txt'), 'nobody added me\n'); // untracked
    commitFile(repo, 'README.md', 'hello from main\n', 'main moves on');

    const r = await rozIn(repo, 'agent', 'diff', 'b', '--json');
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({ agent: 'b', branch: 'roz/b', base_ref: 'refs/heads/main', ahead: 2, behind: 1, files: 5, added: 6, removed: 1 });
    expect(d.commits.map((c: { subject: string }) => c.subject)).toEqual(['add a file', 'three in words']);
    const by = Object.fromEntries(d.changed.map((f: { path: string }) => [f.path, f]));
    expect(by['lines.txt']).toMatchObject({ status: 'modified', added: 1, removed: 1, committed: true, uncommitted: false, untracked: false });
    expect(by['added.txt']).toMatchObject({ status: 'added', added: 2, committed: true });
    expect(by['README.md']).toMatchObject({ status: 'modified', added: 1, removed: 0, committed: false, uncommitted: true });
    expect(by['staged.txt']).toMatchObject({ status: 'added', uncommitted: true, untracked: false });
    expect(by['loose.txt']).toMatchObject({ status: 'added', uncommitted: false, untracked: true });
    expect(d.patch).toContain('+line three');
    expect(d.patch).toContain('+nobody added me');
    // The base checkout's own change is not the agent's work.
    expect(d.patch).not.toContain('hello from main');

    const text = await rozIn(repo, 'agent', 'diff', 'b');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/b: roz\/b from main at [0-9a-f]{12}\n5 files changed, \+6 −1; 2 commits ahead, main has 1 more since/);
    expect(text.stdout).toMatch(/A loose\.txt\s+\+1 −0\s+untracked/);
    expect(text.stdout).toContain('+line three');
    const stat = await rozIn(repo, 'agent', 'diff', 'b', '--stat');
    expect(stat.stdout).toMatch(/M lines\.txt\s+\+1 −1\s+committed/);
    expect(stat.stdout).not.toContain('@@');
    expect(JSON.parse((await rozIn(repo, 'agent', 'diff', 'b', '--stat', '--json')).stdout).patch).toBeNull();

    // From the agent's own worktree too; bad input says so.
    expect((await rozIn(wt, 'agent', 'diff', 'b', '--stat')).code).toBe(0);
    const none = await rozIn(repo, 'agent', 'diff', 'nope');
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/no agent nope/);
    expect((await rozIn(repo, 'agent', 'diff')).code).toBe(2);

    // --all: every agent's, as `roz agent ls` counts them.
    const all = JSON.parse((await rozIn(repo, 'agent', 'diff', '--all', '--stat', '--json')).stdout);
    expect(all.map((w: { agent: string; added: number }) => [w.agent, w.added])).toEqual([['b', 6]]);
    const ls = JSON.parse((await rozIn(repo, 'agent', 'ls', '--json')).stdout);
    expect(ls[0]).toMatchObject({ name: 'b', added: 6, removed: 1, ahead: 2, behind: 1 });
    expect((await rozIn(repo, 'agent', 'ls')).stdout).toMatch(/b\s+roz\/b\s+.*\+6 −1\s+↑2 ↓1/);
  }, 60_000);

  it('runs no diff driver, textconv or attribute of the repository, and index flags or excludes hide nothing (control: plain git is fooled)', async () => {
    const { tmp, repo, wt, rozIn } = await setup();
    const marks = join(tmp, 'marks');
    mkdirSync(marks);
    // Planted by the agent: a diff driver with a textconv and an external command, attributes naming it
    // (in the tree and in info/attributes), an excludes file, and an assume-unchanged flag.
    const gitDir = join(repo, '.git');
    const script = (name: string, body: string): string => {
      const f = join(tmp, name);
      writeFileSync(f, `#!/bin/sh\ntouch ${marks}/${name}\n${body}\n`, { mode: 0o755 });
      return f;
    };
    writeFileSync(
      join(gitDir, 'config'),
      `${readFileSync(join(gitDir, 'config'), 'utf8')}[diff "evil"]\n\ttextconv = ${script('textconv', 'echo nothing to see')}\n\tcommand = ${script('command', 'true')}\n[diff]\n\texternal = ${script('external', 'true')}\n`,
    );
    mkdirSync(join(gitDir, 'info'), { recursive: true });
    writeFileSync(join(gitDir, 'info', 'attributes'), '* diff=evil\n');
    writeFileSync(join(gitDir, 'info', 'exclude'), 'hidden.txt\n');
    writeFileSync(join(wt, '.gitattributes'), '*.txt diff=evil -text\n');
    writeFileSync(join(wt, 'lines.txt'), 'the real change\n');
    writeFileSync(join(wt, 'hidden.txt'), 'hidden by an exclude\n');
    writeFileSync(join(wt, 'README.md'), 'changed behind a flag\n');
    git(wt, 'update-index', '--assume-unchanged', 'README.md');

    const r = await rozIn(repo, 'agent', 'diff', 'b');
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(marks)).toEqual([]);
    expect(r.stdout).toContain('+the real change');
    expect(r.stdout).toContain('+hidden by an exclude');
    expect(r.stdout).toContain('+changed behind a flag');
    expect(r.stdout).not.toContain('nothing to see');
    const d = JSON.parse((await rozIn(repo, 'agent', 'diff', 'b', '--json')).stdout);
    expect(d.changed.map((f: { path: string }) => f.path)).toEqual(['.gitattributes', 'README.md', 'hidden.txt', 'lines.txt']);
    expect(readdirSync(marks)).toEqual([]);

    // Control: git itself, in the agent's worktree, runs the plants and hides the rest.
    const plain = execFileSync('git', ['diff', 'HEAD'], { cwd: wt, env: GIT_ENV, encoding: 'utf8' });
    expect(plain).not.toContain('changed behind a flag');
    expect(git(wt, 'status', '--porcelain')).not.toContain('hidden.txt');
    expect(readdirSync(marks)).toEqual(['command']); // the driver's command beat diff.external
    // Without the driver's command, its textconv: both sides read "nothing to see", so git shows no change at all.
    expect(git(wt, 'diff', '--no-ext-diff', 'HEAD', '--', 'lines.txt')).toBe('');
    expect(readdirSync(marks)).toContain('textconv');
  }, 60_000);

  it('a planted object cannot fake the work: the real content is shown, or the diff is refused as forged (control: git reads the forgery)', async () => {
    const { repo, wt, rozIn } = await setup();
    commitFile(wt, 'code.txt', 'rm -rf the payload\n', 'innocent commit');
    const blob = git(wt, 'rev-parse', 'HEAD:code.txt').trim();
    forge(repo, blob, 'harmless\n');
    // Control: git takes the forgery at its word.
    expect(git(repo, 'show', 'roz/b:code.txt')).toBe('harmless\n');
    // The file is still in its work tree: roz hashed it itself, so the forgery never comes into view.
    const r = await rozIn(repo, 'agent', 'diff', 'b');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('+rm -rf the payload');
    expect(r.stdout).not.toContain('harmless');

    // Now the committed content must come from the repository (the work tree no longer has it): refused, not faked.
    const { repo: repo2, wt: wt2, rozIn: rozIn2 } = await setup('c');
    commitFile(wt2, 'code.txt', 'rm -rf the payload\n', 'innocent commit');
    const blob2 = git(wt2, 'rev-parse', 'HEAD:code.txt').trim();
    rmSync(join(wt2, 'code.txt'));
    forge(repo2, blob2, 'harmless\n');
    expect(git(repo2, 'show', 'roz/c:code.txt')).toBe('harmless\n');
    const refused = await rozIn2(repo2, 'agent', 'diff', 'c');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/forged/);
    expect(refused.stdout).not.toContain('harmless');
    // A forged base blob is refused the same way (the agent shares the base's object store).
    const { repo: repo3, wt: wt3, rozIn: rozIn3 } = await setup('d');
    writeFileSync(join(wt3, 'README.md'), 'the agent changed it\n');
    const baseBlob = git(repo3, 'rev-parse', 'main:README.md').trim();
    forge(repo3, baseBlob, 'something else\n');
    const baseForged = await rozIn3(repo3, 'agent', 'diff', 'd', '--stat');
    expect(baseForged.code).toBe(1);
    expect(baseForged.stderr).toMatch(/forged/);
  }, 60_000);

  it('the work is printed inert: control characters in a file are shown, never sent to the terminal', async () => {
    const { repo, wt, rozIn } = await setup();
    writeFileSync(join(wt, 'README.md'), 'hello\n\x1b]0;pwned\x07\x1b[2J\x1b[Hall is fine\u202e\n');
    const r = await rozIn(repo, 'agent', 'diff', 'b');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(r.stdout).toContain('+␛]0;pwned␇␛[2J␛[Hall is fine<U+202E>');
  }, 60_000);

  it('refuses an agent without a branch of its own, and the name main', async () => {
    const { repo, rozIn } = await setup();
    expect((await rozIn(repo, 'agent', 'add', 'shared', '--no-worktree', '--no-start')).code).toBe(0);
    const r = await rozIn(repo, 'agent', 'diff', 'shared');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no branch or base commit of its own/);
    // `main` is the agent roz run starts in the base checkout: reserved.
    const main = await rozIn(repo, 'agent', 'add', 'main', '--no-start');
    expect(main.code).toBe(2);
    expect(main.stderr).toMatch(/"main" is reserved/);
    expect(() => git(repo, 'rev-parse', '--verify', '-q', 'refs/heads/roz/main')).toThrow();
    // The control: any other name is accepted.
    expect((await rozIn(repo, 'agent', 'add', 'mainly', '--no-start')).code).toBe(0);
  }, 60_000);
});
