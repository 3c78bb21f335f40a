// `roz agent add|ls|rm|merge`: agents in worktrees of their own, and the merge
// gate that lets only reviewed work into the branch an agent started from
// (docs/fleet.md). The supervisor side (running several agents under one roz)
// is the fleet host (supervisor/fleet-host.ts): `add` creates the worktree and
// branch, and asks a supervisor running for this project to start it
// (cli/commands/queue.ts), else says how.
import { CLIENT_IDS, clientById, parseClientId } from '../../core/clients.js';
import { intakeAt } from '../../store/object-intake.js';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { ledgerLineName, ledgerUnion } from '../../core/fleet/ledger-union.js';
import { aheadBehind, plusMinus } from '../../core/fleet/work-diff.js';
import { agentWhere } from '../../core/fleet/agent-where.js';
import { mergeVerdict, type ReviewedDecision } from '../../core/fleet/merge-gate.js';
import { AGENT_TRACE_VERSION, ROZ_NAMESPACE, type TraceRecord } from '../../core/governance/trace-record.js';
import type { SessionState } from '../../core/session-state.js';
import { rozVersion } from '../../core/version.js';
import { rozFilesRefusal } from '../../core/fleet/roz-files.js';
import { branchFacts, LEDGER_PATH, mergeBranch, reviewedForGate, rozFilesOnBranch, treeReader } from '../../store/agent-merge.js';
import { decisionsIn, recordedLedgerLines, sessionsByProject, sessionsIn } from '../../store/agent-sessions.js';
import { addAgent, FleetError, listAgents, removeAgent, worktrees, type ListedAgent } from '../../store/agent-worktrees.js';
import { humanChanges, updateBaseCheckout } from '../../store/base-checkout.js';
import { ObjectError } from '../../store/git-objects.js';
import { runGit } from '../../store/git.js';
import { repoOf } from '../../store/git-repo.js';
import { acquireLock } from '../../store/lock.js';
import { appendLedger } from '../../store/ledger.js';
import { randomUuid } from '../../store/random-uuid.js';
import { appendRegularFile, readOptionalText } from '../../store/regular-file.js';
import { snapshotRepo } from '../../store/tree-snapshot.js';
import { c, cliContext, printJson, table } from '../context.js';
import { everyAgentsWork } from './agent-diff.js';

const fail = (err: unknown): number => {
  if (err instanceof FleetError) {
    process.stderr.write(`roz: ${err.message}\n`);
    return err.exitCode;
  }
  if (err instanceof ObjectError) {
    process.stderr.write(`roz: ${err.message}\n`);
    return 1;
  }
  throw err;
};

/** A word for the shell: quoted unless it is plainly safe. */
const sh = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** One `add` or `rm` at a time per store: each reads the registry, changes git, and writes the registry back. */
async function registryLock(storeDir: string): Promise<() => void> {
  mkdirSync(join(storeDir, 'fleet'), { recursive: true, mode: 0o700 });
  return acquireLock(join(storeDir, 'fleet', 'registry'), { staleMs: 300_000, refreshMs: null, waitMs: 30_000 });
}

