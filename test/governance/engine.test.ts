// The engine surface end to end on a real git project: selection, gates, ledger, map, lessons.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOnDemand } from '../../src/core/on-demand.js';
import { governanceOf } from '../../src/core/governance/state.js';
import { traceRecordSchema } from '../../src/core/governance/trace-schema.js';
import { governanceOnReviewIssues, governanceOnPostToolUse, governanceOnSessionStart, runGovernance } from '../../src/engine/governance/dispatch.js';
import { governanceOnPreToolUse } from '../../src/engine/governance/gate.js';
import { bindSelection } from '../../src/engine/governance/select.js';
import { readLedger } from '../../src/store/ledger.js';
import { MemorySessionStore } from '../../src/store/memory-store.js';
import { failure, makeProject, post, pre, session } from './helpers.js';
import { specTraceRecordJsonSchema } from './spec-schema.js';

const deps = (p: { store: string; home: string }, now = new Date('2026-03-01T10:00:00Z')) => ({ env: { HOME: p.home }, now, storeRoot: p.store, home: p.home });
const kind = (r: { verdict: { kind: string; code?: string } }) => (r.verdict.code ? `${r.verdict.kind}:${r.verdict.code}` : r.verdict.kind);

// These call governance directly; the engine loads these modules on demand (test/process/hook-startup.test.ts).
beforeAll(loadAllOnDemand);

