// The merge gate as a function that returns a value (core/fleet/merge-result.ts):
// `roz agent merge` prints it and exits with its code, the fleet host's `m`
// reads it as JSON from that same command (supervisor/host/fleet-host.ts). The
// sequence: find the agent, take in its newest objects, gather the branch's
// facts (every object hashed again, store/agent-merge.ts), the pure verdict
// over its reviews (core/fleet/merge-gate.ts), roz's own files on the branch
// (issue 29), the base checkouts clean, the merge in roz's scratch repository,
// the checkouts moved, then the ledger: the agent's records roz wrote and
// this merge's record.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerLineName, ledgerUnion } from '../../core/fleet/ledger-union.js';
import { mergeVerdict, type ReviewedDecision } from '../../core/fleet/merge-gate.js';
import type { MergeResult } from '../../core/fleet/merge-result.js';
import { rozFilesRefusal } from '../../core/fleet/roz-files.js';
import { ROZ_NAMESPACE, traceHeader, type TraceRecord } from '../../core/governance/trace-record.js';
import type { SessionState } from '../../core/session-state.js';
import { rozVersion } from '../../core/version.js';
import { type BranchFacts, branchFacts, LEDGER_PATH, mergeBranch, reviewedForGate, rozFilesOnBranch, treeReader } from '../../store/agent-merge.js';
import { decisionsIn, recordedLedgerLines, sessionsIn } from '../../store/agent-sessions.js';
import { type FleetRepo, listAgents, type ListedAgent, worktrees } from '../../store/agent-worktrees.js';
import type { AgentRecord } from '../../store/agent-registry.js';
import { FleetError } from '../../store/fleet-error.js';
import { type BaseCheckout, humanChanges, updateBaseCheckout } from '../../store/base-checkout.js';
import { ObjectError } from '../../store/git-objects.js';
import { humanApprovalsFor } from '../../store/human-approvals.js';
import { repoOf } from '../../store/git-repo.js';
import { runGit } from '../../store/git.js';
import { appendLedger } from '../../store/ledger.js';
import { intakeAt } from '../../store/object-intake.js';
import { randomUuid } from '../../store/random-uuid.js';
import { appendRegularFile, readOptionalText } from '../../store/regular-file.js';
import type { SessionStore } from '../../store/session-store.js';
import { snapshotRepo } from '../../store/tree-snapshot.js';

/** Where the gate runs: roz's store, its session store, the directory the human ran it in, and who they are. */
export interface GateContext {
  storeDir: string;
  store: SessionStore;
  cwd: string;
  /** The human merging (the commit's author, the ledger's `decided_by`): the OS user of this trusted process. */
  human: string;
}

/** An agent with a branch of its own, as the gate reads it. */
export interface GateAgent {
  repo: FleetRepo;
  listed: ListedAgent;
  agent: AgentRecord & { branch: string; base_ref: string };
  base: string;
}

/** The agent `name`, or the result that says why there is nothing to gate. */
export function gateAgent(ctx: GateContext, name: string): GateAgent | MergeResult {
  const { repo, agents } = listAgents(ctx.storeDir, ctx.cwd);
  const found = agents.find((a) => a.agent.name === name);
  if (!found) return { kind: 'no-agent', agent: name };
  const { agent } = found;
  if (agent.shared || !repo || !agent.branch || !agent.base_ref)
    return { kind: 'failed', agent: name, exit: 2, message: `${name} shares ${agent.worktree} (no branch of its own): there is nothing to merge` };
  if (found.problem) return { kind: 'failed', agent: name, exit: 1, message: `${name}: ${found.problem}` };
  return { repo, listed: found, agent: agent as GateAgent['agent'], base: agent.base_ref.replace('refs/heads/', '') };
}

export const isGateAgent = (v: GateAgent | MergeResult): v is GateAgent => 'listed' in v;

