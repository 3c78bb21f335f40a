// A spooled trace record as an OpenTelemetry event: a log record and the
// metric points it adds. Pure; used only by the exporter (src/engine/otlp-export.ts),
// so the hook bundle does not carry it. Attribute names: see src/core/telemetry.ts.
import { VERDICTS, type Rec } from './telemetry.js';

/** What the exporter knows of a session besides its records (read from its state). */
export interface SessionContext {
  /** The governed project's root, or the session's cwd. */
  project?: string | undefined;
}

export interface TelemetryEvent {
  name: string;
  /** Milliseconds since the epoch. */
  time: number;
  severity: 'INFO' | 'WARN';
  body: string;
  attributes: Record<string, string | number | boolean>;
  /** Metric points this event adds (name, value, attributes). */
  metrics: Array<{ name: TelemetryMetric; value: number; attributes: Record<string, string> }>;
}

export type TelemetryMetric = 'roz.denials' | 'roz.reviews' | 'roz.approval.wait' | 'roz.breaker.trips';

/** Instrument descriptions, so the exporter and docs/telemetry.md agree. */
export const METRICS: Record<TelemetryMetric, { kind: 'counter' | 'histogram'; unit: string; description: string }> = {
  'roz.denials': { kind: 'counter', unit: '{denial}', description: 'Tool calls and stops roz denied, asked about or blocked, by code' },
  'roz.reviews': { kind: 'counter', unit: '{review}', description: 'Review outcomes: complete, issues, invalid, no_decision, breaker_tripped' },
  'roz.approval.wait': { kind: 'histogram', unit: 's', description: 'How long a tool call waited for a human decision' },
  'roz.breaker.trips': { kind: 'counter', unit: '{trip}', description: 'Review-gate circuit breaker trips' },
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

function baseName(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return parts.at(-1) ?? path;
}

/** A spooled record as an OTel event, or null when it carries nothing to export. */
export function toTelemetryEvent(rec: Rec, session: SessionContext): TelemetryEvent | null {
  const attributes: TelemetryEvent['attributes'] = { 'session.id': rec.session_id };
  const repo = session.project ? baseName(session.project) : undefined;
  if (repo) attributes['vcs.repository.name'] = repo;
  if (session.project) attributes['roz.project.path'] = session.project;
  const tool = str(rec.tool_name);
  if (tool) attributes['gen_ai.tool.name'] = tool;
  const callId = str(rec.tool_use_id);
  if (callId) attributes['gen_ai.tool.call.id'] = callId;
  const time = Date.parse(rec.ts);
  const ev = (
    name: string,
    severity: TelemetryEvent['severity'],
    body: string,
    extra: TelemetryEvent['attributes'],
    metrics: TelemetryEvent['metrics'] = [],
  ): TelemetryEvent => {
    const all = { ...attributes, ...extra, 'event.name': name };
    return { name, time: Number.isFinite(time) ? time : Date.now(), severity, body, attributes: all, metrics };
  };
  const repoAttr: Record<string, string> = repo ? { 'vcs.repository.name': repo } : {};

  const verdict = rec.verdict as { kind?: string; code?: string; reason?: string } | undefined;
  if (verdict && VERDICTS.has(String(verdict.kind))) {
    // A Stop block is the review gate asking for a review; it has no denial code of its own.
    const code = verdict.code ?? (verdict.kind === 'block' ? 'REVIEW_BLOCK' : 'UNKNOWN');
    return ev('roz.hook.verdict', 'WARN', verdict.reason ?? '', { 'roz.hook.event': rec.event, 'roz.verdict': String(verdict.kind), 'roz.code': code }, [
      { name: 'roz.denials', value: 1, attributes: { 'roz.code': code, 'roz.verdict': String(verdict.kind), 'roz.hook.event': rec.event, ...repoAttr } },
    ]);
  }
  switch (rec.event) {
    case 'roz:SessionStarted':
      return ev('roz.session.start', 'INFO', `roz enforcement: ${String(rec.enforcement)}`, {
        'roz.enforcement.mode': String(rec.enforcement ?? 'unknown'),
        'roz.hooks.transport': String(rec.hooks ?? 'process'),
        'roz.review.mode': String(rec.review_mode ?? ''),
      });
    case 'roz:SessionEnded':
      return ev('roz.session.end', 'INFO', `review at end: ${String(rec.review)}`, {
        'roz.review.at_end': String(rec.review ?? 'not_requested'),
        'roz.review.status': String(rec.review_status ?? ''),
        'roz.review.attempts': Number(rec.attempts ?? 0),
        'roz.denials': Number(rec.denials ?? 0),
      });
    case 'roz:ReviewBlocked':
      return ev('roz.review.attempt', 'INFO', 'review requested at stop', {
        'roz.review.template': String(rec.template_id ?? ''),
        'roz.review.block_count': Number(rec.block_count ?? 0),
      });
    case 'roz:Decision': {
      const outcome = rec.valid === false ? 'invalid' : String(rec.kind);
      return ev(
        'roz.review.decision',
        rec.valid === false ? 'WARN' : 'INFO',
        String(rec.summary ?? ''),
        { 'roz.review.decision': String(rec.kind), 'roz.review.decision.valid': rec.valid !== false, 'roz.review.outcome': outcome },
        [{ name: 'roz.reviews', value: 1, attributes: { 'roz.review.outcome': outcome, ...repoAttr } }],
      );
    }
    case 'roz:DecisionRefused':
      // The verdict record of the same call carries the DECISION_REFUSED code; this one says why.
      return ev('roz.review.decision_refused', 'WARN', String(rec.why ?? ''), {});
    case 'roz:ReviewerStopped':
      if (rec.decided !== false) return null;
      return ev('roz.review.no_decision', 'WARN', 'the reviewer stopped without a decision', { 'roz.review.outcome': 'no_decision' }, [
        { name: 'roz.reviews', value: 1, attributes: { 'roz.review.outcome': 'no_decision', ...repoAttr } },
      ]);
    case 'roz:SelfApprovalDenied':
    case 'roz:BadSessionId':
      return ev(`roz.review.${rec.event === 'roz:BadSessionId' ? 'bad_session_id' : 'self_approval_denied'}`, 'WARN', '', {});
    case 'roz:BreakerTripped':
      return ev('roz.breaker.trip', 'WARN', 'review-gate circuit breaker tripped', { 'roz.breaker.max_blocks': Number(rec.max_blocks ?? 0) }, [
        { name: 'roz.breaker.trips', value: 1, attributes: repoAttr },
        { name: 'roz.reviews', value: 1, attributes: { 'roz.review.outcome': 'breaker_tripped', ...repoAttr } },
      ]);
    case 'roz:HumanDecision': {
      const waitMs = Number(rec.wait_ms ?? 0);
      const decision = String(rec.decision ?? '');
      return ev(
        'roz.human.decision',
        'INFO',
        String(rec.reason ?? ''),
        {
          'roz.human.decision': decision,
          'roz.human.decided_by': String(rec.decided_by ?? ''),
          'roz.human.scope': String(rec.scope ?? ''),
          'roz.approval.wait_ms': waitMs,
          ...(str(rec.code) ? { 'roz.code': String(rec.code) } : {}),
        },
        [
          {
            name: 'roz.approval.wait',
            value: waitMs / 1000,
            attributes: { 'roz.human.decision': decision, 'roz.human.decided_by': String(rec.decided_by ?? ''), ...repoAttr },
          },
        ],
      );
    }
    default:
      return null;
  }
}
