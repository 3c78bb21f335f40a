// store/no-follow.ts decides "inside or not" by a prefix test for plain
// absolute paths (path.relative cost a hook 0.9M instructions per write): it
// must answer as path.relative does wherever the answer matters.
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeTo } from '../../src/store/no-follow.js';

const dirs = ['/', '/a', '/a/b', '/ab', '/a/b/c', '/a/./b', '/a/../a/b', '/a//b', '/a/b/', 'a/b', '/a/b/..', '/a/b/.'];

describe('relativeTo', () => {
  it('is path.relative inside, and says outside (starts with ..) wherever path.relative does', () => {
    for (const within of dirs)
      for (const path of [...dirs, '/a/b/c/d.txt', '/abc/d', '/a/bc', '/b/a']) {
        const want = relative(within, path);
        const got = relativeTo(within, path);
        const outside = (r: string) => r === '..' || r.startsWith('../') || r.startsWith('/');
        if (outside(want)) expect(outside(got), `${within} ${path}`).toBe(true);
        else expect(got, `${within} ${path}`).toBe(want);
      }
  });
});
