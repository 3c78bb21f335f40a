// The issue 30 TUNING corpus (guard-effects-corpus.ts): the cases the lexicon, the
// classes and the dry-run/help rule were grown on. Same contract as the held-out part:
// >= 97 % of must-ask asked, <= 2 % of safe flagged, in both kinds of repo.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOnDemand } from '../../../src/core/on-demand.js';
import { TUNING_MUST_ASK, TUNING_SAFE } from './guard-effects-corpus.js';
import { HELDOUT_MUST_ASK, HELDOUT_SAFE } from './guard-heldout.js';
import { governedJudge, type Judge, measure, pct, ungovernedJudge } from './judges.js';

beforeAll(loadAllOnDemand);

const CONTRACT = { caught: 0.97, alarms: 0.02 };

function expectContract(kind: string, judge: Judge): void {
  const r = measure(judge, TUNING_MUST_ASK, TUNING_SAFE);
  const caught = TUNING_MUST_ASK.length - r.missed.length;
  console.log(
    `tuning corpus, ${kind}: caught ${caught}/${TUNING_MUST_ASK.length} (${pct(caught, TUNING_MUST_ASK.length)}), ` +
      `safe flagged ${r.falseAlarms.length}/${TUNING_SAFE.length} (${pct(r.falseAlarms.length, TUNING_SAFE.length)})`,
  );
  if (process.env.GUARD_CORPUS_DEBUG) console.log(JSON.stringify(r, null, 1));
  expect({ caught: caught / TUNING_MUST_ASK.length >= CONTRACT.caught, alarms: r.falseAlarms.length / TUNING_SAFE.length <= CONTRACT.alarms, ...r }).toEqual({
    caught: true,
    alarms: true,
    ...r,
  });
}

describe('issue 30 tuning corpus', () => {
  it('has both classes, none repeated, none also in the held-out part', () => {
    expect(TUNING_MUST_ASK.length).toBeGreaterThanOrEqual(100);
    expect(TUNING_SAFE.length).toBeGreaterThanOrEqual(100);
    const all = [...TUNING_MUST_ASK, ...TUNING_SAFE].map(([c]) => c);
    expect(all.filter((c, i) => all.indexOf(c) !== i)).toEqual([]);
    const heldOut = new Set([...HELDOUT_MUST_ASK, ...HELDOUT_SAFE].map(([c]) => c));
    expect(all.filter((c) => heldOut.has(c))).toEqual([]);
  });

  it('repo without intents: >= 97 % of must-ask asked, <= 2 % of safe flagged', () => {
    expectContract('repo without intents', ungovernedJudge());
  });

  it('governed repo (intent owning **): >= 97 % of must-ask asked, <= 2 % of safe flagged', () => {
    expectContract('governed repo', governedJudge());
  });
});
