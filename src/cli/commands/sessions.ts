// `roz sessions`: the recent sessions in the store, newest first, so the
// inspection commands can be given an id (or --last).
import type { SessionState } from '../../core/session-state.js';
import { c, cliContext, printJson, table, UsageError } from '../context.js';

export interface SessionRow {
  session_id: string;
  project: string | null;
  started: string;
  updated: string;
  ended: string | null;
  /** `off` when review was never turned on, else the review status. */
  review: string;
  denials: number;
  /** `enforced` or `advisory` as recorded at session start; null when the session did not record it. */
  enforcement: string | null;
}

export function sessionRow(s: SessionState): SessionRow {
  return {
    session_id: s.session_id,
    project: s.cwd,
    started: s.created_at,
    updated: s.updated_at,
    ended: s.ended_at,
    review: s.review.enabled || s.review.status !== 'idle' ? s.review.status : 'off',
    denials: Object.values(s.denials).reduce((a, b) => a + b, 0),
    enforcement: s.enforcement?.mode ?? null,
  };
}

const when = (iso: string): string => iso.slice(0, 16).replace('T', ' ');

export function sessionsCommand(opts: { json?: boolean; limit?: string; all?: boolean }): number {
  const limit = opts.all ? Infinity : opts.limit === undefined ? 20 : Number(opts.limit);
  if (!(limit > 0) || (limit !== Infinity && !Number.isInteger(limit)))
    throw new UsageError(`--limit must be a positive whole number, got ${JSON.stringify(opts.limit)}`);
  const ctx = cliContext();
  const summaries = ctx.store.list();
  const rows: SessionRow[] = [];
  for (const summary of summaries.slice(0, limit)) {
    try {
      const state = ctx.store.read(summary.session_id);
      if (state) rows.push(sessionRow(state));
    } catch (err) {
      process.stderr.write(`roz: skipped session ${summary.session_id}: ${(err as Error).message}\n`);
    }
  }
  if (opts.json) {
    printJson(rows);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write(`no sessions in ${ctx.config.storage.path}\n`);
    return 0;
  }
  const home = ctx.env.HOME;
  const project = (p: string | null) => (p === null ? '-' : home && (p === home || p.startsWith(`${home}/`)) ? `~${p.slice(home.length)}` : p);
  const out = table([
    ['SESSION', 'PROJECT', 'STARTED (UTC)', 'REVIEW', 'DENIALS', 'MODE'],
    ...rows.map((r) => [r.session_id, project(r.project), when(r.started), r.review, String(r.denials), r.enforcement ?? '-']),
  ]);
  const older = summaries.length - Math.min(limit, summaries.length);
  const more = older > 0 ? c.dim(`\n${older} older not shown (--all or --limit N)`) : '';
  process.stdout.write(`${out}${more}\n`);
  return 0;
}
