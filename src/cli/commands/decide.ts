// `roz decide`: the reviewer records COMPLETE or ISSUES. The decision counts
// only inside the reviewer's own run (see core/review/decide.ts).
import { recordDecision, type DecisionOutcome } from '../../core/review/decide.js';
import type { DecisionKind } from '../../core/review/state.js';
import { cliContext, resolveSession, UsageError } from '../context.js';
import { governanceOnReviewIssues } from '../../engine/governance.js';

export interface DecideOptions {
  message?: string;
  opinions?: string;
  last?: boolean;
}

const KINDS: Record<string, DecisionKind> = { COMPLETE: 'complete', ISSUES: 'issues' };

const USAGE = 'roz decide [SESSION] COMPLETE|ISSUES "summary"';
const isKind = (a: string | undefined): boolean => a !== undefined && a.toUpperCase() in KINDS;

export async function decideCommand(args: string[], opts: DecideOptions): Promise<number> {
  // The first argument is the session only when the decision follows it, so a
  // mistyped decision is named as one, not taken for a session id.
  const hasSession = !isKind(args[0]) && isKind(args[1]);
  const sessionArg = hasSession ? args[0] : undefined;
  const [kindArg, summary, ...extra] = hasSession ? args.slice(1) : args;
  if (!kindArg) throw new UsageError(`missing decision: ${USAGE}`);
  const kind = KINDS[kindArg.toUpperCase()];
  if (!kind) throw new UsageError(`invalid decision ${JSON.stringify(kindArg)}: expected COMPLETE or ISSUES (${USAGE})`);
  if (!summary || !summary.trim()) throw new UsageError('missing summary: say what you verified, in quotes');
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')} (quote the summary)`);
  if (kind === 'issues' && !opts.message?.trim()) {
    throw new UsageError('ISSUES needs --message "what the agent must fix"');
  }
  const sid = resolveSession(sessionArg, opts);
  const ctx = cliContext();
  if (!ctx.store.read(sid)) throw new UsageError(`unknown session ${sid} (no state in ${ctx.config.storage.path})`, 3);
  const opinions = opts.opinions?.split(',').map((s) => s.trim()).filter(Boolean);
  const now = new Date();
  const out = await ctx.store.update<DecisionOutcome>(sid, now, (state) => {
    const outcome = recordDecision(
      state,
      { kind, summary, ...(opts.message ? { message: opts.message } : {}), ...(opinions ? { opinions } : {}) },
      now,
    );
    // A review that ends ISSUES is a lesson for the project (intent governance).
    const lesson =
      outcome.ok && kind === 'issues'
        ? governanceOnReviewIssues(state, { summary, ...(opts.message ? { message: opts.message } : {}) }, { env: process.env, now, storeRoot: ctx.config.storage.path })
        : null;
    for (const w of lesson?.warnings ?? []) process.stderr.write(`${w}\n`);
    return {
      value: outcome,
      trace: [
        {
          ts: now.toISOString(),
          event: 'roz:Decision',
          session_id: sid,
          kind,
          valid: outcome.ok,
          summary,
          ...(opts.message ? { message: opts.message } : {}),
          ...(outcome.ok ? { agent_id: outcome.decision.agent_id } : { invalid_reason: outcome.reason }),
        },
      ],
    };
  });
  if (!out.ok) {
    process.stderr.write(`roz: decision NOT counted for session ${sid}: ${out.reason}\n`);
    return 4;
  }
  process.stdout.write(`roz: decision recorded: ${kind.toUpperCase()} for session ${sid}\n`);
  return 0;
}
