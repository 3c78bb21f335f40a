// The zod schema of an Agent Trace v0.1.0 record as roz writes it. Checked on
// every append and read of the ledger; hooks load it only when they touch the
// ledger (the constants and helpers are in ./trace-record.ts).
// zod/mini like every schema on the hook path (see src/core/hook-input.ts).
import * as z from 'zod/mini';
import '../zod-messages.js';
import { AGENT_TRACE_VERSION, mutationClasses, ROZ_NAMESPACE } from './trace-record.js';

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
  /** Found by the scope audit at Stop: no tool call roz judged made this change. */
  unattributed: z.optional(z.boolean()),
  /** Globs the human added to the intent's owned_scope from the approval panel (`g`). */
  scope_added: z.optional(z.array(z.string())),
  /** The human who made that decision (the supervisor's user). */
  decided_by: z.optional(z.string()),
  /** `roz agent merge` (tool_name `roz:merge`): which agent's branch went into which base, on which review, with which tree. */
  merge: z.optional(
    z.strictObject({
      agent: text,
      branch: text,
      base: text,
      strategy: z.enum(['fast-forward', 'merge']),
      commit: text,
      tree: text,
      reviewed_tree: text,
      review: z.strictObject({
        decision: z.literal('COMPLETE'),
        /** Absent for the reviewer's; `human` for an approval typed at a terminal (`roz agent merge --human`, the TUI's `m`). */
        by: z.optional(z.literal('human')),
        human: z.optional(text),
        decided_at: text,
        session_id: text,
        summary: z.string(),
      }),
      ledger_records: z.int().check(z.gte(0)),
    }),
  ),
  /** A human's approval of an agent's branch (tool_name `roz:human-review`): which tree of which branch, at which commit. */
  approval: z.optional(z.strictObject({ agent: text, branch: text, commit: text, tree: text })),
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
