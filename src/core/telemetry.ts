// OpenTelemetry export, the pure part: whether export is on (the standard
// OTEL_* variables or the [telemetry] config section), which trace records
// are worth a spool line, and how a spooled record becomes an OTel log record
// and metric points. Attribute names follow the OTel semantic conventions
// where one exists (`session.id` is the one Claude Code's own telemetry uses,
// so the two streams join on it; `gen_ai.tool.name`, `gen_ai.tool.call.id`,
// `vcs.repository.name`, `event.name`); roz's own are under `roz.`.
import type { RozConfig } from './config.js';

type Env = Record<string, string | undefined>;
export type Rec = { ts: string; event: string; session_id: string; [key: string]: unknown };

/** Cheap enough for every hook: no parsing beyond a few variable reads. */
export function telemetryOn(cfg: RozConfig['telemetry'], env: Env): boolean {
  if (cfg.export === 'off' || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (cfg.export === 'on') return true;
  return Boolean(cfg.endpoint || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
}

/** roz's own notes that become telemetry; every other note stays in the session trace only. */
const NOTES = new Set([
  'roz:SessionStarted',
  'roz:SessionEnded',
  'roz:ReviewBlocked',
  'roz:ReviewerStopped',
  'roz:Decision',
  'roz:DecisionRefused',
  'roz:SelfApprovalDenied',
  'roz:BadSessionId',
  'roz:BreakerTripped',
  'roz:HumanDecision',
]);
export const VERDICTS: ReadonlySet<string> = new Set(['deny', 'ask', 'block']);
/** Too large or too private for a collector: the trace keeps them. */
const DROPPED = new Set(['tool_input', 'tool_response', 'prompt', 'last_assistant_message', 'error']);
const TEXT_LIMIT = 500;

export function spoolable(rec: Rec): boolean {
  const verdict = rec.verdict as { kind?: string } | undefined;
  return NOTES.has(rec.event) || (verdict !== undefined && VERDICTS.has(String(verdict.kind)));
}

const clip = (v: unknown): unknown => (typeof v === 'string' && v.length > TEXT_LIMIT ? `${v.slice(0, TEXT_LIMIT)}…` : v);

/** The spool line of a record: what export needs, with long text clipped. */
export function spoolLine(rec: Rec): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) {
    if (DROPPED.has(k)) continue;
    if (k === 'verdict' && v && typeof v === 'object') {
      const { kind, code, reason } = v as { kind?: string; code?: string; reason?: string };
      out.verdict = { kind, ...(code ? { code } : {}), ...(reason ? { reason: clip(reason) } : {}) };
    } else out[k] = clip(v);
  }
  return JSON.stringify(out);
}

/** How a session ended, for "which sessions ended unreviewed". */
export function reviewAtEnd(review: { enabled: boolean; decision: { kind: string; valid: boolean } | null }): 'reviewed' | 'unreviewed' | 'not_requested' {
  if (!review.enabled) return 'not_requested';
  return review.decision && review.decision.valid && review.decision.kind === 'complete' ? 'reviewed' : 'unreviewed';
}