export async function agentAddCommand(
  name: string,
  claudeArgs: string[],
  opts: { from?: string; worktree?: boolean; prompt?: string; start?: boolean; agent?: string },
): Promise<number> {
  const client = opts.agent === undefined ? 'claude' : parseClientId(opts.agent);
  if (!client) {
    process.stderr.write(`roz: --agent ${JSON.stringify(opts.agent)}: the clients are ${CLIENT_IDS.join(', ')}\n`);
    return 2;
  }
  const ctx = cliContext();
  const release = await registryLock(ctx.config.storage.path);
  try {
    const { agent, note } = addAgent(ctx.config.storage.path, process.cwd(), {
      name,
      ...(opts.from !== undefined ? { from: opts.from } : {}),
      noWorktree: opts.worktree === false,
      configuredDir: ctx.config.fleet.worktree_dir,
      ...(opts.prompt !== undefined ? { prompt: opts.prompt } : {}),
      claudeArgs,
      client,
      now: new Date(),
    });
    const args = [...claudeArgs, ...(agent.prompt ? [agent.prompt] : [])].map(sh).join(' ');
    if (agent.shared) process.stdout.write(`agent ${agent.name}: in ${agent.worktree}\n${c.yellow(`note: ${note}`)}\n`);
    else
      process.stdout.write(
        `agent ${agent.name}: worktree ${agent.worktree}\n  branch ${agent.branch}, from ${agent.base_ref?.replace('refs/heads/', '')} at ${agent.base_commit?.slice(0, 12)}\n`,
      );
    // A supervisor running for this project starts it (unless --no-start: the fleet host's own `n`
    // starts it itself); otherwise say how.
    const { askToStart } = await import('./queue.js');
    // The supervisor launches Claude Code agents only (docs/clients.md): it is not asked to start another client.
    const started =
      opts.start === false || client !== 'claude'
        ? null
        : await askToStart(agent.name).catch((err: Error) => ({ ok: false as const, code: 'failed' as const, message: err.message }));
    if (started?.ok) process.stdout.write(`the running supervisor started it: ${started.message}\n`);
    else {
      if (started) process.stdout.write(c.yellow(`the running supervisor did not start it: ${started.message}\n`));
      if (client === 'claude') {
        process.stdout.write(`start it:  cd ${sh(agent.worktree)} && roz run${args ? ` -- claude ${args}` : ' claude'}\n`);
        process.stdout.write(`  or in the roz run of this checkout: ${'Ctrl-]'} 6 (agents), n, ${agent.name}, ⏎\n`);
      }
      // `roz run codex` and a fleet of mixed clients are not built yet (docs/clients.md): only `roz exec -- codex exec`.
      else
        process.stdout.write(
          `start it:  cd ${sh(agent.worktree)} && roz exec -- ${client === 'codex' ? 'codex exec' : client}${args ? ` ${args}` : ''}\n  (a ${clientById(client).label} agent: the supervisor does not start it yet)\n`,
        );
    }
    if (!agent.shared) process.stdout.write(`merge it, once its work is reviewed and approved:  roz agent merge ${agent.name}\n`);
    return 0;
  } catch (err) {
    return fail(err);
  } finally {
    release();
  }
}

export interface AgentRow {
  name: string;
  branch: string | null;
  worktree: string;
  base: string | null;
  head: string | null;
  shared: boolean;
  /** Its branch, or where it works without one: `(base checkout)` for `main`, `(shared)` (core/fleet/agent-where.ts). */
  where: string;
  /** What roz's store knows of the newest session in that worktree: `not running` without an open one. */
  state: string;
  /** Requests waiting for the human, from the running supervisor (0 when none runs). */
  pending: number;
  /** That session's review status (`off`, `pending`, `blocked`, `approved`, `issues`), or `none`. */
  review: string;
  enforcement: string | null;
  session: string | null;
  problem: string | null;
  /** What `add` recorded for starting it: its first prompt and its claude arguments. */
  prompt: string | null;
  claude_args: string[];
  /** The coding client it runs (core/clients.ts). */
  client: string;
  /** Its work against its base commit (store/agent-diff.ts): lines added/removed, files, commits ahead/behind; null without a branch of its own, or when it cannot be read (`work_error`). */
  added: number | null;
  removed: number | null;
  files: number | null;
  ahead: number | null;
  behind: number | null;
  work_error?: string;
}

const NO_WORK = { added: null, removed: null, files: null, ahead: null, behind: null } as const;

/** `+N −M ↑A ↓B`, or `-`. */
const workCell = (r: AgentRow): string =>
  r.added === null
    ? r.work_error
      ? '?'
      : '-'
    : `${plusMinus({ added: r.added, removed: r.removed ?? 0 })} ${aheadBehind({ ahead: r.ahead ?? 0, behind: r.behind ?? 0 })}`;

