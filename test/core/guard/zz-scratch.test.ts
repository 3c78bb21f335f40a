import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, it } from 'vitest';
import { guardPreToolUse } from '../../../src/core/guard.js';
import { loadAllOnDemand } from '../../../src/core/on-demand.js';
import { governPreToolUse, type GovernanceContext } from '../../../src/core/governance/policy.js';
import { emptyGovernance } from '../../../src/core/governance/state.js';
import { classifyDestructive } from '../../../src/core/shell/destructive.js';
import { writeTargets } from '../../../src/core/shell/writes.js';
import { loadProject } from '../../../src/store/orchestration.js';
import { resolveReal } from '../../../src/store/realpath.js';
import { makeProject, pre } from '../../governance/helpers.js';
beforeAll(loadAllOnDemand);
it('scratch', () => {
  const raw = JSON.parse(readFileSync(process.env.IN ?? '/tmp/pg/raw.json', 'utf8'));
  const base = join(fileURLToPath(new URL('../../../node_modules/.cache/', import.meta.url)), 'roz-guard-corpus');
  mkdirSync(base, { recursive: true });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = base;
  const p = makeProject({ git: true, intents: 'active_intents:\n  - id: INT-ALL\n    name: Everything\n    status: IN_PROGRESS\n    owned_scope: ["**"]\n' });
  process.env.TMPDIR = saved;
  const project = loadProject(p.root);
  const ctx: GovernanceContext = {
    project,
    paths: { cwd: p.root, home: p.home, root: project.root, realish: resolveReal },
    storeRoot: resolveReal(p.store),
    writes: writeTargets,
    destructive: classifyDestructive,
    hashFile: () => null,
    guard: 'ask',
    tempDirs: [realpathSync('/tmp')],
  };
  const gov = { ...emptyGovernance(), intent_id: 'INT-ALL', selected_at: '2026-03-01T10:00:00Z', selected_via: 'mcp' as const };
  const out = raw.map((o: { cmd: string }) => {
    const u = guardPreToolUse(pre(p.root, 'Bash', { command: o.cmd }), classifyDestructive, 'ask').verdict;
    const g = governPreToolUse(gov, pre(p.root, 'Bash', { command: o.cmd }), ctx).verdict;
    const r = (v: any) => (v.kind === 'ask' || v.kind === 'deny' ? `${v.kind}: ${v.reason.slice(0, 140)}` : v.kind);
    return { ...o, u: r(u), g: r(g) };
  });
  writeFileSync(process.env.OUT ?? '/tmp/pg/result.json', JSON.stringify(out, null, 1));
});
