// An Agent Trace v0.1.0 record (https://agent-trace.dev, cursor/agent-trace)
// as roz writes it, with roz's own fields under metadata["dev.roz"].
// zod/mini like every schema on the hook path (see src/core/hook-input.ts).
import * as z from 'zod/mini';
import '../zod-messages.js';


export const AGENT_TRACE_VERSION = '0.1.0';
export const ROZ_NAMESPACE = 'dev.roz';
export const mutationClasses = ['AST_REFACTOR', 'INTENT_EVOLUTION'] as const;
export type MutationClass = (typeof mutationClasses)[number];

const text = z.string().check(z.minLength(1));
const line = z.int().check(z.gte(1));

const contributor = z.strictObject({
  type: z.enum(['human', 'ai', 'mixed', 'unknown']),
  model_id: z.optional(z.string().check(z.maxLength(250))),
});

const range = z
  .strictObject({
    start_line: line,
    end_line: line,
    content_hash: z.optional(z.string().check(z.regex(/^sha256:[0-9a-f]{64}$/))),
    contributor: z.optional(contributor),
  })
  .check(z.refine((r) => r.end_line >= r.start_line, { message: 'end_line is before start_line' }));

const conversation = z.strictObject({
  url: z.optional(z.url()),
  contributor: z.optional(contributor),
  ranges: z.array(range),
  related: z.optional(z.array(z.strictObject({ type: text, url: z.url() }))),
});

export const rozMetadataSchema = z.strictObject({
  session_id: text,
  intent_id: text,
  mutation_class: z.enum(mutationClasses),
  tool_name: text,
  tool_use_id: z.optional(z.string()),
  agent_id: z.optional(z.string()),
  /** Top-level symbols whose lines the change touched, per file path (ts/js/py only). */
  symbols: z.optional(z.record(z.string(), z.array(z.string()))),
  /** sha256 of each whole file right after the change, per file path. */
  file_hashes: z.optional(z.record(z.string(), z.string())),
});

export const traceRecordSchema = z.strictObject({
  version: z.literal(AGENT_TRACE_VERSION),
  id: z.uuid(),
  timestamp: z.iso.datetime(),
  vcs: z.optional(z.strictObject({ type: z.enum(['git', 'jj', 'hg', 'svn']), revision: text })),
  tool: z.strictObject({ name: text, version: text }),
  files: z.array(z.strictObject({ path: text, conversations: z.array(conversation) })),
  metadata: z.catchall(z.object({ [ROZ_NAMESPACE]: rozMetadataSchema }), z.unknown()),
});

export type TraceRecord = z.infer<typeof traceRecordSchema>;
export type RozMetadata = z.infer<typeof rozMetadataSchema>;
export type TraceRange = z.infer<typeof range>;

export function rozMeta(record: TraceRecord): RozMetadata {
  return record.metadata[ROZ_NAMESPACE];
}

/** The intent as a related resource: a URN, so the record means the same in every clone. */
export function intentUrn(intentId: string): string {
  return `urn:roz:intent:${encodeURIComponent(intentId)}`;
}

/** Claude model names as models.dev spells them (`anthropic/claude-…`). */
export function normaliseModelId(model: string | null | undefined): string | undefined {
  if (!model) return undefined;
  const m = model.replace(/\[[^\]]*\]$/, '').trim();
  if (!m) return undefined;
  if (m.includes('/')) return m.slice(0, 250);
  return (m.startsWith('claude') ? `anthropic/${m}` : m).slice(0, 250);
}
