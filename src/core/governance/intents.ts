// What the rest of roz knows of `.orchestration/active_intents.yaml`: the
// intent type, the result of parsing the file, and how problems are shown.
// The parser itself (yaml + zod) is ./intents-parser.ts, loaded only when needed.
export type { Intent } from './intents-parser.js';
import type { Intent } from './intents-parser.js';

export const intentStatuses = ['DRAFT', 'IN_PROGRESS', 'COMPLETED', 'ARCHIVED'] as const;
export type IntentStatus = (typeof intentStatuses)[number];

/** One problem in the file, where a human can find it. */
export interface IntentsProblem {
  line: number;
  column: number;
  reason: string;
}

export type IntentsParse = { ok: true; intents: Intent[] } | { ok: false; problems: IntentsProblem[] };

/** `file:3:7: reason` lines, the way compilers report. */
export function formatProblems(file: string, problems: IntentsProblem[]): string {
  return problems.map((p) => `${file}:${p.line}:${p.column}: ${p.reason}`).join('\n');
}

const isStringList = (x: unknown): boolean => Array.isArray(x) && x.every((s) => typeof s === 'string');
const optionalString = (x: unknown): boolean => x === undefined || typeof x === 'string';

/**
 * Whether a value read back from the parse cache has the shape the parser
 * produces. Not a second schema: the parser already checked the file; this
 * only keeps a truncated or foreign cache entry from being trusted.
 */
export function isIntentsParse(x: unknown): x is IntentsParse {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  if (r.ok === false) {
    return (
      Array.isArray(r.problems) &&
      r.problems.every((p) => {
        const q = p as Record<string, unknown> | null;
        return typeof q === 'object' && q !== null && typeof q.line === 'number' && typeof q.column === 'number' && typeof q.reason === 'string';
      })
    );
  }
  if (r.ok !== true || !Array.isArray(r.intents)) return false;
  return r.intents.every((i) => {
    const o = i as Record<string, unknown> | null;
    return (
      typeof o === 'object' &&
      o !== null &&
      typeof o.id === 'string' &&
      typeof o.name === 'string' &&
      (intentStatuses as readonly unknown[]).includes(o.status) &&
      isStringList(o.owned_scope) &&
      isStringList(o.constraints) &&
      isStringList(o.acceptance_criteria) &&
      optionalString(o.created_at) &&
      optionalString(o.updated_at)
    );
  });
}