/** The branch's facts after its newest objects (and the base checkout's) were taken in and hashed. */
export function gateFacts(ctx: GateContext, g: GateAgent): BranchFacts {
  intakeAt(g.agent.worktree, ctx.storeDir);
  intakeAt(ctx.cwd, ctx.storeDir);
  return branchFacts(g.repo.common, `refs/heads/${g.agent.branch}`, g.agent.base_ref);
}

/** The approvals and refusals recorded for the agent (reviewer and human), trees as the gate compares them. */
function gateDecisions(storeDir: string, sessions: SessionState[], facts: BranchFacts, worktree: string) {
  // The sessions' decisions (the reviewer's, and a human's recorded there), and a human's recorded without a session.
  const found: ReturnType<typeof decisionsIn> = [...decisionsIn(sessions), ...humanApprovalsFor(storeDir, worktree)].sort((a, b) =>
    a.decided_at.localeCompare(b.decided_at),
  );
  const snap = treeReader(snapshotRepo(storeDir));
  const decisions: ReviewedDecision[] = found.map((d) => {
    if (!d.tree) return d;
    try {
      return { ...d, tree: reviewedForGate(snap, d.tree, facts.branchRead, facts.branchTree) };
    } catch {
      return d; // not in roz's snapshots (a human's approval names the branch's own tree): compared as recorded
    }
  });
  return { found, decisions };
}

/**
 * The agent's working ledger: no link followed at any component (a link
 * there could make roz copy a file the agent's sandbox cannot read into the
 * human's ledger), one hard link only, and only lines that are records with an
 * id (the rest is counted and left behind).
 */
function readAgentLedger(worktree: string): { text: string; dropped: number; refused: string | null } {
  const dir = join(worktree, '.orchestration');
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) return { text: '', dropped: 0, refused: null };
  if (!st.isDirectory()) return { text: '', dropped: 0, refused: `${dir} is not a directory` };
  let fd: number;
  try {
    fd = openSync(join(worktree, LEDGER_PATH), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { text: '', dropped: 0, refused: code === 'ENOENT' ? null : `${join(worktree, LEDGER_PATH)}: ${code === 'ELOOP' ? 'a symbolic link' : code}` };
  }
  try {
    const f = fstatSync(fd);
    if (!f.isFile() || f.nlink !== 1) return { text: '', dropped: 0, refused: `${join(worktree, LEDGER_PATH)} is not a plain file with one link` };
    const raw = readFileSync(fd, 'utf8');
    let dropped = 0;
    const kept = raw.split('\n').filter((l) => {
      if (l.trim() === '') return false;
      try {
        const v = JSON.parse(l) as { id?: unknown };
        if (v && typeof v === 'object' && typeof v.id === 'string') return true;
      } catch {
        /* not a record */
      }
      dropped++;
      return false;
    });
    return { text: kept.length ? `${kept.join('\n')}\n` : '', dropped, refused: null };
  } finally {
    closeSync(fd);
  }
}

/** The checkouts of the base branch (normally the human's main checkout): they move with it, so they must be clean. */
export function baseCheckouts(g: GateAgent): BaseCheckout[] {
  return worktrees(g.repo.common)
    .filter((w) => w.branch === g.agent.base_ref && !w.bare)
    .map((w) => {
      const id = repoOf(w.path);
      if (!id.ok) throw new FleetError(`cannot read the checkout ${w.path} of ${g.base}: ${'error' in id ? id.error : 'no repository'}`);
      return { path: w.path, git: { gitDir: id.id.git_dir, workTree: w.path } };
    });
}

/** The ledger of the base: the first checkout of the base branch, else the main checkout. */
export const baseLedgerDir = (g: GateAgent, checkouts: BaseCheckout[]): string => checkouts[0]?.path ?? g.repo.mainTop ?? g.agent.worktree;

