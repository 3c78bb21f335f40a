// Intent governance, end to end with the real client (issue #8): an agent that
// writes without an intent is denied, selects one through roz's MCP tool,
// writes inside the intent's scope, is denied outside it, and the ledger holds
// exactly its successful mutations.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { workspacePerTest } from './harness/per-test.js';
import { bash, edit, on, reply, say, write, type Matcher, type ParsedRequest, type ToolCall, type ToolResult } from './harness/fake-api.js';
import { rozState, runRoz, type RozState } from './harness/roz.js';
import { rozCli, rozJson, type Workspace } from './harness/workspace.js';

const INTENTS_YAML = `active_intents:
  - id: INT-001
    name: Core module
    status: IN_PROGRESS
    owned_scope: ["src/**"]
    constraints: [Keep the public exports stable]
    acceptance_criteria: [src/a.ts exports a and b]
  - id: INT-000
    name: Old docs pass
    status: COMPLETED
    owned_scope: ["docs/**"]
`;

/** The MCP tool as the client offers it to the model (plugin servers get a prefixed name). */
const SELECT_TOOL_RE = /^mcp__.*roz.*__select_active_intent$/;
const selectToolName = (req: ParsedRequest): string => {
  const name = req.tools.find((t) => SELECT_TOOL_RE.test(t));
  if (!name) throw new Error(`the client offers no roz select_active_intent tool; tools: ${req.tools.join(', ')}`);
  return name;
};
/** The select tool's name as listed among the client's deferred tools (MCP tools are deferred behind ToolSearch). */
const deferredSelectTool = (req: ParsedRequest): string => {
  const all = req.messages.map((m) => m.text).join('\n');
  const m = /\bmcp__\S*roz\S*__select_active_intent\b/.exec(all);
  if (!m) throw new Error('the client lists no roz select_active_intent tool, deferred or not');
  return m[0];
};
const selectIntent = (intent_id: string): ToolCall => ({ name: selectToolName, input: { intent_id } });

/** A tool result in `req` answers `tool` (a name, or a pattern for MCP names), with `error`, text `match` and `file_path` ending in `path` as given. */
const answered =
  (tool: string | RegExp, opts: { error?: boolean; match?: RegExp; path?: string } = {}): Matcher =>
  (req) =>
    req.toolResults.some(
      (r) =>
        (typeof tool === 'string' ? r.toolName === tool : tool.test(r.toolName ?? '')) &&
        (opts.error === undefined || r.isError === opts.error) &&
        (!opts.match || opts.match.test(r.text)) &&
        (!opts.path || String(r.toolInput?.file_path ?? '').endsWith(opts.path)),
    );

/** The one session roz's hooks have seen in this workspace (its store holds one directory per session). */
function onlySession(ws: Workspace): string {
  const dir = join(ws.storage, 'sessions');
  const ids = existsSync(dir) ? readdirSync(dir) : [];
  if (ids.length !== 1) throw new Error(`expected exactly one roz session in ${dir}, found: ${ids.join(', ') || '(none)'}`);
  return ids[0]!;
}

const sha = (s: string): string => `sha256:${createHash('sha256').update(s).digest('hex')}`;

interface LedgerRecord {
  version: string;
  id: string;
  vcs?: { type: string; revision: string };
  tool: { name: string; version: string };
  files: Array<{
    path: string;
    conversations: Array<{
      url?: string;
      contributor?: { type: string; model_id?: string };
      ranges: Array<{ start_line: number; end_line: number; content_hash?: string }>;
      related?: Array<{ type: string; url: string }>;
    }>;
  }>;
  metadata: { 'dev.roz': { session_id: string; intent_id: string; mutation_class: string; tool_name: string; tool_use_id?: string } };
}

