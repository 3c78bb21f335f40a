// The demos' own words fit a new user's 80-column terminal: every line of the
// intros (with a long temp path and the colours on, as printed) and of the
// prompt after a detach.
import { describe, expect, it } from 'vitest';
import { demoIntro, fleetIntro, INTRO_COLUMNS, labelled, visibleWidth } from '../../scripts/demo/intros.js';
import { REATTACH_PROMPT } from '../../scripts/demo/reattach.js';

const bold = (s: string): string => `\x1b[1m${s}\x1b[0m`;
const plain = (s: string): string => s;
const repo = '/tmp/roz-demo-fleet-AbCdEf/repo';
const deep = '/tmp/rzt-Xy12ab/roz-e2e-run-0123456789/roz-demo-fleet-AbCdEf/a-long-project-name/repo';

describe('the demo intros at 80 columns', () => {
  it.each([
    ['the demo', demoIntro],
    ['the fleet demo', fleetIntro],
  ] as const)('%s: no line wider than 80, colours or not; the temp path and the keys all there', (_, intro) => {
    for (const b of [bold, plain]) {
      const lines = intro({ client: '2.1.197', repo, b });
      for (const l of lines) expect(visibleWidth(l), l).toBeLessThanOrEqual(INTRO_COLUMNS);
      expect(lines.join('').replace(/\s+/g, '')).toContain(repo);
      // A path longer than a line is printed whole (to be copied), on its own line.
      expect(intro({ client: '2.1.197', repo: deep, b }).some((l) => l.trim().endsWith(deep))).toBe(true);
    }
  });

  it('the fleet demo names d and every agent; the reattach prompt fits too', () => {
    const text = fleetIntro({ client: '2.1.330', repo, b: plain }).join('\n');
    expect(text).toMatch(/^\s+d\s+the selected agent's work/m);
    expect(text).toContain('roz agent add b --prompt');
    for (const l of REATTACH_PROMPT) expect(visibleWidth(l), l).toBeLessThanOrEqual(INTRO_COLUMNS);
  });

  it('wraps a long value under its label, never cutting a word', () => {
    expect(labelled('  key  ', 'one two three four', 16)).toEqual(['  key  one two', '       three four']);
    expect(labelled('  k ', `a ${'x'.repeat(25)} b`, 14)).toEqual(['  k a', `    ${'x'.repeat(25)}`, '    b']);
  });
});
