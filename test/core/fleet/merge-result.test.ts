import { describe, expect, it } from 'vitest';
import { describeMerge, mergeExitCode, mergeMessage, type MergeResult } from '../../../src/core/fleet/merge-result.js';

const refused: MergeResult = {
  kind: 'refused',
  agent: 'b',
  branch: 'roz/b',
  base: 'main',
  code: 'never-reviewed',
  why: "b's work was never reviewed",
  worktree: '/w/b',
  session: null,
};

describe('the merge value read as words and exit codes', () => {
  it('each kind has its exit code', () => {
    expect(mergeExitCode({ kind: 'nothing', agent: 'b', why: 'x' })).toBe(0);
    expect(mergeExitCode(refused)).toBe(5);
    expect(mergeExitCode({ kind: 'conflict', agent: 'b', branch: 'roz/b', base: 'main', paths: ['a'] })).toBe(6);
    expect(mergeExitCode({ kind: 'dirty-base', agent: 'b', base: 'main', checkout: '/r', files: ['a'] })).toBe(4);
    expect(mergeExitCode({ kind: 'no-agent', agent: 'b' })).toBe(3);
    expect(mergeExitCode({ kind: 'failed', agent: 'b', message: 'm', exit: 2 })).toBe(2);
  });
  it('a refusal says why on stderr and how to get a review (the reviewer, or the human)', () => {
    const lines = describeMerge(refused);
    expect(lines.every((l) => l.err)).toBe(true);
    expect(lines[0]!.text).toBe("roz: refused to merge roz/b into main: b's work was never reviewed");
    expect(lines.map((l) => l.text).join('\n')).toContain('roz agent merge b --human');
    expect(mergeMessage(refused).message).toMatch(/^refused \(exit 5\): refused to merge roz\/b into main: b's work was never reviewed/);
    expect(mergeMessage(refused).ok).toBe(false);
  });
  it("a human's approval is named in the merged words; a ledger that could not be written is a warning", () => {
    const merged: MergeResult = {
      kind: 'merged',
      agent: 'b',
      branch: 'roz/b',
      base: 'main',
      strategy: 'merge',
      from: 'a'.repeat(40),
      commit: 'c'.repeat(40),
      tree: 't'.repeat(40),
      review: { by: 'human', human: 'ada', decided_at: '2026-01-01T00:00:00.000Z', session_id: 's', summary: 'approved by hand' },
      checked: 3,
      ledger: { file: '/r/l', added: 2, in_tree: false, error: 'EACCES' },
      agent_ledger: { refused: null, dropped: 0, unverified: [] },
      checkouts: ['/r'],
    };
    const lines = describeMerge(merged);
    expect(lines.some((l) => l.err)).toBe(false);
    expect(lines[1]!.text).toContain('approved by ada');
    expect(lines.find((l) => l.warn)!.text).toContain('EACCES');
    expect(mergeMessage(merged)).toMatchObject({ ok: true, message: expect.stringMatching(/^merged roz\/b into main \(merge\)/) });
  });
});
