// The hooks' hand-written record check (core/governance/trace-check.ts) and
// the zod schema (core/governance/trace-schema.ts, the reference the CLI reads
// with) must agree: on valid records of every shape roz writes, and on every
// single-field corruption of them (a field removed, given a wrong value of
// each kind, an unknown key added), so a record the hooks append is one
// `roz blame` reads, and a line the hooks skip is one it calls bad.
import { describe, expect, it } from 'vitest';
import { traceRecordIssues } from '../../src/core/governance/trace-check.js';
import { traceRecordSchema } from '../../src/core/governance/trace-schema.js';

const H = `sha256:${'a'.repeat(64)}`;
const valid: Array<Record<string, unknown>> = [
  // A Write, as records.ts builds it (every optional field present).
  {
    version: '0.1.0',
    id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
    timestamp: '2026-01-01T00:00:00.000Z',
    vcs: { type: 'git', revision: 'abc123' },
    tool: { name: 'roz', version: '0.1.0' },
    files: [
      {
        path: 'src/a.ts',
        conversations: [
          {
            url: 'file:///home/u/.claude/projects/x/s.jsonl',
            contributor: { type: 'ai', model_id: 'anthropic/claude-opus-4' },
            ranges: [{ start_line: 1, end_line: 3, content_hash: H, contributor: { type: 'human' } }],
            related: [{ type: 'intent', url: 'urn:roz:intent:INT-001' }],
          },
        ],
      },
    ],
    metadata: {
      'dev.roz': {
        session_id: 's',
        intent_id: 'INT-001',
        mutation_class: 'AST_REFACTOR',
        tool_name: 'Write',
        tool_use_id: 't',
        agent_id: 'a',
        symbols: { 'src/a.ts': ['f'] },
        file_hashes: { 'src/a.ts': H },
        unattributed: false,
        scope_added: ['lib/**'],
        decided_by: 'me',
      },
      'com.other': { anything: [1, 2] },
    },
  },
  // The Stop audit's unattributed record, and the bench's minimal one.
  {
    version: '0.1.0',
    id: '00000000-0000-0000-0000-000000000000',
    timestamp: '2024-02-29T23:59:59Z',
    tool: { name: 'roz', version: '0.1.0' },
    files: [{ path: 'x', conversations: [{ contributor: { type: 'unknown' }, ranges: [] }] }],
    metadata: { 'dev.roz': { session_id: 's', intent_id: 'I', mutation_class: 'INTENT_EVOLUTION', tool_name: 'unknown', unattributed: true } },
  },
  {
    version: '0.1.0',
    id: 'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
    timestamp: '2026-12-31T12:00:00.123456Z',
    tool: { name: 'roz', version: '0.1.0' },
    files: [],
    metadata: { 'dev.roz': { session_id: 's', intent_id: 'I', mutation_class: 'INTENT_EVOLUTION', tool_name: 'Bash', symbols: {} } },
  },
  // roz agent merge's record (docs/fleet.md).
  {
    version: '0.1.0',
    id: '3b241101-e2bb-4255-8caf-4136c566a962',
    timestamp: '2026-11-26T01:00:00.000Z',
    vcs: { type: 'git', revision: 'abc' },
    tool: { name: 'roz', version: '0.1.0' },
    files: [],
    metadata: {
      'dev.roz': {
        session_id: 's',
        intent_id: 'none',
        mutation_class: 'INTENT_EVOLUTION',
        tool_name: 'roz:merge',
        decided_by: 'me',
        merge: {
          agent: 'a',
          branch: 'roz/a',
          base: 'main',
          strategy: 'merge',
          commit: 'c',
          tree: 't',
          reviewed_tree: 'r',
          review: { decision: 'COMPLETE', decided_at: '2026-11-26T00:59:00.000Z', session_id: 's', summary: '' },
          ledger_records: 0,
        },
      },
    },
  },
];

/** Wrong values of every kind, plus some near misses for the formats. */
const WRONG: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  3,
  '',
  'x',
  ' ',
  true,
  [],
  ['x'],
  [1],
  {},
  { type: 'ai' },
  'not a url',
  'urn:',
  ' file:///x ',
  '2026-02-30T00:00:00Z',
  '2100-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-00-10T00:00:00Z',
  '2026-01-00T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01T00:00:60Z',
  '2026-01-01T00:00:00.Z',
  '2026-01-01T00:00:00+01:00',
  '2026-01-01T00:00Z',
  '2026-01-01',
  '1b4e28ba-2fa1-91d2-883f-0016d3cca427',
  'sha256:ABC',
  'a'.repeat(251),
  'human',
  'git',
  'AST_REFACTOR',
  '0.1.0',
];

type Path = Array<string | number>;
function paths(v: unknown, at: Path = []): Path[] {
  if (v === null || typeof v !== 'object') return [at];
  const kids = Array.isArray(v) ? v.map((x, i) => paths(x, [...at, i])) : Object.entries(v).map(([k, x]) => paths(x, [...at, k]));
  return [at, ...kids.flat()];
}
function set(doc: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  if (path.length === 0) return value;
  let o = copy;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === undefined && !Array.isArray(o)) delete o[last];
  else o[last] = value;
  return copy;
}
function addKey(doc: unknown, path: Path): unknown | null {
  const copy = structuredClone(doc);
  let o = copy as Record<string, unknown>;
  for (const k of path) o = o[k as string] as Record<string, unknown>;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return null;
  o.unexpected_key = 1;
  return copy;
}

const zodSays = (v: unknown): boolean => traceRecordSchema.safeParse(v).success;
const handSays = (v: unknown): boolean => traceRecordIssues(v).length === 0;

describe('the hooks’ record check agrees with the zod schema', () => {
  it('accepts every valid record', () => {
    for (const r of valid) {
      expect(zodSays(r)).toBe(true);
      expect(traceRecordIssues(r)).toEqual([]);
    }
  });

  it('gives the same verdict on every single-field corruption', () => {
    let compared = 0;
    let rejected = 0;
    const disagree: string[] = [];
    for (const r of valid)
      for (const p of paths(r)) {
        const variants = [...WRONG.map((w) => set(r, p, w)), addKey(r, p)].filter((v) => v !== null);
        for (const v of variants) {
          compared += 1;
          const z = zodSays(v);
          if (!z) rejected += 1;
          if (z !== handSays(v))
            disagree.push(`${p.join('.') || '(root)'} = ${JSON.stringify(v === undefined ? 'undefined' : JSON.stringify(v)).slice(0, 160)}: zod ${z}`);
        }
      }
    expect(disagree).toEqual([]);
    // The corpus is not trivial: thousands of variants, most of them invalid.
    expect(compared).toBeGreaterThan(2_000);
    expect(rejected).toBeGreaterThan(compared / 2);
  });

  it('says where a record is wrong', () => {
    const bad = set(valid[0], ['files', 0, 'conversations', 0, 'ranges', 0, 'end_line'], 0);
    expect(traceRecordIssues(bad)).toEqual([{ path: 'files.0.conversations.0.ranges.0.end_line', message: 'must be at least 1' }]);
  });
});
