// store/git-objects.ts against real git: objects re-hashed on read (a planted
// loose object is caught), trees parsed and rebuilt to git's own ids.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { entryAt, ObjectError, parseTree, readObjects, treeBody, treeWith, verifyTree } from '../../src/store/git-objects.js';
import { tempDir } from '../helpers/temp-dir.js';
import { GIT_ENV as ENV } from '../helpers/test-git.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();

function repo() {
  const dir = tempDir('roz-objects-');
  git(dir, 'init', '-q', '-b', 'main');
  mkdirSync(join(dir, '.orchestration'));
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
  writeFileSync(join(dir, '.orchestration', 'agent_trace.jsonl'), '{}\n');
  writeFileSync(join(dir, 'src', 'deep', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'src', 'b'), 'b\n');
  writeFileSync(join(dir, 'src-c'), 'c\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'x');
  return { dir, gitRepo: { gitDir: join(dir, '.git'), workTree: null } };
}

describe('git objects read by roz', () => {
  it('verifies every object under a tree, and its trees rebuild to the same ids', () => {
    const { dir, gitRepo } = repo();
    const tree = git(dir, 'rev-parse', 'HEAD^{tree}');
    const v = verifyTree(gitRepo, tree);
    expect(v.checked).toBe(Number(git(dir, 'ls-tree', '-r', '-t', 'HEAD').split('\n').length) + 1);
    const read = (id: string) => v.trees.get(id)!;
    // parse + serialise is the identity (git's order: "src" sorts as "src/", after "src-c").
    const root = v.trees.get(tree)!;
    expect(root.map((e) => e.name)).toEqual(['.orchestration', 'src-c', 'src']);
    expect(treeBody(root).equals(readObjects(gitRepo, [tree]).get(tree)!.body)).toBe(true);
    expect(parseTree(treeBody(root))).toEqual(root);
    // Removing the ledger: the same id git gives the tree without it.
    const without = treeWith(read, tree, '.orchestration/agent_trace.jsonl', null);
    git(dir, 'rm', '-q', '--cached', '.orchestration/agent_trace.jsonl');
    expect(without).toBe(git(dir, 'write-tree'));
    // Replacing a deep file.
    const blob = git(dir, 'rev-parse', 'HEAD:src-c');
    const replaced = treeWith(read, tree, 'src/deep/a.ts', { mode: '100644', id: blob });
    git(dir, 'reset', '-q');
    git(dir, 'update-index', '--cacheinfo', `100644,${blob},src/deep/a.ts`);
    expect(replaced).toBe(git(dir, 'write-tree'));
    expect(entryAt(read, tree, 'src/deep/a.ts')?.id).toBe(git(dir, 'rev-parse', 'HEAD:src/deep/a.ts'));
    expect(entryAt(read, tree, 'src/nope')).toBeNull();
  });

  it('refuses a loose object whose content is not its name (control: git serves it)', () => {
    const { dir, gitRepo } = repo();
    const blob = git(dir, 'rev-parse', 'HEAD:src/b');
    const file = join(dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2));
    chmodSync(file, 0o644);
    writeFileSync(file, deflateSync(Buffer.from('blob 5\0evil\n')));
    expect(git(dir, 'cat-file', '-p', blob)).toBe('evil');
    expect(() => verifyTree(gitRepo, git(dir, 'rev-parse', 'HEAD^{tree}'))).toThrow(ObjectError);
    expect(() => readObjects(gitRepo, [blob])).toThrow(/forged/);
    expect(() => readObjects(gitRepo, ['0'.repeat(40)])).toThrow(/missing/);
  });
});
