// Which project an agent in its worktree is, and where its intents come from
// (issue 25): findProjectRoot with the launcher's roots, and the registry
// lookup the launcher, CLI, MCP server and supervisor use. Real folders.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAgent } from '../../src/store/agent-registry.js';

const agentRootsFromRegistry = (store: string, dir: string) => findAgent(store, dir)?.roots ?? null;
import { agentRootsFromEnv, findProjectRoot, intentsHome } from '../../src/store/project-root.js';
import { tempDir } from '../helpers/temp-dir.js';

const INTENTS = 'active_intents: []\n';

function layout() {
  const top = realpathSync(tempDir('roz-agent-roots-'));
  const base = join(top, 'repo');
  const wt = join(top, 'repo.roz', 'a');
  const elsewhere = join(top, 'elsewhere');
  for (const d of [base, join(wt, 'sub'), elsewhere]) mkdirSync(d, { recursive: true });
  const govern = (dir: string) => {
    mkdirSync(join(dir, '.orchestration'), { recursive: true });
    writeFileSync(join(dir, '.orchestration', 'active_intents.yaml'), INTENTS);
  };
  return { top, base, wt, elsewhere, govern, agent: { worktree: wt, base } };
}

describe('findProjectRoot for an agent in its worktree', () => {
  it('the worktree is the project when the base is governed, whatever its own .orchestration/ holds; intents from the base', () => {
    const l = layout();
    l.govern(l.base);
    for (const cwd of [l.wt, join(l.wt, 'sub')]) expect(findProjectRoot(cwd, { projectDir: l.wt, agent: l.agent })).toBe(l.wt);
    // A copy planted in a folder of the worktree changes nothing.
    l.govern(join(l.wt, 'sub'));
    expect(findProjectRoot(join(l.wt, 'sub'), { projectDir: l.wt, agent: l.agent })).toBe(l.wt);
    expect(intentsHome(l.wt, l.agent)).toBe(l.base);
    // Remembered and cd'd out: still the worktree.
    expect(findProjectRoot(l.top, { remembered: l.wt, projectDir: l.wt, agent: l.agent })).toBe(l.wt);
    // Without the launcher's roots the planted copy in sub/ would govern there (the control).
    expect(findProjectRoot(join(l.wt, 'sub'), { projectDir: join(l.wt, 'sub') })).toBe(join(l.wt, 'sub'));
  });

  it('the base not governed: neither is the worktree, even with its own copy; another governed project the agent cd’d into governs there', () => {
    const l = layout();
    l.govern(l.wt);
    expect(findProjectRoot(l.wt, { projectDir: l.wt, agent: l.agent })).toBeNull();
    expect(findProjectRoot(l.wt, { projectDir: l.wt })).toBe(l.wt);
    l.govern(l.elsewhere);
    expect(findProjectRoot(l.elsewhere, { projectDir: l.wt, agent: l.agent })).toBe(l.elsewhere);
    expect(intentsHome(l.elsewhere, l.agent)).toBe(l.elsewhere);
  });

  it('agentRootsFromEnv: both absolute, or none', () => {
    expect(agentRootsFromEnv({ ROZ_AGENT_WORKTREE: '/w', ROZ_BASE_CHECKOUT: '/b' })).toEqual({ worktree: '/w', base: '/b' });
    for (const env of [
      {},
      { ROZ_AGENT_WORKTREE: '/w' },
      { ROZ_AGENT_WORKTREE: '/w', ROZ_BASE_CHECKOUT: '' },
      { ROZ_AGENT_WORKTREE: 'w', ROZ_BASE_CHECKOUT: '/b' },
    ])
      expect(agentRootsFromEnv(env)).toBeNull();
  });
});

describe('agentRootsFromRegistry', () => {
  it('finds the agent whose worktree holds the folder; an older record’s base is its repository’s main checkout; shared agents, junk and a base inside the worktree do not count', () => {
    const l = layout();
    const store = join(l.top, 'store');
    mkdirSync(join(store, 'fleet'), { recursive: true });
    const put = (name: string, reg: unknown) => writeFileSync(join(store, 'fleet', name), typeof reg === 'string' ? reg : JSON.stringify(reg));
    put('aaaaaaaaaaaaaaaaaaaaaaaa.json', '{ not json');
    put('bbbbbbbbbbbbbbbbbbbbbbbb.json', {
      version: 1,
      repo: join(l.base, '.git'),
      agents: {
        main: { worktree: l.base, shared: true },
        a: { worktree: l.wt, shared: false },
      },
    });
    expect(agentRootsFromRegistry(store, l.wt)).toEqual({ worktree: l.wt, base: l.base });
    expect(agentRootsFromRegistry(store, join(l.wt, 'sub'))).toEqual({ worktree: l.wt, base: l.base });
    expect(agentRootsFromRegistry(store, l.base)).toBeNull();
    expect(agentRootsFromRegistry(store, l.elsewhere)).toBeNull();
    put('bbbbbbbbbbbbbbbbbbbbbbbb.json', { version: 1, repo: '/x/.git', agents: { a: { worktree: l.wt, base_checkout: join(l.wt, 'sub') } } });
    expect(agentRootsFromRegistry(store, l.wt)).toBeNull();
    put('bbbbbbbbbbbbbbbbbbbbbbbb.json', { version: 1, repo: '/x/.git', agents: { a: { worktree: l.wt, base_checkout: l.base } } });
    expect(agentRootsFromRegistry(store, l.wt)).toEqual({ worktree: l.wt, base: l.base });
    expect(agentRootsFromRegistry(join(l.top, 'no-store'), l.wt)).toBeNull();
  });
});
