// The guard measured on its corpus, in an ungoverned project (the guard alone)
// and in a governed one (an intent owning `**`): at least 99 % of the must-ask
// commands reach a human, at most 1 % of the safe ones are flagged (issue 22).
// GUARD_CORPUS_DEBUG=1 prints every miss and false alarm with its source.
import { mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { guardOnPreToolUse, outsideWrites, projectBounds } from '../../../src/core/guard.js';
import { loadAllOnDemand } from '../../../src/core/on-demand.js';
import { intentsOnPreToolUse, type GovernanceContext } from '../../../src/core/governance/policy.js';
import { emptyGovernance } from '../../../src/core/governance/state.js';
import { classifyDestructive } from '../../../src/core/shell/destructive.js';
import { writeTargets } from '../../../src/core/shell/writes.js';
import type { Verdict } from '../../../src/core/verdict.js';
import { loadProject } from '../../../src/store/orchestration.js';
import { resolveReal } from '../../../src/store/realpath.js';
import { makeProject, pre } from '../../governance/helpers.js';
import { MUST_ASK, SAFE, SOURCES } from './guard-corpus.js';

beforeAll(loadAllOnDemand);

// Where the rules stand (raised with every fix; the goal is { caught: 0.99, alarms: 0.01 }).
const UNGOVERNED_FLOOR = { caught: 0.99, alarms: 0.01 };
const GOVERNED_FLOOR = { caught: 0.99, alarms: 0.01 };

const flagged = (v: Verdict): boolean => v.kind === 'ask' || v.kind === 'deny';

function measure(judge: (command: string) => Verdict): { missed: string[]; falseAlarms: string[] } {
  const missed = MUST_ASK.filter(([c]) => !flagged(judge(c))).map(([c, src]) => `${c}  (${src})`);
  const falseAlarms = SAFE.filter(([c]) => flagged(judge(c))).map(([c, src]) => {
    const v = judge(c);
    return `${c}  (${src}): ${v.kind === 'ask' || v.kind === 'deny' ? v.reason.slice(0, 160) : ''}`;
  });
  return { missed, falseAlarms };
}

const pct = (n: number, of: number): string => `${((100 * n) / of).toFixed(1)} %`;

/**
 * The contract is >= 99 % caught and <= 1 % asked (issue 22); `floor` is where the
 * rules stand today, so a commit can only move the rates towards it, never back.
 */
function expectRates(kind: string, r: { missed: string[]; falseAlarms: string[] }, floor: { caught: number; alarms: number }): void {
  const caught = MUST_ASK.length - r.missed.length;
  console.log(
    `guard corpus, ${kind}: caught ${caught}/${MUST_ASK.length} (${pct(caught, MUST_ASK.length)}), ` +
      `safe asked ${r.falseAlarms.length}/${SAFE.length} (${pct(r.falseAlarms.length, SAFE.length)})`,
  );
  if (process.env.GUARD_CORPUS_DEBUG) console.log(JSON.stringify(r, null, 1));
  // The lists make a failure readable; the rates are the contract.
  expect({
    caught: caught / MUST_ASK.length >= floor.caught,
    alarms: r.falseAlarms.length / SAFE.length <= floor.alarms,
    missed: r.missed,
    falseAlarms: r.falseAlarms,
  }).toEqual({
    caught: true,
    alarms: true,
    missed: r.missed,
    falseAlarms: r.falseAlarms,
  });
}

describe('guard corpus', () => {
  it('is built from cited public sources, with both classes well represented', () => {
    expect(MUST_ASK.length + SAFE.length).toBeGreaterThanOrEqual(700);
    expect(MUST_ASK.length).toBeGreaterThanOrEqual(300);
    expect(SAFE.length).toBeGreaterThanOrEqual(300);
    const sources = new Set([...MUST_ASK, ...SAFE].map(([, s]) => s));
    expect([...sources].sort()).toEqual([...SOURCES].sort());
    for (const s of ['issue22', 'csn-git', 'csn-rm', 'csn-edge-cases', 'dcg-rm-safe', 'tldr']) expect(sources.has(s), s).toBe(true);
    const dupes = [...MUST_ASK, ...SAFE].map(([c]) => c).filter((c, i, all) => all.indexOf(c) !== i);
    expect(dupes).toEqual([]);
  });

  it('ungoverned project: >= 99 % of must-ask asked, <= 1 % of safe flagged', () => {
    // As the engine runs it: the destructive list, then files beyond the project the command would destroy.
    const bounds = projectBounds('/work/app', {}, '/home/me', '/tmp');
    const outside = (command: string) => outsideWrites(writeTargets(command).targets, bounds);
    expectRates(
      'repo without intents',
      measure((command) => guardOnPreToolUse(pre('/work/app', 'Bash', { command }), classifyDestructive, 'ask', outside).verdict),
      UNGOVERNED_FLOOR,
    );
  });

  it('ungoverned project with [guard] destructive = "deny": the same commands are denied, and "off" lets them through', () => {
    const deny = guardOnPreToolUse(pre('/work', 'Bash', { command: 'rm -rf ~' }), classifyDestructive, 'deny').verdict;
    expect(deny).toMatchObject({ kind: 'deny', code: 'DESTRUCTIVE_BLOCKED' });
    expect(guardOnPreToolUse(pre('/work', 'Bash', { command: 'rm -rf ~' }), classifyDestructive, 'off').verdict.kind).toBe('none');
    const ask = guardOnPreToolUse(pre('/work', 'Bash', { command: 'git push --force' }), classifyDestructive, 'ask').verdict;
    expect(ask.kind === 'ask' && ask.reason).toMatch(/claude -p.*denial/);
  });

  it('governed project, intent owning **: >= 99 % of must-ask asked, <= 1 % of safe flagged', () => {
    // A project where projects live (not under /tmp, which would make /tmp the project's neighbourhood, not scratch):
    // beside this checkout, unless the checkout itself is under /tmp (a CI clone), then in the user's cache.
    const tmp = realpathSync('/tmp');
    const candidates = [fileURLToPath(new URL('../../../node_modules/.cache/', import.meta.url)), join(homedir(), '.cache'), '/var/tmp'];
    const outsideTmp = candidates.find((d) => {
      mkdirSync(d, { recursive: true });
      const real = realpathSync(d);
      return real !== tmp && !real.startsWith(`${tmp}/`);
    });
    if (!outsideTmp) throw new Error(`no directory outside /tmp to put the governed test project in (tried ${candidates.join(', ')})`);
    const base = join(outsideTmp, 'roz-guard-corpus');
    mkdirSync(base, { recursive: true });
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = base;
    const p = makeProject({
      git: true,
      intents: 'active_intents:\n  - id: INT-ALL\n    name: Everything\n    status: IN_PROGRESS\n    owned_scope: ["**"]\n',
    });
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    const project = loadProject(p.root);
    const ctx: GovernanceContext = {
      project,
      paths: { cwd: p.root, home: p.home, root: project.root, realish: resolveReal },
      storeRoot: resolveReal(p.store),
      writes: writeTargets,
      destructive: classifyDestructive,
      hashFile: () => null,
      guard: 'ask',
      tempDirs: [realpathSync('/tmp'), realpathSync('/var/tmp')],
    };
    const gov = { ...emptyGovernance(), intent_id: 'INT-ALL', selected_at: '2026-03-01T10:00:00Z', selected_via: 'mcp' as const };
    expectRates(
      'governed repo (intent owning **)',
      measure((command) => intentsOnPreToolUse(gov, pre(p.root, 'Bash', { command }), ctx).verdict),
      GOVERNED_FLOOR,
    );
  });
});
