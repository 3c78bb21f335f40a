// An Agent Trace v0.1.0 record (https://agent-trace.dev, cursor/agent-trace)
// as roz writes it, with roz's own fields under metadata["dev.roz"].
import { z } from 'zod';

export const AGENT_TRACE_VERSION = '0.1.0';
export const ROZ_NAMESPACE = 'dev.roz';
export const mutationClasses = ['AST_REFACTOR', 'INTENT_EVOLUTION'] as const;
export type MutationClass = (typeof mutationClasses)[number];

const contributor = z
  .object({ type: z.enum(['human', 'ai', 'mixed', 'unknown']), model_id: z.string().max(250).optional() })
  .strict();

const range = z
  .object({
    start_line: z.number().int().min(1),
    end_line: z.number().int().min(1),
    content_hash: z.string().regex(/^sha256:[0-9a-f]{64}$/).optional(),
    contributor: contributor.optional(),
  })
  .strict()
  .refine((r) => r.end_line >= r.start_line, { message: 'end_line is before start_line' });

const conversation = z
  .object({
    url: z.url().optional(),
    contributor: contributor.optional(),
    ranges: z.array(range),
    related: z.array(z.object({ type: z.string().min(1), url: z.url() }).strict()).optional(),
  })
  .strict();

export const rozMetadataSchema = z
  .object({
    session_id: z.string().min(1),
    intent_id: z.string().min(1),
    mutation_class: z.enum(mutationClasses),
    tool_name: z.string().min(1),
    tool_use_id: z.string().optional(),
    agent_id: z.string().optional(),
    /** Top-level symbols whose lines the change touched, per file path (ts/js/py only). */
    symbols: z.record(z.string(), z.array(z.string())).optional(),
    /** sha256 of each whole file right after the change, per file path. */
    file_hashes: z.record(z.string(), z.string()).optional(),
  })
  .strict();

export const traceRecordSchema = z
  .object({
    version: z.literal(AGENT_TRACE_VERSION),
    id: z.uuid(),
    timestamp: z.iso.datetime(),
    vcs: z.object({ type: z.enum(['git', 'jj', 'hg', 'svn']), revision: z.string().min(1) }).strict().optional(),
    tool: z.object({ name: z.string().min(1), version: z.string().min(1) }).strict(),
    files: z.array(z.object({ path: z.string().min(1), conversations: z.array(conversation) }).strict()),
    metadata: z.object({ [ROZ_NAMESPACE]: rozMetadataSchema }).catchall(z.unknown()),
  })
  .strict();

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