/** Whether a process runs under this pid (EPERM: someone's, so not a supervisor of ours). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function agentRow(l: ListedAgent, sessions: SessionState[]): AgentRow {
  const s = sessions[0] ?? null;
  return {
    name: l.agent.name,
    branch: l.agent.branch,
    worktree: l.agent.worktree,
    base: l.agent.base_ref?.replace('refs/heads/', '') ?? null,
    head: l.head,
    shared: l.agent.shared,
    where: agentWhere(l.agent.branch, false),
    state: !s || s.ended_at ? 'not running' : s.supervisor_pid !== undefined && !alive(s.supervisor_pid) ? 'exited (its supervisor is gone)' : 'running',
    pending: 0,
    review: !s ? 'none' : s.review.enabled || s.review.status !== 'idle' ? s.review.status : 'off',
    enforcement: s?.enforcement?.mode ?? null,
    session: s?.session_id ?? null,
    problem: l.problem,
    prompt: l.agent.prompt ?? null,
    claude_args: l.agent.claude_args ?? [],
    client: l.agent.client ?? 'claude',
    ...NO_WORK,
  };
}

export async function agentLsCommand(opts: { json?: boolean }): Promise<number> {
  const ctx = cliContext();
  try {
    const { agents } = listAgents(ctx.config.storage.path, process.cwd());
    const byProject = sessionsByProject(ctx.store);
    const rows = agents.map((l) => agentRow(l, byProject.get(l.agent.worktree) ?? []));
    // Each agent's work, counted by roz's own hashing (no patch).
    for (const w of everyAgentsWork(ctx.config.storage.path, process.cwd(), false)) {
      const r = rows.find((x) => x.name === w.agent);
      if (!r) continue;
      if ('error' in w) r.work_error = w.error;
      else Object.assign(r, { added: w.added, removed: w.removed, files: w.files, ahead: w.ahead, behind: w.behind });
    }
    // The running supervisor knows what the store cannot: each agent's live state and its waiting requests.
    const { liveAgents } = await import('./queue.js');
    const live = await liveAgents().catch(() => null);
    if (live) {
      for (const r of rows) {
        const a = live.get(r.name);
        if (a)
          Object.assign(r, {
            state: a.state,
            pending: a.pending,
            ...(a.session ? { session: a.session } : {}),
            ...(a.enforcement ? { enforcement: a.enforcement } : {}),
          });
      }
      // An agent the supervisor runs that roz agent add did not create (`main`, where roz run started): listed too.
      for (const [name, a] of live) {
        if (rows.some((r) => r.name === name)) continue;
        let s: SessionState | null = null;
        try {
          s = a.session ? ctx.store.read(a.session) : null;
        } catch {
          /* unreadable state: listed without review and mode */
        }
        rows.push({
          name,
          branch: null,
          worktree: a.cwd,
          base: null,
          head: null,
          shared: true,
          where: a.where ?? agentWhere(null, name === 'main'),
          state: a.state,
          pending: a.pending,
          review: !s ? 'none' : s.review.enabled || s.review.status !== 'idle' ? s.review.status : 'off',
          enforcement: a.enforcement ?? s?.enforcement?.mode ?? null,
          session: a.session,
          problem: null,
          prompt: null,
          claude_args: [],
          client: 'claude',
          ...NO_WORK,
        });
      }
    }
    if (opts.json) {
      printJson(rows);
      return 0;
    }
    if (rows.length === 0) {
      process.stdout.write('no agents here yet: roz agent add NAME\n');
      return 0;
    }
    process.stdout.write(
      `${table([
        ['AGENT', 'BRANCH', 'STATE', 'PENDING', 'REVIEW', 'MODE', 'WORK', 'WORKTREE'],
        ...rows.map((r) => [r.name, r.where, r.state, String(r.pending), r.review, r.enforcement ?? '-', workCell(r), r.worktree]),
      ])}\n`,
    );
    for (const r of rows) if (r.problem) process.stdout.write(c.yellow(`${r.name}: ${r.problem}\n`));
    for (const r of rows) if (r.work_error && !r.problem) process.stdout.write(c.yellow(`${r.name}: its work cannot be read: ${r.work_error}\n`));
    return 0;
  } catch (err) {
    return fail(err);
  }
}

