// The held-out corpus (guard-heldout.ts), measured and never tuned on: issue 30's
// contract is >= 97 % of must-ask asked and <= 2 % of safe ones flagged, in a repo
// without intents and in a governed one. GUARD_CORPUS_DEBUG=1 prints the misses.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOnDemand } from '../../../src/core/on-demand.js';
import { HELDOUT_MUST_ASK, HELDOUT_SAFE } from './guard-heldout.js';
import { governedJudge, type Judge, measure, pct, ungovernedJudge } from './judges.js';

beforeAll(loadAllOnDemand);

const CONTRACT = { caught: 0.97, alarms: 0.02 };

function expectContract(kind: string, judge: Judge): void {
  const r = measure(judge, HELDOUT_MUST_ASK, HELDOUT_SAFE);
  const caught = HELDOUT_MUST_ASK.length - r.missed.length;
  console.log(
    `held-out corpus, ${kind}: caught ${caught}/${HELDOUT_MUST_ASK.length} (${pct(caught, HELDOUT_MUST_ASK.length)}), ` +
      `safe flagged ${r.falseAlarms.length}/${HELDOUT_SAFE.length} (${pct(r.falseAlarms.length, HELDOUT_SAFE.length)})`,
  );
  if (process.env.GUARD_CORPUS_DEBUG) console.log(JSON.stringify(r, null, 1));
  expect({ caught: caught / HELDOUT_MUST_ASK.length >= CONTRACT.caught, alarms: r.falseAlarms.length / HELDOUT_SAFE.length <= CONTRACT.alarms, ...r }).toEqual({
    caught: true,
    alarms: true,
    ...r,
  });
}

describe('held-out guard corpus (issue 30)', () => {
  it('has at least 300 cases, roughly half must-ask, none repeated', () => {
    expect(HELDOUT_MUST_ASK.length + HELDOUT_SAFE.length).toBeGreaterThanOrEqual(300);
    expect(Math.abs(HELDOUT_MUST_ASK.length - HELDOUT_SAFE.length)).toBeLessThan(0.2 * HELDOUT_SAFE.length);
    const all = [...HELDOUT_MUST_ASK, ...HELDOUT_SAFE].map(([c]) => c);
    expect(all.filter((c, i) => all.indexOf(c) !== i)).toEqual([]);
  });

  it('repo without intents: >= 97 % of must-ask asked, <= 2 % of safe flagged', () => {
    expectContract('repo without intents', ungovernedJudge());
  });

  it('governed repo (intent owning **): >= 97 % of must-ask asked, <= 2 % of safe flagged', () => {
    expectContract('governed repo', governedJudge());
  });
});
