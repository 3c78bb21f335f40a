// The MCP server over an in-memory transport: select_active_intent binds the intent and returns its context.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { governanceOf } from '../../src/core/governance/state.js';
import { governanceOnPreToolUse } from '../../src/engine/governance/gate.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { MemorySessionStore } from '../../src/store/memory-store.js';
import { makeProject, pre, session } from './helpers.js';

async function connect(env: Record<string, string>, store = new MemorySessionStore()) {
  const server = createMcpServer({ env, store, now: () => new Date('2026-03-01T10:00:00Z') });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(b);
  return { client, store };
}
const textOf = (r: unknown): string => (r as { content: Array<{ text: string }> }).content[0]!.text;

describe('MCP server', () => {
  it('lists tools and refuses a non IN_PROGRESS intent', async () => {
    const p = makeProject();
    const { client } = await connect({ HOME: p.home, ROZ_STORAGE_PATH: p.store, CLAUDE_PROJECT_DIR: p.root });
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['select_active_intent', 'list_active_intents']));
    const r = await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'INT-002' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/INT-002 is DRAFT; only IN_PROGRESS/);
    expect(textOf(await client.callTool({ name: 'list_active_intents', arguments: {} }))).toMatch(/IN_PROGRESS INT-001/);
  });

  it('with CLAUDE_CODE_SESSION_ID binds the session directly and returns <intent_context>', async () => {
    const p = makeProject();
    const { client, store } = await connect({ HOME: p.home, ROZ_STORAGE_PATH: p.store, CLAUDE_PROJECT_DIR: p.root, CLAUDE_CODE_SESSION_ID: 'sess-9' });
    const r = await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'INT-001' } });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toMatch(
      /<intent_context id="INT-001" status="IN_PROGRESS">[\s\S]*<constraint>Must not use external auth providers<\/constraint>[\s\S]*<criterion>Unit tests in tests\/auth\/ pass<\/criterion>/,
    );
    expect(governanceOf(store.read('sess-9')!).intent_id).toBe('INT-001');
  });

  it('without a session id leaves the selection for the next PreToolUse in the project', async () => {
    const p = makeProject();
    const { client } = await connect({ HOME: p.home, ROZ_STORAGE_PATH: p.store, CLAUDE_PROJECT_DIR: p.root });
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'INT-001' } });
    const s = session('sess-7');
    const d = { env: { HOME: p.home }, now: new Date('2026-03-01T10:05:00Z'), storeRoot: p.store, home: p.home };
    expect(governanceOnPreToolUse(s, pre(p.root, 'Write', { file_path: 'src/auth/x.ts' }), d).verdict.kind).toBe('none');
    // claimed once: another session does not get it
    expect(governanceOnPreToolUse(session('other'), pre(p.root, 'Write', { file_path: 'src/auth/x.ts' }), d).verdict).toMatchObject({
      code: 'INTENT_REQUIRED',
    });
  });
});

describe('MCP server for an agent in its worktree (issue 25)', () => {
  const MINE = 'active_intents:\n  - id: MINE\n    name: Mine\n    status: IN_PROGRESS\n    owned_scope: ["**"]\n';

  it('selects among the base checkout’s intents, from the launcher’s environment or roz’s registry; the worktree’s own copy is not offered', async () => {
    const base = makeProject();
    const wt = makeProject({ intents: MINE });
    const roots = { ROZ_AGENT_WORKTREE: wt.root, ROZ_BASE_CHECKOUT: base.root };
    const fromRegistry = () => {
      mkdirSync(join(wt.store, 'fleet'), { recursive: true });
      const agents = { b: { name: 'b', worktree: wt.root, shared: false, base_checkout: base.root } };
      writeFileSync(join(wt.store, 'fleet', '0123456789abcdef01234567.json'), JSON.stringify({ version: 1, repo: '/x/.git', agents }));
      return {};
    };
    for (const [how, extra] of [
      ['launcher', () => roots],
      ['registry', fromRegistry],
    ] as const) {
      const { client, store } = await connect({
        HOME: wt.home,
        ROZ_STORAGE_PATH: wt.store,
        CLAUDE_PROJECT_DIR: wt.root,
        CLAUDE_CODE_SESSION_ID: 'sess-w',
        ...extra(),
      });
      const mine = await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'MINE' } });
      expect(mine.isError, how).toBe(true);
      expect(textOf(mine), how).toContain(`no intent "MINE" in ${join(base.root, '.orchestration', 'active_intents.yaml')}`);
      const ok = await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'INT-001' } });
      expect(ok.isError, how).toBeFalsy();
      const gov = governanceOf(store.read('sess-w')!);
      expect(gov, how).toMatchObject({ intent_id: 'INT-001', project_root: wt.root, intents_root: base.root });
      const list = textOf(await client.callTool({ name: 'list_active_intents', arguments: {} }));
      expect(list, how).toMatch(/IN_PROGRESS INT-001/);
      expect(list, how).not.toMatch(/MINE/);
    }
    // Control: no launcher, no registry: the worktree's own copy is what the server offers.
    const bare = makeProject({ intents: MINE });
    const { client } = await connect({ HOME: bare.home, ROZ_STORAGE_PATH: bare.store, CLAUDE_PROJECT_DIR: bare.root, CLAUDE_CODE_SESSION_ID: 'sess-c' });
    expect((await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'MINE' } })).isError).toBeFalsy();
  });
});