export async function agentRmCommand(name: string, opts: { discard?: boolean }): Promise<number> {
  const ctx = cliContext();
  const release = await registryLock(ctx.config.storage.path);
  try {
    const r = removeAgent(ctx.config.storage.path, process.cwd(), name, opts.discard === true);
    for (const line of r.said) process.stdout.write(`${line}\n`);
    return 0;
  } catch (err) {
    return fail(err);
  } finally {
    release();
  }
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

/** Exit codes of `roz agent merge`: 0 merged (or nothing to merge), 5 refused by the gate, 6 a conflict, 4 the base checkout has changes, 1 anything else. */
export const MERGE_REFUSED = 5;
export const MERGE_CONFLICT = 6;

export function agentMergeCommand(name: string): number {
  const ctx = cliContext();
  const storeDir = ctx.config.storage.path;
  try {
    const { repo, agents } = listAgents(storeDir, process.cwd());
    const found = agents.find((a) => a.agent.name === name);
    if (!found) throw new FleetError(`no agent ${name} here (roz agent ls)`, 3);
    const { agent } = found;
    if (agent.shared || !repo || !agent.branch || !agent.base_ref)
      throw new FleetError(`${name} shares ${agent.worktree} (no branch of its own): there is nothing to merge`, 2);
    if (found.problem) throw new FleetError(`${name}: ${found.problem}`);

    // The agent's last objects and the base checkout's, hashed and taken in first (store/object-intake.ts).
    intakeAt(agent.worktree, storeDir);
    intakeAt(process.cwd(), storeDir);
    const facts = branchFacts(repo.common, `refs/heads/${agent.branch}`, agent.base_ref);
    const sessions = sessionsIn(ctx.store, agent.worktree);
    const found_decisions = decisionsIn(sessions);
    // The trees the reviews saw, from roz's own snapshot repository, as the gate compares them (store/agent-merge.ts reviewedForGate).
    const snap = treeReader(snapshotRepo(storeDir));
    const decisions: ReviewedDecision[] = found_decisions.map((d) => {
      if (!d.tree) return d;
      try {
        return { ...d, tree: reviewedForGate(snap, d.tree, facts.branchRead, facts.branchTree) };
      } catch {
        return d; // not in roz's snapshots: compared as recorded
      }
    });
    const verdict = mergeVerdict(name, {
      decisions,
      branchTree: facts.branchTreeForGate,
      branchHead: facts.branchHead,
      baseHead: facts.baseHead,
      alreadyMerged: facts.alreadyMerged,
    });
    const base = agent.base_ref.replace('refs/heads/', '');
    if (!verdict.ok && verdict.code === 'nothing-to-merge') {
      process.stdout.write(`${verdict.why}\n`);
      return 0;
    }
    // roz's own files: never from the branch (intents, lessons, the map), the ledger only as records roz wrote
    // (issue 29). Checked before the review: no new review can make the branch's copies mergeable.
    const recorded = recordedLedgerLines(ctx.store, sessions);
    const refusal = rozFilesRefusal(name, agent.branch, rozFilesOnBranch(repo.common, facts, recorded));
    if (refusal) {
      process.stderr.write(`roz: refused to merge ${agent.branch} into ${base}: ${refusal}\n`);
      return MERGE_REFUSED;
    }
    if (!verdict.ok) {
      const session = sessions[0]?.session_id;
      process.stderr.write(
        `roz: refused to merge ${agent.branch} into ${base}: ${verdict.why}\n` +
          `To ask for a review: in ${name}'s session (cd ${sh(agent.worktree)}${session ? `, session ${session}` : ''}), commit the work and send a prompt starting with #roz,\n` +
          `e.g. "#roz review the work on ${agent.branch} for merging"; roz merges once the reviewer approves exactly what the branch holds.\n`,
      );
      return MERGE_REFUSED;
    }
    const decision = found_decisions.at(-1)!;

    // The checkouts of the base branch (normally the human's main checkout): they move with it, so they must be clean.
    const checkouts = worktrees(repo.common)
      .filter((w) => w.branch === agent.base_ref && !w.bare)
      .map((w) => {
        const id = repoOf(w.path);
        if (!id.ok) throw new FleetError(`cannot read the checkout ${w.path} of ${base}: ${'error' in id ? id.error : 'no repository'}`);
        return { path: w.path, git: { gitDir: id.id.git_dir, workTree: w.path } };
      });
    for (const co of checkouts) {
      // The ledger is left out: records hooks appended there are roz's to merge (store/base-checkout.ts), not the human's edits.
      const dirty = humanChanges(co);
      if (dirty)
        throw new FleetError(
          `${base} is checked out in ${co.path} with uncommitted changes (${dirty.slice(0, 5).join(', ')}${dirty.length > 5 ? ', …' : ''}): commit or stash them first; nothing was merged`,
          4,
        );
    }

    const human = userInfo().username;
    const out = mergeBranch({
      storeDir,
      common: repo.common,
      commonDir: repo.commonDir,
      baseRef: agent.base_ref,
      facts,
      human,
      recorded,
      message: `Merge ${agent.branch} into ${base} (roz agent merge ${name}: review approved ${decision.decided_at}, tree ${verdict.tree.slice(0, 12)})`,
    });
    if (!out.ok) {
      if ('conflict' in out) {
        process.stderr.write(
          `roz: ${agent.branch} does not merge cleanly into ${base}; nothing moved. Conflicting paths:\n${out.conflict.map((p) => `  ${p}`).join('\n')}\nResolve them on the branch (in ${name}'s worktree), get that reviewed, and merge again.\n`,
        );
        return MERGE_CONFLICT;
      }
      throw new FleetError(`${out.error}; nothing was merged`);
    }

    // Bring each checkout of the base up to the new commit, filters off; undo the move if one cannot follow.
    for (const co of checkouts) {
      const r = updateBaseCheckout(co, facts.baseHead, out.commit);
      if (!r.ok) {
        const back = runGit(repo.common, ['update-ref', agent.base_ref, facts.baseHead, out.commit]);
        throw new FleetError(
          `could not update the checkout ${co.path} (${r.error}); ${back.ok ? `${base} was put back where it was` : `and could not put ${base} back (${back.error}): it is at ${out.commit}`}`,
        );
      }
    }

    // The ledger: the agent's records its base checkout lacks, then this merge's record.
    const target = checkouts[0]?.path ?? repo.mainTop ?? agent.worktree;
    const ledgerFile = join(target, LEDGER_PATH);
    const baseText = readOptionalText(ledgerFile, 1024 * 1024 * 1024) ?? '';
    const branch = readAgentLedger(agent.worktree);
    const branchText = branch.text;
    // Only the records roz wrote in the agent's sessions; the rest of its working ledger is left behind, and said.
    const union = ledgerUnion(baseText, branchText, recorded);
    const baseLines = baseText.split('\n').filter((l) => l.trim() !== '').length;
    const added = union.text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(baseLines);
    const sep = baseText !== '' && !baseText.endsWith('\n') ? '\n' : '';
    if (added.length > 0) appendRegularFile(target, ledgerFile, `${sep}${added.join('\n')}\n`);
    const intent = (sessions.find((s) => s.session_id === decision.session_id)?.governance as { intent_id?: unknown } | undefined)?.intent_id;
    const record: TraceRecord = {
      version: AGENT_TRACE_VERSION,
      id: randomUuid(),
      timestamp: new Date().toISOString(),
      vcs: { type: 'git', revision: out.commit },
      tool: { name: 'roz', version: rozVersion },
      files: [],
      metadata: {
        [ROZ_NAMESPACE]: {
          session_id: decision.session_id,
          intent_id: typeof intent === 'string' && intent ? intent : 'none',
          mutation_class: 'INTENT_EVOLUTION',
          tool_name: 'roz:merge',
          decided_by: human,
          merge: {
            agent: name,
            branch: agent.branch,
            base,
            strategy: out.strategy,
            commit: out.commit,
            tree: out.tree,
            reviewed_tree: verdict.tree,
            review: { decision: 'COMPLETE', decided_at: decision.decided_at, session_id: decision.session_id, summary: decision.summary },
            ledger_records: added.length,
          },
        },
      },
    };
    let ledgerNote = '';
    try {
      appendLedger(target, ledgerFile, record);
    } catch (err) {
      ledgerNote = c.yellow(`\nwarning: the merge is done but its ledger record could not be written to ${ledgerFile}: ${(err as Error).message}`);
    }
    process.stdout.write(
      `merged ${agent.branch} into ${base} (${out.strategy}): ${facts.baseHead.slice(0, 12)} -> ${out.commit.slice(0, 12)}\n` +
        `  review approved ${decision.decided_at} (session ${decision.session_id}): "${decision.summary}"\n` +
        `  tree ${out.tree}; ${facts.checked} objects of the branch verified by roz\n` +
        `  ledger: ${added.length} record(s) of ${name} brought into ${ledgerFile}${out.ledgerInTree ? ' (and the tracked ledger merged by roz)' : ''}, plus this merge's record${ledgerNote}\n` +
        (branch.refused ? c.yellow(`  warning: ${name}'s working ledger was not read (${branch.refused})\n`) : '') +
        (branch.dropped > 0 ? c.yellow(`  warning: ${branch.dropped} line(s) of ${name}'s working ledger are not records; left behind\n`) : '') +
        (union.unverified.length > 0
          ? c.yellow(
              `  warning: ${union.unverified.length} record(s) of ${name}'s working ledger were not written by roz in ${name}'s sessions (${union.unverified
                .slice(0, 3)
                .map(ledgerLineName)
                .join(', ')}${union.unverified.length > 3 ? ', …' : ''}); left behind\n`,
            )
          : '') +
        (checkouts.length > 0 ? `  updated the checkout ${checkouts.map((co) => co.path).join(', ')}\n` : ''),
    );
    return 0;
  } catch (err) {
    return fail(err);
  }
}
