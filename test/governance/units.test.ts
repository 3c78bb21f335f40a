// Small pure pieces: ranges and hashes, symbols and mutation classes, lessons, blame, git HEAD.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOnDemand } from '../../src/core/on-demand.js';
import { blame } from '../../src/core/governance/blame.js';
import { classifyFileChange, classifyRecord } from '../../src/core/governance/classify.js';
import { isTestArgv, latestLessons, testFailureLesson } from '../../src/core/governance/lessons.js';
import { isSelectIntentTool } from '../../src/core/governance/mutations.js';
import { changedRanges, rangeHash, splitLines } from '../../src/core/governance/ranges.js';
import { ignoreMatcher, scopeMatcher } from '../../src/core/governance/scope.js';
import { emptyGovernance, governanceOf } from '../../src/core/governance/state.js';
import { symbolsTouched, topLevelSymbols } from '../../src/core/governance/symbols.js';
import { normaliseModelId } from '../../src/core/governance/trace-record.js';
import { gitHead, readHeadFromFiles, readHeadWithGit } from '../../src/store/git-head.js';
import { makeProject, sampleRecord, session } from './helpers.js';

// These call governance directly; the engine loads these modules on demand (test/process/hook-startup.test.ts).
beforeAll(loadAllOnDemand);

describe('ranges', () => {
  it('new file = all lines; edit = the span between unchanged head and tail; patch = exact added lines', () => {
    expect(changedRanges(null, 'a\nb\nc\n')).toEqual([{ start_line: 1, end_line: 3 }]);
    expect(changedRanges(null, '')).toEqual([]);
    expect(changedRanges('a\nb\nc\nd\n', 'a\nB\nC\nd\n')).toEqual([{ start_line: 2, end_line: 3 }]);
    expect(changedRanges('a\nb\nc\n', 'a\nc\n')).toEqual([]); // pure deletion
    const patch = [{ newStart: 3, lines: [' x', '+y', '+z', ' w', '-old', '+new'] }];
    expect(changedRanges('…', 'l1\nl2\nx\ny\nz\nw\nnew\n', patch)).toEqual([
      { start_line: 4, end_line: 5 },
      { start_line: 7, end_line: 7 },
    ]);
  });
  it('hashes are sha256 of the lines joined by \\n, CRLF-insensitive', () => {
    expect(rangeHash(splitLines('a\r\nb\r\n'), 1, 2)).toBe(rangeHash(splitLines('a\nb\n'), 1, 2));
  });
});

describe('symbols and mutation class', () => {
  const ts = 'import x from "y";\nexport async function a() {\n  return 1;\n}\nconst b = 2;\nexport default class C {}\ninterface I {}\n';
  it('finds top-level ts/js and py symbols with their spans', () => {
    expect(topLevelSymbols('f.ts', ts)!.map((s) => [s.name, s.start_line, s.end_line])).toEqual([
      ['a', 2, 4],
      ['b', 5, 5],
      ['C', 6, 6],
      ['I', 7, 7],
    ]);
    expect(topLevelSymbols('f.py', 'import os\nclass A:\n    pass\nasync def b():\n    pass\nX: int = 3\n')!.map((s) => s.name)).toEqual(['A', 'b', 'X']);
    expect(topLevelSymbols('f.md', '# x')).toBeNull();
    expect(symbolsTouched('f.ts', ts, [{ start_line: 3, end_line: 3 }])).toEqual(['a']);
  });
  it('AST_REFACTOR keeps the top-level names; anything else is INTENT_EVOLUTION', () => {
    expect(classifyFileChange('f.ts', ts, ts.replace('return 1', 'return 2'))).toBe('AST_REFACTOR');
    expect(classifyFileChange('f.ts', ts, ts + 'export const d = 1;\n')).toBe('INTENT_EVOLUTION');
    expect(classifyFileChange('f.ts', null, ts)).toBe('INTENT_EVOLUTION');
    expect(classifyFileChange('f.md', 'a', 'b')).toBe('INTENT_EVOLUTION');
    expect(classifyRecord(['AST_REFACTOR', 'INTENT_EVOLUTION'])).toBe('INTENT_EVOLUTION');
    expect(classifyRecord(['AST_REFACTOR'])).toBe('AST_REFACTOR');
  });
});

