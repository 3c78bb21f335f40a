// An Agent Trace v0.1.0 record (https://agent-trace.dev, cursor/agent-trace)
// as roz writes it, with roz's own fields under metadata["dev.roz"]. Its zod
// schema is ./trace-schema.ts, loaded only where records are checked.
import type { RozMetadata, TraceRecord } from './trace-schema.js';

export type { RozMetadata, TraceRange, TraceRecord } from './trace-schema.js';

export const AGENT_TRACE_VERSION = '0.1.0';
export const ROZ_NAMESPACE = 'dev.roz';
export const mutationClasses = ['AST_REFACTOR', 'INTENT_EVOLUTION'] as const;
export type MutationClass = (typeof mutationClasses)[number];

/** The fields every record roz writes starts with. */
export type TraceHeader = Pick<TraceRecord, 'version' | 'id' | 'timestamp' | 'vcs' | 'tool'>;

/**
 * The one header of roz's records (the hooks', the supervisor's scope widening,
 * the merge gate's): the version, the record's id, when, the git revision it
 * was written at (none outside git), and roz as the tool. The caller makes the
 * id and reads the revision (I/O); this stays pure.
 */
export function traceHeader(id: string, now: Date, revision: string | null, rozVersion: string): TraceHeader {
  return {
    version: AGENT_TRACE_VERSION,
    id,
    timestamp: now.toISOString(),
    ...(revision ? { vcs: { type: 'git' as const, revision } } : {}),
    tool: { name: 'roz', version: rozVersion },
  };
}

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