/** `roz agent merge NAME`: the gate's verdict and, when it allows, the merge. Never throws for what the human should read. */
export function mergeAgent(ctx: GateContext, name: string): MergeResult {
  try {
    return mergeGated(ctx, name);
  } catch (err) {
    if (err instanceof FleetError)
      return err.exitCode === 3 ? { kind: 'no-agent', agent: name } : { kind: 'failed', agent: name, message: err.message, exit: err.exitCode };
    if (err instanceof ObjectError) return { kind: 'failed', agent: name, message: err.message, exit: 1 };
    throw err;
  }
}

/** The gate's answer on the branch as it is now: what was approved (reviewer or human) and the facts, or the result that refuses. */
export interface GateOpen {
  g: GateAgent;
  facts: BranchFacts;
  sessions: SessionState[];
  recorded: Set<string>;
  decision: ReturnType<typeof decisionsIn>[number];
  /** The approved tree, as the gate compares it. */
  tree: string;
}

/**
 * The gate, short of moving anything: the agent, its facts, the verdict over its
 * reviews and human approvals, roz's own files on the branch. Used by the merge
 * and by `agent push`: only an approved, unchanged tree goes on.
 */
export function openGate(ctx: GateContext, name: string, opts: { push?: boolean } = {}): GateOpen | MergeResult {
  const g = gateAgent(ctx, name);
  if (!isGateAgent(g)) return g;
  const { agent, repo, base } = g;
  const facts = gateFacts(ctx, g);
  const sessions = sessionsIn(ctx.store, agent.worktree);
  const { found, decisions } = gateDecisions(ctx.storeDir, sessions, facts, agent.worktree);
  // A push takes the branch even when the base already holds it (merged first, pushed after): the approval still decides.
  const verdict = mergeVerdict(name, {
    decisions,
    branchTree: facts.branchTreeForGate,
    branchHead: facts.branchHead,
    baseHead: opts.push ? '' : facts.baseHead,
    alreadyMerged: opts.push ? false : facts.alreadyMerged,
  });
  if (!verdict.ok && verdict.code === 'nothing-to-merge') return { kind: 'nothing', agent: name, why: verdict.why };
  const refused = { kind: 'refused' as const, agent: name, branch: agent.branch, base, worktree: agent.worktree, session: sessions[0]?.session_id ?? null };
  // roz's own files: never from the branch (intents, lessons, the map), the ledger only as records roz wrote
  // (issue 29). Checked before the review: no new review can make the branch's copies mergeable.
  const recorded = recordedLedgerLines(ctx.store, sessions);
  const rozFiles = rozFilesRefusal(name, agent.branch, rozFilesOnBranch(repo.common, facts, recorded));
  if (rozFiles) return { ...refused, code: 'roz-files', why: rozFiles };
  if (!verdict.ok) return { ...refused, code: verdict.code, why: verdict.why };
  return { g, facts, sessions, recorded, decision: found.at(-1)!, tree: verdict.tree };
}

export const isGateOpen = (v: GateOpen | MergeResult): v is GateOpen => 'facts' in v;