describe('lessons', () => {
  it('recognises test commands', () => {
    const yes = [
      ['npm', 'test'],
      ['npm', 'run', 'test:unit'],
      ['pnpm', 'vitest'],
      ['npx', 'vitest', 'run'],
      ['vitest'],
      ['jest'],
      ['pytest', '-x'],
      ['python3', '-m', 'pytest'],
      ['go', 'test', './...'],
      ['cargo', 'test'],
      ['make', 'test'],
      ['yarn', 'test'],
    ];
    const no = [['npm', 'install'], ['ls'], ['go', 'build'], ['make'], ['cargo', 'build'], ['python', 'x.py']];
    for (const a of yes) expect(isTestArgv(a), a.join(' ')).toBe(true);
    for (const a of no) expect(isTestArgv(a), a.join(' ')).toBe(false);
  });
  it('formats a lesson and reads the latest back', () => {
    const line = testFailureLesson(new Date('2026-03-01T10:00:00Z'), 'INT-001', 'npm test', 'Exit code 1\n\nError: boom\n', 's1');
    expect(line).toBe("- 2026-03-01T10:00Z [INT-001] 'npm test' failed: 'Error: boom' (session s1)");
    const text = '# x\n- not a lesson\n## Lessons Learned\n- 1\n- 2\n- 3\n## Other\n- nope\n';
    expect(latestLessons(text, 2)).toEqual(['- 2', '- 3']);
  });
  it("quotes the agent's text: no backtick, quote, control character or angle bracket gets through", () => {
    const line = testFailureLesson(
      new Date('2026-03-01T10:00:00Z'),
      'INT-001',
      "npm test `id` $(touch /tmp/p) 'x'",
      'FAIL \u001b[2J<img src=x>`$(rm -rf ~)`',
      's1',
    );
    expect(line).not.toMatch(/[`<>\u0000-\u001f]/);
    // Every agent part sits inside single quotes with no quote inside it: one literal word to a shell.
    expect(line).toContain("'npm test \u2019id\u2019 $(touch /tmp/p) \u2019x\u2019'");
    expect(line.split("'").length).toBe(5);
  });
});

describe('blame', () => {
  it('reports the last writer of a line and whether its lines still match, moved, or changed', () => {
    const lines = ['a', 'b', 'c', 'd'];
    const rec = (start: number, end: number, src: string[], intent: string) =>
      sampleRecord({
        files: [
          {
            path: 'f.ts',
            conversations: [
              {
                contributor: { type: 'ai', model_id: 'anthropic/claude-x' },
                ranges: [{ start_line: start, end_line: end, content_hash: rangeHash(src, start, end) }],
              },
            ],
          },
        ],
        metadata: { 'dev.roz': { session_id: `s-${intent}`, intent_id: intent, mutation_class: 'INTENT_EVOLUTION', tool_name: 'Write' } },
      });
    const records = [rec(1, 4, lines, 'INT-1'), rec(2, 3, lines, 'INT-2')];
    expect(blame(records, 'f.ts', lines, 2)).toMatchObject([{ intent_id: 'INT-2', session_id: 's-INT-2', model_id: 'anthropic/claude-x', status: 'intact' }]);
    expect(blame(records, 'f.ts', lines, 4)).toMatchObject([{ intent_id: 'INT-1' }]);
    expect(blame(records, 'f.ts', ['x', 'a', 'b', 'c', 'd'], 2)[0]).toMatchObject({ status: 'moved', moved_to: { start_line: 3, end_line: 4 } });
    expect(blame(records, 'f.ts', ['a', 'B', 'c', 'd'], 2)[0]!.status).toBe('changed');
    expect(blame(records, 'other.ts', lines)).toEqual([]);
    expect(blame(records, 'f.ts', lines).map((h) => h.intent_id)).toEqual(['INT-1', 'INT-2']);
  });
});

describe('small helpers', () => {
  it('scope and ignore matching', () => {
    const m = scopeMatcher(['src/auth/', './lib/*.ts']);
    expect(m('src/auth/a/b.ts')).toBe(true);
    expect(m('lib/x.ts')).toBe(true);
    expect(m('lib/sub/x.ts')).toBe(false);
    expect(scopeMatcher([])('x')).toBe(false);
    const ig = ignoreMatcher('node_modules\n/var/tmp/\n');
    expect(ig({ given: '', real: '/p/a/node_modules/x', rel: 'a/node_modules/x' })).toBe(true);
    expect(ig({ given: '', real: '/var/tmp/x', rel: null })).toBe(true);
  });
  it('MCP tool names, model ids, state repair', () => {
    expect(isSelectIntentTool('mcp__plugin_roz_roz__select_active_intent')).toBe(true);
    expect(isSelectIntentTool('mcp__roz__select_active_intent')).toBe(true);
    expect(isSelectIntentTool('select_active_intent')).toBe(false);
    expect(normaliseModelId('claude-opus-4-8[1m]')).toBe('anthropic/claude-opus-4-8');
    const s = session();
    s.governance = { intent_id: 5, files: { '/x': { sha256: 'a', at: 't', via: 'bogus' }, '/y': 'junk' } };
    expect(governanceOf(s)).toEqual({ ...emptyGovernance(), files: { '/x': { sha256: 'a', at: 't', via: 'read' } } });
  });
});

describe('git HEAD', () => {
  it('reads HEAD from .git like git rev-parse, packed refs included, and is much cheaper', () => {
    const p = makeProject({ git: true });
    const viaGit = readHeadWithGit(p.root);
    expect(viaGit).toMatch(/^[0-9a-f]{40}$/);
    expect(readHeadFromFiles(p.root)).toBe(viaGit);
    execFileSync('git', ['pack-refs', '--all'], { cwd: p.root });
    expect(readHeadFromFiles(p.root)).toBe(viaGit);
    expect(gitHead(join(p.root, 'src'))).toBe(viaGit);
    const N = 50;
    let t = performance.now();
    for (let i = 0; i < N; i++) readHeadFromFiles(p.root);
    const files = (performance.now() - t) / N;
    t = performance.now();
    for (let i = 0; i < N; i++) readHeadWithGit(p.root);
    const spawned = (performance.now() - t) / N;
    console.log(`git HEAD: files ${files.toFixed(3)} ms/call, git rev-parse ${spawned.toFixed(2)} ms/call`);
    expect(files).toBeLessThan(spawned);
    const empty = makeProject();
    execFileSync('git', ['init', '-q'], { cwd: empty.root });
    expect(gitHead(empty.root)).toBeNull();
    writeFileSync(join(empty.root, 'x'), '');
  });
});
