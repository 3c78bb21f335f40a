// Runs the whole destructive corpus and reports every mismatch at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOnDemand } from '../../../src/core/on-demand.js';
import { EFFECT_RULES, LAZY_RULES } from '../../../src/core/shell/effects.js';
import { classifyDestructive } from '../../../src/core/shell/destructive.js';
import { DESTRUCTIVE_RULES } from '../../../src/core/shell/destructive-rules.js';
import { DESTRUCTIVE_CORPUS } from './destructive-corpus.js';

// The effects lexicon (issue 30) is its own on-demand module: the classifier asks for it.
beforeAll(loadAllOnDemand);

describe('classifyDestructive corpus', () => {
  it('has at least 150 entries, with plenty of negatives', () => {
    expect(DESTRUCTIVE_CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(DESTRUCTIVE_CORPUS.filter(([, rule]) => rule === null).length).toBeGreaterThanOrEqual(50);
  });

  it('classifies every corpus command as expected', () => {
    const mismatches: string[] = [];
    for (const [command, rule] of DESTRUCTIVE_CORPUS) {
      const verdict = classifyDestructive(command);
      const fired = verdict.findings.map((f) => f.rule);
      if (rule === null && verdict.destructive) mismatches.push(`${JSON.stringify(command)}: expected safe, got ${fired.join(', ')}`);
      if (rule !== null && !fired.includes(rule))
        mismatches.push(`${JSON.stringify(command)}: expected ${rule}, got ${fired.length > 0 ? fired.join(', ') : 'safe'}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('only references rules that exist, and every rule is exercised', () => {
    const ids = new Set([...DESTRUCTIVE_RULES.map((r) => r.id), ...LAZY_RULES.map((r) => r.id), ...EFFECT_RULES]);
    const used = new Set(DESTRUCTIVE_CORPUS.map(([, rule]) => rule).filter((r): r is string => r !== null));
    expect([...used].filter((id) => !ids.has(id))).toEqual([]);
    expect([...ids].filter((id) => !used.has(id))).toEqual([]);
  });
});

describe('classifyDestructive findings', () => {
  it('names the effective command and explains why', () => {
    const verdict = classifyDestructive('sudo env X=1 rm -rf /srv/x');
    expect(verdict.destructive).toBe(true);
    expect(verdict.findings).toEqual([{ rule: 'rm-recursive-force', command: 'rm -rf /srv/x', why: expect.stringContaining('rm -rf'), via: 'sudo' }]);
  });

  it('reports each destructive command of a list', () => {
    const rules = classifyDestructive('git reset --hard && git clean -fdx').findings.map((f) => f.rule);
    expect(rules).toEqual(['git-reset-hard', 'git-clean-force']);
  });

  it('says when it could not see everything, so callers can fail closed', () => {
    expect(classifyDestructive('ls "$DIR"/*')).toMatchObject({ destructive: false, complete: true });
    // A shell running text nobody can read is asked about (issue 22: when unsure, ask).
    expect(classifyDestructive('bash -c "$CMD"')).toMatchObject({ destructive: true, complete: false, findings: [{ rule: 'unseen-script' }] });
    expect(classifyDestructive('ls').complete).toBe(true);
  });

  it('is not fooled by quoting the whole command as data', () => {
    expect(classifyDestructive("echo 'sudo rm -rf / && git push -f'").destructive).toBe(false);
  });
});
