// A human reviews instead of the roz:roz reviewer (issue 31, part 3): they see
// the diff of exactly what the branch holds (store/agent-diff.ts, branch only:
// what a merge or push takes), and their approval is recorded for that tree
// — in roz's store (a decision in the agent's newest session, with who
// approved, and a `roz:HumanApproval` trace line) and as an Agent Trace
// record in the base checkout's ledger (`roz:human-review`, decided_by the
// human). The merge gate then counts it like a reviewer's COMPLETE
// (core/fleet/merge-gate.ts), and refuses it once the branch's tree changes.
//
// Who may approve: the human at their keyboard — `roz agent merge NAME
// --human` in a terminal (the CLI refuses without one), or `m` in the agents
// tab (the supervisor's keyboard). What enforces it is where the approval is
// written: roz's store and the base checkout's ledger, which an enforced
// agent's sandbox cannot write; the terminal check only keeps an agent's
// plain Bash call out (docs/fleet.md, "A human's review").
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { MergeResult } from '../../core/fleet/merge-result.js';
import type { WorkDiff } from '../../core/fleet/work-diff.js';
import { AGENT_TRACE_VERSION, ROZ_NAMESPACE, type TraceRecord } from '../../core/governance/trace-record.js';
import { rozVersion } from '../../core/version.js';
import { agentWork } from '../../store/agent-diff.js';
import { LEDGER_PATH, treeForGate, treeReader } from '../../store/agent-merge.js';
import { sessionsIn } from '../../store/agent-sessions.js';
import { FleetError } from '../../store/fleet-error.js';
import { appendHumanApproval } from '../../store/human-approvals.js';
import { commitTree, ObjectError } from '../../store/git-objects.js';
import { runGit } from '../../store/git.js';
import { appendLedger } from '../../store/ledger.js';
import { intakeAt } from '../../store/object-intake.js';
import { randomUuid } from '../../store/random-uuid.js';
import { baseCheckouts, baseLedgerDir, type GateContext, gateAgent, isGateAgent, isGateOpen, openGate } from './agent-merge.js';

/** What the human is shown and approves: the branch's tip and its tree as the gate compares it. */
export interface HumanReviewPlan {
  agent: string;
  branch: string;
  base: string;
  head: string;
  tree: string;
  work: WorkDiff;
}

/**
 * The human's name as roz records it: the OS account this trusted process runs
 * as (from the uid, not $USER, which any caller sets), and the name in the
 * human's own git config (`~/.gitconfig`, outside every project) when there is
 * one. Never the repository's config, which an agent may have written.
 */
export function humanName(): string {
  const user = userInfo().username;
  const home = userInfo().homedir;
  const r = runGit({ gitDir: tmpdir(), workTree: null }, ['config', '--file', join(home, '.gitconfig'), '--get', 'user.name']);
  const name = r.ok ? r.stdout.trim().replace(/[\0-\x1f\x7f]/g, '') : '';
  return name && name !== user ? `${name.slice(0, 100)} (${user})` : user;
}

/** The branch as the human will see it; or the result that says there is nothing to review (no agent, nothing to merge, roz files on it). */
export function prepareHumanReview(ctx: GateContext, name: string): HumanReviewPlan | MergeResult {
  try {
    const open = openGate(ctx, name);
    if (!isGateOpen(open) && (open.kind !== 'refused' || open.code === 'roz-files')) return open;
    const g = gateAgent(ctx, name);
    if (!isGateAgent(g)) return g;
    const work = agentWork(ctx.storeDir, g.repo, g.listed, { patch: true, branchOnly: true });
    const head = work.head;
    const tree = approvedTree(ctx, g.repo.common, head);
    const now = runGit(g.repo.common, ['rev-parse', '--verify', '-q', `refs/heads/${g.agent.branch}^{commit}`]);
    if (!now.ok || now.stdout.trim() !== head)
      return { kind: 'failed', agent: name, exit: 1, message: `${g.agent.branch} moved while roz read it: look again` };
    return { agent: name, branch: g.agent.branch, base: g.base, head, tree, work };
  } catch (err) {
    if (err instanceof FleetError)
      return err.exitCode === 3 ? { kind: 'no-agent', agent: name } : { kind: 'failed', agent: name, message: err.message, exit: err.exitCode };
    if (err instanceof ObjectError) return { kind: 'failed', agent: name, message: err.message, exit: 1 };
    // roz's store out of reach (an agent's sandbox: mounted empty or read-only): nothing to show, nothing approved.
    if (typeof (err as NodeJS.ErrnoException).code === 'string')
      return { kind: 'failed', agent: name, message: `roz's store: ${(err as Error).message}`, exit: 1 };
    throw err;
  }
}

