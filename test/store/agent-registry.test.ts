// roz's fleet registry, through its one module (issue 32): the schema a
// registry must pass, what reading a broken or foreign one says, the lock a
// change takes, "which agent owns this directory", and the place a launch
// computes once (a caller that already knows the agent does not scan the store).
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAgent, readRegistry, registryFile, updateRegistry, writeRegistry } from '../../src/store/agent-registry.js';
import { agentPlace } from '../../src/store/agent-place.js';
import { FleetError } from '../../src/store/fleet-error.js';
import { tempDir } from '../helpers/temp-dir.js';

function layout() {
  const top = realpathSync(tempDir('roz-agent-registry-'));
  const store = join(top, 'store');
  const base = join(top, 'repo');
  const wt = join(top, 'repo.roz', 'a');
  for (const d of [store, base, join(wt, 'sub')]) mkdirSync(d, { recursive: true });
  return { top, store, base, wt, key: join(base, '.git') };
}

const record = (l: ReturnType<typeof layout>, extra: object = {}) => ({
  name: 'a',
  branch: 'roz/a',
  worktree: l.wt,
  base_ref: 'refs/heads/main',
  base_commit: 'a'.repeat(40),
  base_checkout: l.base,
  created_at: '2026-11-29T00:00:00.000Z',
  shared: false,
  ...extra,
});

describe('the registry module', () => {
  it('reads what it wrote; an absent registry is empty; older records get the defaults they meant', () => {
    const l = layout();
    expect(readRegistry(l.store, l.key)).toEqual({ version: 1, repo: l.key, agents: {} });
    writeRegistry(l.store, { version: 1, repo: l.key, agents: { a: record(l) } });
    expect(readRegistry(l.store, l.key).agents.a).toEqual(record(l));
    // An older record: only its worktree.
    writeFileSync(registryFile(l.store, l.key), JSON.stringify({ version: 1, repo: l.key, agents: { old: { worktree: l.wt } } }));
    expect(readRegistry(l.store, l.key).agents.old).toMatchObject({ name: 'old', branch: null, shared: false, base_commit: null, created_at: '' });
  });

  it('refuses a registry that is not JSON, not one roz wrote, or written for another repository (never read as empty)', () => {
    const l = layout();
    const file = registryFile(l.store, l.key);
    mkdirSync(join(l.store, 'fleet'), { recursive: true });
    for (const [text, said] of [
      ['{ nope', /is not JSON.*move it aside/],
      [JSON.stringify({ version: 2, repo: l.key, agents: {} }), /is not one roz wrote for/],
      [JSON.stringify({ version: 1, repo: l.key, agents: { a: { worktree: 7 } } }), /is not one roz wrote for/],
      [JSON.stringify({ version: 1, repo: l.key, agents: { a: { ...record(l), shared: 'no' } } }), /is not one roz wrote for/],
      [JSON.stringify({ version: 1, repo: '/other/.git', agents: {} }), /is not one roz wrote for/],
    ] as const) {
      writeFileSync(file, text);
      expect(() => readRegistry(l.store, l.key)).toThrow(FleetError);
      expect(() => readRegistry(l.store, l.key)).toThrow(said);
    }
  });

  it('updateRegistry changes under the lock: concurrent changes all land', async () => {
    const l = layout();
    await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((n) =>
        updateRegistry(l.store, l.key, (reg) => {
          reg.agents[n] = record(l, { name: n, worktree: join(l.top, n) });
        }),
      ),
    );
    expect(Object.keys(readRegistry(l.store, l.key).agents).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(JSON.parse(readFileSync(registryFile(l.store, l.key), 'utf8')).version).toBe(1);
  });

  it('findAgent: the agent whose worktree holds the folder, its record and roots; a shared agent owns nothing', () => {
    const l = layout();
    writeRegistry(l.store, {
      version: 1,
      repo: l.key,
      agents: { main: record(l, { name: 'main', worktree: l.base, shared: true, branch: null }), a: record(l) },
    });
    const found = findAgent(l.store, join(l.wt, 'sub'));
    expect(found?.agent.name).toBe('a');
    expect(found?.repo).toBe(l.key);
    expect(found?.roots).toEqual({ worktree: l.wt, base: l.base });
    expect(findAgent(l.store, l.base)).toBeNull();
  });

  it('agentPlace: from the registry when not told; a caller that knows the agent is believed (the store is not read)', () => {
    const l = layout();
    writeRegistry(l.store, { version: 1, repo: l.key, agents: { a: record(l) } });
    expect(agentPlace(l.store, l.wt).agent).toEqual({ name: 'a', roots: { worktree: l.wt, base: l.base } });
    // Not a git repository: no linked worktree.
    expect(agentPlace(l.store, l.wt).linked).toBeNull();
    // Told: a store that does not exist is never asked.
    const known = { repo: l.key, agent: { ...record(l), name: 'k' }, roots: { worktree: l.wt, base: l.base } };
    expect(agentPlace(join(l.top, 'no-store'), l.wt, known).agent?.name).toBe('k');
    expect(agentPlace(l.store, l.wt, null).agent).toBeNull();
  });
});