describe.sequential('roz intent governance (print mode, real client)', () => {
  const fresh = workspacePerTest();

  test('(h) no intent -> denied; select_active_intent over MCP; in scope allowed, out of scope denied; the ledger holds exactly the mutations', async () => {
    const ws = fresh();
    mkdirSync(join(ws.repo, '.orchestration'));
    writeFileSync(join(ws.repo, '.orchestration', 'active_intents.yaml'), INTENTS_YAML);
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: ws.repo, env: ws.env, encoding: 'utf8' }).trim();
    git('add', '.orchestration/active_intents.yaml');
    git('commit', '-q', '-m', 'declare intents');
    const head = git('rev-parse', 'HEAD');

    const aTs = join(ws.repo, 'src', 'a.ts');
    const docs = join(ws.repo, 'docs', 'x.md');
    const outside = join(ws.root, 'outside.txt'); // ../outside.txt from the repo
    const v1 = 'export const a = 1;\nexport const b = 2;\n';
    const v2 = 'export const a = 1;\nexport const b = 3;\n';
    // roz's view of the session right after the MCP tool answered (hooks have run by then).
    let stateAfterSelect: RozState | undefined;

    const run = await runRoz({
      prompt: 'add src/a.ts exporting a and b, and a note in docs/x.md',
      workspace: ws,
      timeoutMs: 80_000,
      scenario: {
        main: [
          { name: 'write-no-intent', when: on.start(), reply: reply('Writing src/a.ts.', write(aTs, v1)) },
          {
            name: 'load-tool',
            when: answered('Write', { error: true, match: /no intent is selected/ }),
            reply: (req) => reply('Loading the intent tool.', { name: 'ToolSearch', input: { query: `select:${deferredSelectTool(req)}`, max_results: 1 } }),
          },
          { name: 'select-completed', when: answered('ToolSearch'), reply: reply(undefined, selectIntent('INT-000')) },
          { name: 'select', when: answered(SELECT_TOOL_RE, { error: true }), reply: reply('Selecting INT-001.', selectIntent('INT-001')) },
          {
            name: 'write-in-scope',
            when: answered(SELECT_TOOL_RE, { error: false }),
            reply: () => {
              stateAfterSelect = rozState(ws, onlySession(ws));
              return reply(undefined, write(aTs, v1));
            },
          },
          {
            name: 'edit',
            when: answered('Write', { error: false, path: 'src/a.ts' }),
            reply: reply(undefined, edit(aTs, 'export const b = 2;', 'export const b = 3;')),
          },
          { name: 'write-out-of-scope', when: answered('Edit', { error: false }), reply: reply(undefined, write(docs, '# notes\n')) },
          {
            name: 'escape',
            when: answered('Write', { error: true, path: 'docs/x.md' }),
            reply: reply(undefined, bash('echo x > ../outside.txt', 'Write outside the repo')),
          },
          { name: 'finish', when: answered('Bash'), reply: say('Done within INT-001.') },
        ],
      },
    });
    const why = run.why();
    const sid = run.sessionId;
    expect(run.api.scriptErrors, why).toEqual([]);
    expect(run.exitCode, why).toBe(0);
    expect(run.result.is_error, why).toBe(false);
    const main = run.requests.filter((r) => r.role === 'main');
    expect(
      main.map((r) => r.answeredBy),
      why,
    ).toEqual(['write-no-intent', 'load-tool', 'select-completed', 'select', 'write-in-scope', 'edit', 'write-out-of-scope', 'escape', 'finish']);
    const resultOf = (step: string): ToolResult => {
      const r = main.find((q) => q.answeredBy === step)?.toolResults[0];
      if (!r) throw new Error(`no tool result reached step ${step}\n${why}`);
      return r;
    };

    // 1. No intent: denied, and the model is told why, what it may select and how.
    const noIntent = resultOf('load-tool');
    expect(noIntent.isError).toBe(true);
    expect(noIntent.text).toMatch(/^PreToolUse:Write hook error: \[INTENT_REQUIRED\] /);
    expect(noIntent.text).toContain('no intent is selected');
    expect(noIntent.text).toContain('select_active_intent');
    expect(noIntent.text).toContain('roz intent select');
    expect(noIntent.text).toMatch(/INT-001 "Core module" — scope: src\/\*\*/);
    expect(noIntent.text).not.toContain('INT-000'); // COMPLETED: not offered

    // 2. The MCP server is started from the plugin's .mcp.json without any trust
    // step; 2.1.330 defers its tools behind ToolSearch (listed by name only).
    const first = main[0]!;
    expect(
      first.tools.some((t) => SELECT_TOOL_RE.test(t)),
      'MCP tools are deferred, not offered up front',
    ).toBe(false);
    expect(deferredSelectTool(first)).toBe('mcp__plugin_roz_roz__select_active_intent');
    expect(main.find((r) => r.answeredBy === 'select-completed')!.tools).toContain('mcp__plugin_roz_roz__select_active_intent');
    const refused = resultOf('select');
    expect(refused.isError, why).toBe(true);
    expect(refused.text).toContain('INT-000 is COMPLETED');
    const selected = resultOf('write-in-scope');
    expect(selected.isError, why).toBe(false);
    expect(selected.text).toContain('Intent INT-001 is now active for this session.');
    expect(selected.text).toContain('<intent_context id="INT-001"');
    expect(selected.text).toContain('<glob>src/**</glob>');
    expect(selected.text).toContain('Keep the public exports stable');
    // The server got CLAUDE_CODE_SESSION_ID and bound this very session ('mcp'), then the
    // PostToolUse hook of the same call bound it again from the hook payload ('hook').
    expect(stateAfterSelect?.session_id, why).toBe(sid);
    const govAfterSelect = stateAfterSelect?.governance as { intent_id: string | null; selected_via: string | null } | undefined;
    expect(govAfterSelect?.intent_id, why).toBe('INT-001');
    expect(govAfterSelect?.selected_via, why).toBe('hook');
    const trace = run.trace();
    const selections = trace.filter((e) => e.event === 'roz:IntentSelected').map((e) => `${String(e.intent_id)} via ${String(e.via)}`);
    expect(selections, why).toEqual(['INT-001 via mcp', 'INT-001 via hook']);
    expect(
      existsSync(join(ws.storage, 'governance', 'pending')) ? readdirSync(join(ws.storage, 'governance', 'pending')) : [],
      'nothing left to adopt',
    ).toEqual([]);

    // 3.-5. In scope allowed; out of scope and out of the repo denied, with the reason.
    expect(resultOf('edit').isError, why).toBe(false);
    expect(resultOf('write-out-of-scope').isError, why).toBe(false);
    const outOfScope = resultOf('escape');
    expect(outOfScope.isError).toBe(true);
    expect(outOfScope.text).toContain('[SCOPE_VIOLATION]');
    expect(outOfScope.text).toContain('docs/x.md, which is not in the owned_scope of intent INT-001 (src/**)');
    const escaped = resultOf('finish');
    expect(escaped.isError, why).toBe(true);
    // A scope violation is an ask (a human may approve it); print mode has nobody to ask, so the
    // client denies it and hands the model the reason as it is (no "hook error" prefix).
    expect(escaped.text).toMatch(/^\[SCOPE_VIOLATION\] roz: .*so a human must approve it/);
    expect(escaped.text).toContain('outside.txt');
    const denials = trace
      .filter((e) => e.event === 'PreToolUse' && ['deny', 'ask'].includes((e.verdict as { kind?: string } | undefined)?.kind ?? ''))
      .map((e) => `${String(e.tool_name)} ${(e.verdict as { code: string }).code}`);
    expect(denials, why).toEqual(['Write INTENT_REQUIRED', 'Write SCOPE_VIOLATION', 'Bash SCOPE_VIOLATION']);
    expect(run.result.permission_denials.map((d) => d.tool_name)).toEqual(['Write', 'Write', 'Bash']);
    expect(readFileSync(aTs, 'utf8')).toBe(v2);
    expect(existsSync(docs), 'out-of-scope write must not happen').toBe(false);
    expect(existsSync(outside), '../outside.txt must not be written').toBe(false);

    // 6. The ledger: exactly the Write and the Edit, in order, nothing for the denied calls.
    const ledgerFile = join(ws.repo, '.orchestration', 'agent_trace.jsonl');
    expect(existsSync(ledgerFile), why).toBe(true);
    const records = readFileSync(ledgerFile, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as LedgerRecord);
    const callId = (step: string): string => {
      const r = main.find((q) => q.answeredBy === step)?.reply;
      if (!r || 'error' in r || !r.tools[0]) throw new Error(`step ${step} made no tool call`);
      return r.tools[0].id;
    };
    expect(records.map((r) => `${r.metadata['dev.roz'].tool_name} ${r.metadata['dev.roz'].tool_use_id}`)).toEqual([
      `Write ${callId('write-in-scope')}`,
      `Edit ${callId('edit')}`,
    ]);
    const expected = [
      { start_line: 1, end_line: 2, content_hash: sha('export const a = 1;\nexport const b = 2;') },
      { start_line: 2, end_line: 2, content_hash: sha('export const b = 3;') },
    ];
    records.forEach((rec, i) => {
      expect(rec.version).toBe('0.1.0');
      expect(rec.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(rec.vcs).toEqual({ type: 'git', revision: head });
      expect(rec.tool.name).toBe('roz');
      expect(rec.metadata['dev.roz']).toMatchObject({ session_id: sid, intent_id: 'INT-001' });
      expect(rec.files.map((f) => f.path)).toEqual(['src/a.ts']);
      const conv = rec.files[0]!.conversations;
      expect(conv).toHaveLength(1);
      expect(conv[0]!.url).toMatch(new RegExp(`^file://.*/${sid}\\.jsonl$`));
      expect(conv[0]!.contributor?.type).toBe('ai');
      expect(conv[0]!.related).toEqual([{ type: 'intent', url: 'urn:roz:intent:INT-001' }]);
      expect(conv[0]!.ranges).toEqual([expected[i]]);
    });
    expect(records.map((r) => r.metadata['dev.roz'].mutation_class)).toEqual(['INTENT_EVOLUTION', 'AST_REFACTOR']);

    // roz blame names the intent and the session of the lines' last writer.
    const blamed = rozCli(ws, ['blame', 'src/a.ts:1']);
    expect(blamed.code, blamed.stderr).toBe(0);
    expect(blamed.stdout).toContain('INT-001');
    expect(blamed.stdout).toContain(sid);
    const hits = rozJson<{
      hits: Array<{ intent_id: string; session_id: string; range: { start_line: number; end_line: number }; status: string; record_id: string }>;
    }>(ws, ['blame', 'src/a.ts:2']).hits;
    expect(hits.map((h) => ({ ...h.range, intent: h.intent_id, session: h.session_id, status: h.status, record: h.record_id }))).toEqual([
      { start_line: 2, end_line: 2, intent: 'INT-001', session: sid, status: 'intact', record: records[1]!.id },
    ]);
  }, 120_000);
});
