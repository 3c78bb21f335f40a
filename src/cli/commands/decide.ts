// `roz decide`: tells the reviewer what roz recorded. It writes nothing: the
// decision is recorded by roz's PreToolUse hook of the reviewer's own Bash
// call (core/review/policy.ts), which the client spawns with the reviewer's
// agent id. Anything the agent's tools run, this command included, is
// untrusted, so running it can never approve anything.
import { parseDecideArgs, type DecideArgs } from '../../core/review/decide-args.js';
import type { Decision } from '../../core/review/state.js';
import { unseenSentence, WRITTEN_DURING_REVIEW } from '../../core/review/seen-tree.js';
import { cliContext, requireSessionId, UsageError } from '../context.js';

export interface DecideOptions {
  message?: string;
  opinions?: string;
  noOpinion?: string;
}

/** How recent a recorded decision must be to be the one this command's hook just recorded. */
const RECENT_MS = 10 * 60_000;

function matches(d: Decision, a: DecideArgs): boolean {
  return d.kind === a.kind && d.summary === a.summary && (d.message ?? undefined) === (a.message ?? undefined);
}

export async function decideCommand(args: string[], opts: DecideOptions): Promise<number> {
  // The same grammar the hook used to record it.
  const words = [
    ...args,
    ...(opts.message !== undefined ? ['--message', opts.message] : []),
    ...(opts.opinions !== undefined ? ['--opinions', opts.opinions] : []),
    ...(opts.noOpinion !== undefined ? ['--no-opinion', opts.noOpinion] : []),
  ];
  const parsed = parseDecideArgs(words);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const a = parsed.args;
  const sid = requireSessionId(a.session ?? undefined);
  const ctx = cliContext();
  const state = ctx.store.read(sid);
  if (!state) throw new UsageError(`unknown session ${sid} (no state in ${ctx.config.storage.path})`, 3);
  const last = state.review.decision_history.at(-1);
  const now = Date.now();
  if (last && last.valid && matches(last, a) && now - Date.parse(last.decided_at) < RECENT_MS) {
    process.stdout.write(
      `roz: decision recorded: ${last.kind.toUpperCase()} for session ${sid} (by reviewer ${last.agent_id ?? '?'} at ${last.decided_at}` +
        `${last.tree ? `, tree ${last.tree.slice(0, 12)}` : ''}).\n`,
    );
    // The hook re-armed the gate at this very decision: files changed after the reviewer last saw the worktree.
    const r = state.review.rearmed;
    if (last.kind === 'complete' && r && r.at === last.decided_at && r.why === WRITTEN_DURING_REVIEW) {
      const run = last.agent_id ? state.review.reviewers[last.agent_id] : undefined;
      process.stdout.write(`roz: ${unseenSentence(r.files, run?.seen_at)}\n`);
    }
    return 0;
  }
  process.stderr.write(
    `roz: NOTHING was recorded for session ${sid}. A decision is recorded only by roz's hook, when the running roz:roz reviewer ` +
      'runs `roz decide ...` as a Bash command of its own (nothing chained before or after it). ' +
      (last ? `The latest decision on record is ${last.kind.toUpperCase()} at ${last.decided_at} ("${last.summary}").` : 'No decision is on record.') +
      ` Inspect with: roz debug ${sid}\n`,
  );
  return 4;
}
