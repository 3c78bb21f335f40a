import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblems } from '../../src/core/governance/intents.js';
import { activeIntentsJsonSchema, parseActiveIntents } from '../../src/core/governance/intents-parser.js';
import { INTENTS_YAML } from './helpers.js';

const schemaFile = join(import.meta.dirname, '../../schemas/active_intents.schema.json');

describe('active_intents.yaml', () => {
  it('parses a valid file and fills defaults', () => {
    const r = parseActiveIntents(INTENTS_YAML);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.intents.map((i) => [i.id, i.status])).toEqual([
      ['INT-001', 'IN_PROGRESS'],
      ['INT-002', 'DRAFT'],
      ['INT-003', 'COMPLETED'],
    ]);
    expect(r.intents[1]!.constraints).toEqual([]);
  });

  it('reports a YAML syntax error with line and column', () => {
    const text = 'active_intents:\n  - id: INT-001\n    name: "unterminated\n    status: IN_PROGRESS\n';
    const r = parseActiveIntents(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0]!.line).toBeGreaterThanOrEqual(3);
    expect(r.problems[0]!.column).toBeGreaterThan(0);
    expect(formatProblems('.orchestration/active_intents.yaml', r.problems)).toMatch(/^\.orchestration\/active_intents\.yaml:\d+:\d+: /);
  });

  it('points a schema error at the offending value', () => {
    const text = 'active_intents:\n  - id: INT-001\n    name: x\n    status: DOING\n';
    const r = parseActiveIntents(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ line: 4, column: 13 });
    expect(r.problems[0]!.reason).toMatch(/active_intents\.0\.status/);
  });

  it('points an unknown key (a typo) at the key itself', () => {
    const text = 'active_intents:\n  - id: INT-001\n    name: x\n    status: DRAFT\n    owned_scopes: [a]\n';
    const r = parseActiveIntents(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0]).toMatchObject({ line: 5, column: 5 });
    expect(r.problems[0]!.reason).toMatch(/owned_scopes/);
  });

  it('refuses duplicate ids, a missing name and an empty file', () => {
    const dup = parseActiveIntents('active_intents:\n  - {id: A, name: a, status: DRAFT}\n  - {id: A, name: b, status: DRAFT}\n');
    expect(dup.ok).toBe(false);
    if (!dup.ok) expect(dup.problems[0]).toMatchObject({ line: 3, reason: expect.stringMatching(/duplicate id/) });
    const missing = parseActiveIntents('active_intents:\n  - id: A\n    status: DRAFT\n');
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.problems[0]!.line).toBe(2);
    const empty = parseActiveIntents('');
    expect(empty.ok).toBe(false);
    const dupKey = parseActiveIntents('active_intents: []\nactive_intents: []\n');
    expect(dupKey.ok).toBe(false);
    if (!dupKey.ok) expect(dupKey.problems[0]!.line).toBe(2);
  });

  it('schemas/active_intents.schema.json is generated from the zod schema (UPDATE_SCHEMAS=1 rewrites it)', () => {
    const fresh = `${JSON.stringify(activeIntentsJsonSchema(), null, 2)}\n`;
    if (process.env.UPDATE_SCHEMAS === '1') writeFileSync(schemaFile, fresh);
    expect(readFileSync(schemaFile, 'utf8')).toBe(fresh);
  });
});
