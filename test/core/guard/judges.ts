// The two ways the guard corpus tests judge a Bash command, shared by the tuning
// and the held-out measurements: a project without intents (the guard plus the
// beyond-the-project check, as engine.ts runs them) and a governed project
// (an intent owning `**`, temp writes allowed).
import { realpathSync } from 'node:fs';
import { guardOnPreToolUse, outsideWrites, projectBounds } from '../../../src/core/guard.js';
import { intentsOnPreToolUse, type GovernanceContext } from '../../../src/core/governance/policy.js';
import { emptyGovernance } from '../../../src/core/governance/state.js';
import { classifyDestructive } from '../../../src/core/shell/destructive.js';
import { writeTargets } from '../../../src/core/shell/writes.js';
import type { Verdict } from '../../../src/core/verdict.js';
import { loadProject } from '../../../src/store/orchestration.js';
import { resolveReal } from '../../../src/store/realpath.js';
import { makeProject, pre } from '../../governance/helpers.js';
import { outsideTmpDir } from '../../helpers/outside-tmp.js';

export type Judge = (command: string) => Verdict;

export const flagged = (v: Verdict): boolean => v.kind === 'ask' || v.kind === 'deny';

/** A repo without intents: the destructive list, then files beyond the project the command would destroy. */
export function ungovernedJudge(): Judge {
  const bounds = projectBounds('/work/app', {}, '/home/me', '/tmp');
  const outside = (command: string) => outsideWrites(writeTargets(command).targets, bounds);
  return (command) => guardOnPreToolUse(pre('/work/app', 'Bash', { command }), classifyDestructive, 'ask', outside).verdict;
}

/** A governed repo: an intent owning `**`, in a project that is not under /tmp (which would make /tmp its neighbourhood). */
export function governedJudge(): Judge {
  const base = outsideTmpDir('roz-guard-corpus');
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
  return (command) => intentsOnPreToolUse(gov, pre(p.root, 'Bash', { command }), ctx).verdict;
}

type Case = readonly [command: string, source: string, note?: string];

/** Commands of `mustAsk` that pass and of `safe` that are flagged, each with its source (and the reason, for alarms). */
export function measure(judge: Judge, mustAsk: readonly Case[], safe: readonly Case[]): { missed: string[]; falseAlarms: string[] } {
  const missed = mustAsk.filter(([c]) => !flagged(judge(c))).map(([c, src]) => `${c}  (${src})`);
  const falseAlarms = safe.flatMap(([c, src]) => {
    const v = judge(c);
    return flagged(v) ? [`${c}  (${src}): ${v.kind === 'ask' || v.kind === 'deny' ? v.reason.slice(0, 160) : ''}`] : [];
  });
  return { missed, falseAlarms };
}

export const pct = (n: number, of: number): string => `${((100 * n) / of).toFixed(1)} %`;