function mergeGated(ctx: GateContext, name: string): MergeResult {
  const open = openGate(ctx, name);
  if (!isGateOpen(open)) return open;
  const { g, facts, sessions, recorded, decision } = open;
  const { agent, repo, base } = g;
  const verdict = { tree: open.tree };

  const checkouts = baseCheckouts(g);
  for (const co of checkouts) {
    // The ledger is left out: records hooks appended there are roz's to merge (store/base-checkout.ts), not the human's edits.
    const dirty = humanChanges(co);
    if (dirty) return { kind: 'dirty-base', agent: name, base, checkout: co.path, files: dirty };
  }

  const by = decision.human ? `approved by ${decision.human} ${decision.decided_at}` : `review approved ${decision.decided_at}`;
  const out = mergeBranch({
    storeDir: ctx.storeDir,
    common: repo.common,
    commonDir: repo.commonDir,
    baseRef: agent.base_ref,
    facts,
    human: ctx.human,
    recorded,
    message: `Merge ${agent.branch} into ${base} (roz agent merge ${name}: ${by}, tree ${verdict.tree.slice(0, 12)})`,
  });
  if (!out.ok) {
    if ('conflict' in out) return { kind: 'conflict', agent: name, branch: agent.branch, base, paths: out.conflict };
    return { kind: 'failed', agent: name, exit: 1, message: `${out.error}; nothing was merged` };
  }

  // Bring each checkout of the base up to the new commit, filters off; undo the move if one cannot follow.
  for (const co of checkouts) {
    const r = updateBaseCheckout(co, facts.baseHead, out.commit);
    if (!r.ok) {
      const back = runGit(repo.common, ['update-ref', agent.base_ref, facts.baseHead, out.commit]);
      return {
        kind: 'failed',
        agent: name,
        exit: 1,
        message: `could not update the checkout ${co.path} (${r.error}); ${back.ok ? `${base} was put back where it was` : `and could not put ${base} back (${back.error}): it is at ${out.commit}`}`,
      };
    }
  }

  // The ledger: the agent's records its base checkout lacks, then this merge's record.
  const target = baseLedgerDir(g, checkouts);
  const ledgerFile = join(target, LEDGER_PATH);
  const baseText = readOptionalText(ledgerFile, 1024 * 1024 * 1024) ?? '';
  const branch = readAgentLedger(agent.worktree);
  // Only the records roz wrote in the agent's sessions; the rest of its working ledger is left behind, and said.
  const union = ledgerUnion(baseText, branch.text, recorded);
  const baseLines = baseText.split('\n').filter((l) => l.trim() !== '').length;
  const added = union.text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(baseLines);
  const sep = baseText !== '' && !baseText.endsWith('\n') ? '\n' : '';
  if (added.length > 0) appendRegularFile(target, ledgerFile, `${sep}${added.join('\n')}\n`);
  const intent = (sessions.find((s) => s.session_id === decision.session_id)?.governance as { intent_id?: unknown } | undefined)?.intent_id;
  const review = {
    decision: 'COMPLETE' as const,
    ...(decision.human ? { by: 'human' as const, human: decision.human } : {}),
    decided_at: decision.decided_at,
    session_id: decision.session_id,
    summary: decision.summary,
  };
  const record: TraceRecord = {
    ...traceHeader(randomUuid(), new Date(), out.commit, rozVersion),
    files: [],
    metadata: {
      [ROZ_NAMESPACE]: {
        session_id: decision.session_id,
        intent_id: typeof intent === 'string' && intent ? intent : 'none',
        mutation_class: 'INTENT_EVOLUTION',
        tool_name: 'roz:merge',
        decided_by: ctx.human,
        merge: {
          agent: name,
          branch: agent.branch,
          base,
          strategy: out.strategy,
          commit: out.commit,
          tree: out.tree,
          reviewed_tree: verdict.tree,
          review,
          ledger_records: added.length,
        },
      },
    },
  };
  let ledgerError: string | null = null;
  try {
    appendLedger(target, ledgerFile, record);
  } catch (err) {
    ledgerError = (err as Error).message;
  }
  return {
    kind: 'merged',
    agent: name,
    branch: agent.branch,
    base,
    strategy: out.strategy,
    from: facts.baseHead,
    commit: out.commit,
    tree: out.tree,
    review: {
      by: decision.human ? 'human' : 'reviewer',
      decided_at: decision.decided_at,
      session_id: decision.session_id,
      summary: decision.summary,
      ...(decision.human ? { human: decision.human } : {}),
    },
    checked: facts.checked,
    ledger: { file: ledgerFile, added: added.length, in_tree: out.ledgerInTree, error: ledgerError },
    agent_ledger: { refused: branch.refused, dropped: branch.dropped, unverified: union.unverified.map(ledgerLineName) },
    checkouts: checkouts.map((co) => co.path),
  };
}