describe('governance engine', () => {
  it('is off without .orchestration/active_intents.yaml: everything allowed, nothing written', () => {
    const p = makeProject({ intents: null });
    const s = session('sess-1', p.root);
    expect(kind(governanceOnPreToolUse(s, pre(p.root, 'Write', { file_path: '/etc/x' }), deps(p)))).toBe('none');
    expect(kind(governanceOnPreToolUse(s, pre(p.root, 'Bash', { command: 'git push --force' }), deps(p)))).toBe('none');
    expect(kind(governanceOnSessionStart(s, { session_id: 'sess-1', cwd: p.root, hook_event_name: 'SessionStart' }, deps(p)))).toBe('none');
    p.write('a.txt', 'x');
    governanceOnPostToolUse(s, post(p.root, 'Write', { file_path: 'a.txt', content: 'x' }), deps(p));
    expect(existsSync(join(p.root, '.orchestration'))).toBe(false);
  });

  it('SessionStart lists the selectable intents and the latest lessons', () => {
    const p = makeProject();
    p.write('.orchestration/CLAUDE.md', '# brain\n\n## Lessons Learned\n\n- old lesson\n- newest lesson\n');
    const r = governanceOnSessionStart(
      session(),
      { session_id: 'sess-1', cwd: p.root, hook_event_name: 'SessionStart', model: 'claude-opus-4-5' } as never,
      deps(p),
    );
    expect(r.verdict.kind).toBe('context');
    if (r.verdict.kind !== 'context') return;
    expect(r.verdict.text).toMatch(/INT-001 "JWT Authentication Migration"/);
    expect(r.verdict.text).not.toMatch(/INT-002/);
    expect(r.verdict.text).toMatch(/newest lesson/);
  });

  it('full flow: pending selection adopted, write allowed, ledger record valid (zod and the spec JSON schema), map written, blame-able', async () => {
    const p = makeProject({ git: true });
    const s = session('sess-1', p.root);
    const d = deps(p);
    // Before selecting: refused.
    expect(kind(governanceOnPreToolUse(s, pre(p.root, 'Write', { file_path: 'src/auth/jwt.ts' }), d))).toBe('deny:INTENT_REQUIRED');
    // The MCP server without a session id leaves the selection for the project.
    const bound = await bindSelection({
      store: new MemorySessionStore(),
      storeRoot: p.store,
      root: p.root,
      intentId: 'INT-001',
      sessionId: null,
      via: 'mcp',
      now: d.now,
    });
    expect(bound.ok && 'pending' in bound.bound).toBe(true);
    if (bound.ok) expect(bound.context).toMatch(/<intent_context id="INT-001"/);
    const allowed = governanceOnPreToolUse(s, pre(p.root, 'Write', { file_path: 'src/auth/jwt.ts' }), d);
    expect(kind(allowed)).toBe('none');
    expect(allowed.notes.map((n) => n.type)).toContain('IntentSelected');
    expect(governanceOf(s).intent_id).toBe('INT-001');

    const content = 'export function sign() {\n  return 1;\n}\nexport const x = 2;\n';
    p.write('src/auth/jwt.ts', content);
    const r = governanceOnPostToolUse(
      s,
      post(p.root, 'Write', { file_path: join(p.root, 'src/auth/jwt.ts'), content }, { type: 'create', originalFile: null, structuredPatch: [] }),
      d,
    );
    expect(r.warnings).toEqual([]);
    const ledgerFile = join(p.root, '.orchestration/agent_trace.jsonl');
    const lines = readFileSync(ledgerFile, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const rec = JSON.parse(lines[0]!);
    expect(traceRecordSchema.safeParse(rec).success).toBe(true);
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(specTraceRecordJsonSchema);
    expect(validate(rec), JSON.stringify(validate.errors)).toBe(true);
    expect(rec.version).toBe('0.1.0');
    expect(rec.vcs).toEqual({ type: 'git', revision: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: p.root, encoding: 'utf8' }).trim() });
    expect(rec.files[0].path).toBe('src/auth/jwt.ts');
    expect(rec.files[0].conversations[0].url).toBe('file:///tmp/transcripts/sess-1.jsonl');
    expect(rec.files[0].conversations[0].ranges).toEqual([{ start_line: 1, end_line: 4, content_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }]);
    expect(rec.files[0].conversations[0].related).toEqual([{ type: 'intent', url: 'urn:roz:intent:INT-001' }]);
    expect(rec.metadata['dev.roz']).toMatchObject({
      session_id: 'sess-1',
      intent_id: 'INT-001',
      mutation_class: 'INTENT_EVOLUTION',
      tool_name: 'Write',
      symbols: { 'src/auth/jwt.ts': ['sign', 'x'] },
    });
    // The map follows at the end of the turn: not after the change, written at Stop.
    const mapFile = join(p.root, '.orchestration/intent_map.md');
    expect(existsSync(mapFile)).toBe(false);
    expect(governanceOf(s).map_stale).toBe(true);
    expect(runGovernance('Stop', s, { session_id: 'sess-1', cwd: p.root, hook_event_name: 'Stop' }, d).warnings).toEqual([]);
    expect(governanceOf(s).map_stale).toBe(false);
    const map = readFileSync(mapFile, 'utf8');
    expect(map).toMatch(/## INT-001: JWT Authentication Migration/);
    expect(map).toMatch(/\| src\/auth\/jwt\.ts \| sign, x \| 1 \|/);

    // An Edit that keeps the top-level names is AST_REFACTOR, with the exact lines from the patch.
    const edited = 'export function sign() {\n  return 42;\n}\nexport const x = 2;\n';
    p.write('src/auth/jwt.ts', edited);
    governanceOnPostToolUse(
      s,
      post(
        p.root,
        'Edit',
        { file_path: 'src/auth/jwt.ts', old_string: 'return 1', new_string: 'return 42' },
        {
          originalFile: content,
          structuredPatch: [
            {
              oldStart: 1,
              oldLines: 4,
              newStart: 1,
              newLines: 4,
              lines: [' export function sign() {', '-  return 1;', '+  return 42;', ' }', ' export const x = 2;'],
            },
          ],
        },
      ),
      d,
    );
    const { records, bad } = readLedger(ledgerFile);
    expect(bad).toEqual([]);
    expect(records).toHaveLength(2);
    expect(records[1]!.metadata['dev.roz'].mutation_class).toBe('AST_REFACTOR');
    expect(records[1]!.files[0]!.conversations[0]!.ranges).toMatchObject([{ start_line: 2, end_line: 2 }]);
    expect(governanceOf(s).mutations).toBe(2);
  });

  it("STALE_FILE after a Read when someone else changes the file; the agent's own Bash write does not count", () => {
    const p = makeProject();
    const s = session('sess-1', p.root);
    governanceOf(s).intent_id = 'INT-001';
    const file = p.write('src/auth/a.ts', 'v1\n');
    governanceOnPostToolUse(s, post(p.root, 'Read', { file_path: file }), deps(p));
    expect(kind(governanceOnPreToolUse(s, pre(p.root, 'Edit', { file_path: file }), deps(p)))).toBe('none');
    // the agent itself rewrites it through Bash: remembered as its own write
    writeFileSync(file, 'v2\n');
    governanceOnPostToolUse(s, post(p.root, 'Bash', { command: 'echo v2 > src/auth/a.ts' }), deps(p));
    expect(kind(governanceOnPreToolUse(s, pre(p.root, 'Edit', { file_path: file }), deps(p)))).toBe('none');
    // the human edits it behind the agent's back
    writeFileSync(file, 'v3 by human\n');
    expect(kind(governanceOnPreToolUse(s, pre(p.root, 'Edit', { file_path: file }), deps(p)))).toBe('deny:STALE_FILE');
  });

  it('binds the intent when the agent called the MCP tool (hook sees the real session id)', () => {
    const p = makeProject();
    const s = session('sess-1', p.root);
    governanceOnPostToolUse(s, post(p.root, 'mcp__plugin_roz_roz__select_active_intent', { intent_id: 'INT-002' }), deps(p));
    expect(governanceOf(s).intent_id).toBeNull(); // DRAFT: not selectable
    governanceOnPostToolUse(s, post(p.root, 'mcp__plugin_roz_roz__select_active_intent', { intent_id: 'INT-001' }), deps(p));
    expect(governanceOf(s)).toMatchObject({ intent_id: 'INT-001', selected_via: 'hook' });
  });

  it('remembers the project when the cwd drifts outside it', () => {
    const p = makeProject();
    const s = session('sess-1', p.root);
    governanceOnSessionStart(s, { session_id: 'sess-1', cwd: p.root, hook_event_name: 'SessionStart' }, deps(p));
    expect(kind(governanceOnPreToolUse(s, pre(p.outside, 'Bash', { command: 'echo x > y' }), deps(p)))).toBe('deny:INTENT_REQUIRED');
  });

  it('writes into $TMPDIR are scratch (allow_temp_writes), but not into a temp dir that holds the project', () => {
    const p = makeProject();
    const s = session('sess-1', p.root);
    governanceOf(s).intent_id = 'INT-001';
    const tmp = join(p.home, 'tmp');
    mkdirSync(tmp);
    const d = { ...deps(p), env: { HOME: p.home, TMPDIR: tmp } };
    expect(kind(governanceOnPreToolUse(s, pre(p.root, 'Bash', { command: `echo x > ${tmp}/scratch.txt` }), d))).toBe('none');
    expect(kind(governanceOnPreToolUse(s, pre(p.root, 'Bash', { command: `echo x > ${tmp}/scratch.txt` }), { ...d, allowTempWrites: false }))).toBe(
      'ask:SCOPE_VIOLATION',
    );
    // The project itself lives under the OS temp dir here: its neighbours are not scratch.
    expect(kind(governanceOnPreToolUse(s, pre(p.root, 'Bash', { command: `echo x > ${p.outside}/y` }), d))).toBe('ask:SCOPE_VIOLATION');
  });

  it('fails closed: an internal error on a mutation is HOOK_ERROR, on a read only a warning', () => {
    const p = makeProject();
    const boom = () => {
      throw new Error('analyser exploded');
    };
    const d = { ...deps(p), writeTargets: boom };
    const r = governanceOnPreToolUse(session(), pre(p.root, 'Bash', { command: 'echo x > src/auth/a' }), d);
    expect(kind(r)).toBe('deny:HOOK_ERROR');
    if (r.verdict.kind === 'deny') expect(r.verdict.reason).toMatch(/analyser exploded/);
    expect(kind(governanceOnPreToolUse(session(), pre(p.root, 'Read', { file_path: 'x' }), d))).toBe('none');
  });

  it('lessons: a failing test command and a review ISSUES each append a line, fed back at SessionStart', () => {
    const p = makeProject();
    const s = session('sess-1', p.root);
    governanceOf(s).intent_id = 'INT-001';
    governanceOnPostToolUse(
      s,
      failure(p.root, 'npm test', 'Exit code 1\nFAIL src/auth/jwt.test.ts > signs tokens\nAssertionError: expected 1 to be 2'),
      deps(p),
    );
    governanceOnPostToolUse(s, failure(p.root, 'ls nope', 'Exit code 2\nNo such file'), deps(p));
    s.cwd = p.root;
    governanceOnReviewIssues(s, { summary: 'token expiry untested', message: 'add a test for expired tokens' }, deps(p));
    const brain = readFileSync(join(p.root, '.orchestration/CLAUDE.md'), 'utf8');
    const lessons = brain.split('\n').filter((l) => l.startsWith('- '));
    expect(lessons).toHaveLength(2);
    expect(lessons[0]).toMatch(/\[INT-001\] 'npm test' failed: 'FAIL src\/auth\/jwt\.test\.ts/);
    expect(lessons[1]).toMatch(/review found issues: 'token expiry untested' — fix: 'add a test/);
    const start = governanceOnSessionStart(session('sess-2'), { session_id: 'sess-2', cwd: p.root, hook_event_name: 'SessionStart' }, deps(p));
    expect(start.verdict.kind === 'context' && start.verdict.text).toMatch(/token expiry untested/);
  });
});

describe('runGovernance + mergeResults', () => {
  it('dispatches by event and keeps the strictest verdict', async () => {
    const { runGovernance } = await import('../../src/engine/governance/dispatch.js');
    const { mergeResults } = await import('../../src/core/verdict.js');
    const p = makeProject();
    const r = runGovernance('PreToolUse', session(), pre(p.root, 'Write', { file_path: 'src/auth/a.ts' }), deps(p));
    expect(kind(r)).toBe('deny:INTENT_REQUIRED');
    const merged = mergeResults({ verdict: { kind: 'allow' }, notes: [{ type: 'a' }], warnings: [] }, r);
    expect(kind(merged)).toBe('deny:INTENT_REQUIRED');
    expect(merged.notes.map((n) => n.type)).toEqual(['a', 'IntentRequired']);
    expect(kind(runGovernance('Stop', session(), { session_id: 's', cwd: p.root, hook_event_name: 'Stop' }, deps(p)))).toBe('none');
  });
});
