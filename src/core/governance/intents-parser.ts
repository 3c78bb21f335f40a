// The `.orchestration/active_intents.yaml` document: its zod schema, and a
// parser that reports every problem with the line and column it sits at.
// yaml and zod are most of the hook's code, so hooks load this module only
// when the file's text has no cached parse (see src/store/intents-cache.ts);
// the types and helpers everyone needs are in ./intents.ts.
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
// zod/mini like every schema on the hook path (see src/core/hook-input.ts).
import * as z from 'zod/mini';
import '../zod-messages.js';
import { intentStatuses, type IntentsParse, type IntentsProblem } from './intents.js';

// Timestamps are written by humans: a full RFC 3339 time or a plain date.
const timestamp = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);
const text = z.string().check(z.minLength(1));
const list = (what: string) => z._default(z.array(text), []).check(z.describe(what));

export const intentSchema = z.strictObject({
  id: z
    .string()
    .check(
      z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'an id is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit'),
      z.describe('Stable identifier the agent selects, e.g. INT-001'),
    ),
  name: z.string().check(z.minLength(1), z.describe('Short human name of the intent')),
  status: z.enum(intentStatuses).check(z.describe('Only IN_PROGRESS intents can be selected')),
  owned_scope: list('Globs (picomatch, relative to the project root) of the files this intent may change'),
  constraints: list('Rules the agent must follow while working on the intent'),
  acceptance_criteria: list('How to tell the intent is done'),
  created_at: z.optional(timestamp),
  updated_at: z.optional(timestamp),
});

export const activeIntentsSchema = z
  .strictObject({
    active_intents: z.array(intentSchema).check(z.describe('Every intent of the project, whatever its status')),
  })
  .check(
    z.superRefine((doc, ctx) => {
      const seen = new Map<string, number>();
      doc.active_intents.forEach((intent, i) => {
        const first = seen.get(intent.id);
        if (first !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['active_intents', i, 'id'],
            message: `duplicate id ${JSON.stringify(intent.id)} (first used by entry ${first + 1})`,
          });
        } else seen.set(intent.id, i);
      });
    }),
  );

export type Intent = z.infer<typeof intentSchema>;
export type ActiveIntents = z.infer<typeof activeIntentsSchema>;

/** The JSON Schema editors and CI validate the file with (kept in schemas/). */
export function activeIntentsJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(activeIntentsSchema, { target: 'draft-2020-12', io: 'input' }),
    $id: 'https://roz.dev/schemas/active_intents.schema.json',
    title: 'roz active intents (.orchestration/active_intents.yaml)',
  };
}

/** Parse the file's text; never throws. Problems are sorted by position. */
export function parseActiveIntents(text: string): IntentsParse {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const problems: IntentsProblem[] = doc.errors.map((e) => ({
    line: e.linePos?.[0].line ?? 1,
    column: e.linePos?.[0].col ?? 1,
    reason: firstLine(e.message),
  }));
  if (problems.length > 0) return { ok: false, problems };
  const data: unknown = doc.toJS();
  if (data === null || data === undefined) {
    return { ok: false, problems: [{ line: 1, column: 1, reason: 'the file is empty; expected a mapping with an `active_intents:` list' }] };
  }
  const parsed = activeIntentsSchema.safeParse(data);
  if (parsed.success) return { ok: true, intents: parsed.data.active_intents };
  const out = parsed.error.issues.map((issue) => {
    // An unknown key is found by its own name, so a typo like `owned_scopes` is pointed at.
    const extra = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const path = [...(issue.path as Array<string | number>), ...(extra !== undefined ? [extra] : [])];
    const at = positionOf(doc, lineCounter, path, extra !== undefined);
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    return { line: at.line, column: at.col, reason: `${where}${issue.message}` };
  });
  out.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ok: false, problems: out };
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/** The position of the deepest node on `path` that exists (a missing key points at its parent). */
function positionOf(doc: Document, lc: LineCounter, path: Array<string | number>, atKey: boolean): { line: number; col: number } {
  let node: unknown = doc.contents;
  let best = node as Node | null;
  for (const [i, key] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
      if (!pair) break;
      node = pair.value ?? pair.key;
      best = (pair.value ?? pair.key) as Node;
      if (atKey && i === path.length - 1 && (pair.key as Node | null)?.range) best = pair.key as Node;
    } else if (isSeq(node) && typeof key === 'number') {
      node = node.items[key];
      if (!node) break;
      best = node as Node;
    } else break;
  }
  const offset = best?.range?.[0] ?? 0;
  return lc.linePos(offset);
}
