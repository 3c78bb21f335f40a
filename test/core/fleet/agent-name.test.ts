import { describe, expect, test } from 'vitest';
import { agentBranch, checkAgentName, isInside, worktreePath } from '../../../src/core/fleet/agent-name.js';
import { parseWorktreeList } from '../../../src/core/fleet/worktree-list.js';

describe('agent names and where their worktrees live', () => {
  test('names safe as a branch part, a directory and a word', () => {
    for (const ok of ['api', 'fix-42', 'a.b_c']) expect(checkAgentName(ok)).toBeNull();
    for (const bad of ['', 'Up', '-x', '../x', 'a/b', 'a..b', 'x.lock', 'a b', 'x'.repeat(41), 'dot.']) expect(checkAgentName(bad)).not.toBeNull();
    expect(agentBranch('api')).toBe('roz/api');
  });

  test('beside the repository by default, never inside it; or under the configured directory', () => {
    expect(worktreePath('/home/u/src/shop', 'api')).toBe('/home/u/src/shop.roz/api');
    expect(worktreePath('/home/u/src/shop/', 'api')).toBe('/home/u/src/shop.roz/api');
    expect(worktreePath('/shop', 'api')).toBe('/shop.roz/api');
    expect(isInside(worktreePath('/home/u/src/shop', 'api'), '/home/u/src/shop')).toBe(false);
    expect(worktreePath('/home/u/src/shop', 'api', '/var/agents/')).toBe('/var/agents/api');
    expect(isInside('/a/b', '/a')).toBe(true);
    expect(isInside('/ab', '/a')).toBe(false);
  });

  test('git worktree list --porcelain as data', () => {
    const out = parseWorktreeList(
      'worktree /r\nHEAD 1111\nbranch refs/heads/main\n\nworktree /r.roz/api\nHEAD 2222\nbranch refs/heads/roz/api\nlocked\n\nworktree /tmp/d\nHEAD 3333\ndetached\nprunable gitdir file points to non-existent location\n\n',
    );
    expect(out).toEqual([
      { path: '/r', head: '1111', branch: 'refs/heads/main', bare: false, detached: false, locked: false, prunable: false },
      { path: '/r.roz/api', head: '2222', branch: 'refs/heads/roz/api', bare: false, detached: false, locked: true, prunable: false },
      { path: '/tmp/d', head: '3333', branch: null, bare: false, detached: true, locked: false, prunable: true },
    ]);
  });
});