export const isReviewPlan = (v: HumanReviewPlan | MergeResult): v is HumanReviewPlan => 'work' in v;

/** The tree of `head` as the gate compares it (without roz's ledger), every object read hashed again. */
function approvedTree(_ctx: GateContext, common: Parameters<typeof commitTree>[0], head: string): string {
  return treeForGate(treeReader(common), commitTree(common, head));
}

export type ApprovalOutcome =
  | { ok: true; session_id: string; decided_at: string; tree: string; human: string; ledger_error: string | null }
  | { ok: false; error: string };

/**
 * Record `human`'s approval of `head` (the commit they were shown) of the
 * agent's branch: refused when the branch moved since, or when roz's store
 * cannot take it (an agent's sandbox: the store is read-only there).
 */
export async function recordHumanApproval(ctx: GateContext, name: string, head: string, human: string, now = new Date()): Promise<ApprovalOutcome> {
  try {
    if (!/^[0-9a-f]{40}$/.test(head)) return { ok: false, error: `${JSON.stringify(head)} is not a commit id` };
    const g = gateAgent(ctx, name);
    if (!isGateAgent(g))
      return { ok: false, error: g.kind === 'no-agent' ? `no agent ${name} here` : 'message' in g ? g.message : `${name} cannot be approved` };
    intakeAt(g.agent.worktree, ctx.storeDir);
    const tip = runGit(g.repo.common, ['rev-parse', '--verify', '-q', `refs/heads/${g.agent.branch}^{commit}`]);
    const at = tip.ok ? tip.stdout.trim() : null;
    if (at !== head)
      return {
        ok: false,
        error: `${g.agent.branch} changed since you saw it (${head.slice(0, 12)} -> ${at?.slice(0, 12) ?? 'gone'}): nothing approved, look again`,
      };
    const tree = approvedTree(ctx, g.repo.common, head);
    const session = sessionsIn(ctx.store, g.agent.worktree)[0]?.session_id ?? null;
    const decidedAt = now.toISOString();
    const summary = `approved by ${human} at a terminal: ${g.agent.branch} at ${head.slice(0, 12)}`;
    try {
      // No session of the agent in roz's store (work done before roz ran it): the approval goes to roz's fleet file.
      if (!session)
        appendHumanApproval(ctx.storeDir, {
          worktree: g.agent.worktree,
          agent: name,
          branch: g.agent.branch,
          commit: head,
          tree,
          human,
          decided_at: decidedAt,
        });
      else
        await ctx.store.update(session, now, (state) => {
          state.review.decision_history.push({ kind: 'complete', summary, decided_at: decidedAt, agent_id: null, tree, human, valid: true });
          return {
            value: undefined,
            trace: [{ ts: decidedAt, event: 'roz:HumanApproval', session_id: session, agent: name, branch: g.agent.branch, commit: head, tree, human }],
          };
        });
    } catch (err) {
      return {
        ok: false,
        error: `roz could not record the approval in its store (${(err as Error).message}); approve from your own terminal, never from an agent's`,
      };
    }
    const dir = baseLedgerDir(g, baseCheckouts(g));
    const record: TraceRecord = {
      version: AGENT_TRACE_VERSION,
      id: randomUuid(),
      timestamp: decidedAt,
      vcs: { type: 'git', revision: head },
      tool: { name: 'roz', version: rozVersion },
      files: [],
      metadata: {
        [ROZ_NAMESPACE]: {
          session_id: session ?? 'none',
          intent_id: 'none',
          mutation_class: 'INTENT_EVOLUTION',
          tool_name: 'roz:human-review',
          decided_by: human,
          approval: { agent: name, branch: g.agent.branch, commit: head, tree },
        },
      },
    };
    let ledgerError: string | null = null;
    try {
      appendLedger(dir, join(dir, LEDGER_PATH), record);
    } catch (err) {
      ledgerError = (err as Error).message;
    }
    return { ok: true, session_id: session ?? '(none)', decided_at: decidedAt, tree, human, ledger_error: ledgerError };
  } catch (err) {
    if (err instanceof FleetError || err instanceof ObjectError) return { ok: false, error: err.message };
    throw err;
  }
}
