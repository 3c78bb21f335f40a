import { describe, expect, test } from 'vitest';
import { ledgerLineHash, ledgerUnion } from '../../../src/core/fleet/ledger-union.js';
import { changedRozFiles, isRozFile, rozFilesRefusal } from '../../../src/core/fleet/roz-files.js';
import { type MergeFacts, mergeVerdict } from '../../../src/core/fleet/merge-gate.js';

const T1 = 'a'.repeat(40);
const T2 = 'b'.repeat(40);
const facts = (over: Partial<MergeFacts>): MergeFacts => ({
  decisions: [],
  branchTree: T1,
  branchHead: 'h2',
  baseHead: 'h1',
  alreadyMerged: false,
  ...over,
});

describe('the merge gate', () => {
  test('never reviewed: refused, and told how to get a review', () => {
    expect(mergeVerdict('api', facts({}))).toMatchObject({ ok: false, code: 'never-reviewed', why: expect.stringContaining('never reviewed') });
  });

  test('ISSUES open: refused even after an earlier approval', () => {
    const v = mergeVerdict(
      'api',
      facts({
        decisions: [
          { kind: 'complete', tree: T1, decided_at: 't1' },
          { kind: 'issues', tree: T1, decided_at: 't2' },
        ],
      }),
    );
    expect(v).toMatchObject({ ok: false, code: 'issues-open' });
  });

  test('changed since the approval: refused, naming both trees', () => {
    const v = mergeVerdict('api', facts({ branchTree: T2, decisions: [{ kind: 'complete', tree: T1, decided_at: 't1' }] }));
    expect(v).toMatchObject({ ok: false, code: 'changed-since-approval', why: expect.stringContaining(T2.slice(0, 12)) });
  });

  test('an approval without a tree covers nothing', () => {
    expect(mergeVerdict('api', facts({ decisions: [{ kind: 'complete', tree: null, decided_at: 't1' }] }))).toMatchObject({ ok: false, code: 'no-tree' });
  });

  test('approved at exactly the branch tree: merge', () => {
    expect(
      mergeVerdict(
        'api',
        facts({
          decisions: [
            { kind: 'issues', tree: T2, decided_at: 't0' },
            { kind: 'complete', tree: T1, decided_at: 't1' },
          ],
        }),
      ),
    ).toEqual({
      ok: true,
      approvedAt: 't1',
      tree: T1,
    });
  });

  test('nothing to merge is not a success', () => {
    expect(mergeVerdict('api', facts({ alreadyMerged: true, decisions: [{ kind: 'complete', tree: T1, decided_at: 't' }] }))).toMatchObject({
      ok: false,
      code: 'nothing-to-merge',
    });
  });
});

describe("a branch's ledger records into the base's", () => {
  const rec = (id: string, extra = '') => JSON.stringify({ id, extra });
  test('base as it is, then the branch records the base lacks, in order: none lost, none twice', () => {
    const shared = rec('0');
    const base = `${shared}\n${rec('b1')}\n`;
    const branch = `${shared}\n${rec('x1')}\n${rec('x2')}\n`;
    const u = ledgerUnion(base, branch);
    expect(
      u.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(['0', 'b1', 'x1', 'x2']);
    expect(u.added).toBe(2);
    // Merging again adds nothing.
    expect(ledgerUnion(u.text, branch)).toMatchObject({ text: u.text, added: 0 });
  });

  test('an unreadable branch line is kept once and reported; an empty base takes the branch whole', () => {
    const u = ledgerUnion('', `${rec('x1')}\n{torn\n{torn\n`);
    expect(u).toMatchObject({ added: 2, unreadable: 1 });
    expect(u.text).toBe(`${rec('x1')}\n{torn\n`);
    expect(ledgerUnion('', '')).toEqual({ text: '', added: 0, unreadable: 0, unverified: [] });
  });

  test('a branch record whose id the base has with other content is not appended twice', () => {
    expect(ledgerUnion(`${rec('1', 'a')}\n`, `${rec('1', 'b')}\n`).added).toBe(0);
  });
});

describe('only the records roz recorded writing come from a branch (issue 29)', () => {
  const rec = (id: string, extra = '') => JSON.stringify({ id, extra });
  test('a branch line roz did not record is left out and returned, whatever its id; the base keeps its own; a recorded line comes in once', () => {
    const mine = rec('m1');
    const forged = rec('f1', 'decided_by human');
    const sameId = rec('m1', 'other bytes');
    const recorded = new Set([ledgerLineHash(mine)]);
    const base = `${rec('b')}\n`;
    const u = ledgerUnion(base, `${rec('b')}\n${mine}\n${forged}\n${sameId}\n{torn\n`, recorded);
    expect(u.text).toBe(`${rec('b')}\n${mine}\n`);
    expect(u.added).toBe(1);
    expect(u.unverified).toEqual([forged, sameId, '{torn']);
    expect(u.unreadable).toBe(1);
    // Without a record set (roz's own two copies, store/base-checkout.ts), as before.
    expect(ledgerUnion(base, `${forged}\n`).added).toBe(1);
  });
});

describe("roz's files a branch changes", () => {
  const I = '.orchestration/active_intents.yaml';
  const L = '.orchestration/agent_trace.jsonl';
  const m = (o: Record<string, string>) => new Map(Object.entries(o));
  test('a change is what neither the base tip nor the merge base holds; the ledger is not one (merged by records)', () => {
    expect(changedRozFiles(m({ [I]: 'x' }), m({ [I]: 'a' }), m({ [I]: 'a' }))).toEqual([I]);
    expect(changedRozFiles(m({}), m({ [I]: 'a' }), m({ [I]: 'a' }))).toEqual([I]);
    expect(changedRozFiles(m({ [I]: 'a' }), m({ [I]: 'b' }), m({ [I]: 'a' }))).toEqual([]);
    expect(changedRozFiles(m({ [I]: 'b' }), m({ [I]: 'b' }), null)).toEqual([]);
    expect(changedRozFiles(m({ [L]: 'x' }), m({ [L]: 'a' }), m({}))).toEqual([]);
    expect(isRozFile('.orchestration/x')).toBe(true);
    expect(isRozFile('.orchestrationx')).toBe(false);
  });
  test('the refusal names each file and the forged lines, and says how to go on', () => {
    expect(rozFilesRefusal('a', 'roz/a', { changed: [], unverified: [] })).toBeNull();
    const why = rozFilesRefusal('a', 'roz/a', { changed: [{ path: I, commit: 'c'.repeat(40) }], unverified: [{ line: '{}', commit: 'd'.repeat(40) }] })!;
    expect(why).toMatch(/active_intents\.yaml \(the intents, commit c{12}\)/);
    expect(why).toMatch(/1 line\(s\) that roz did not write in a's sessions/);
    expect(why).toMatch(/drop those changes from its history/);
  });
});
