// `roz agent add|ls|rm`: agents in worktrees of their own (docs/fleet.md; the merge
// gate, merge and push, is commands/agent-merge.ts). The supervisor side (running several agents under one roz)
// is the fleet host (supervisor/host/fleet-host.ts): `add` creates the worktree and
// branch, and asks a supervisor running for this project to start it
// (cli/commands/queue.ts), else says how.
import { FIRST_AGENT } from '../../core/fleet/agent-name.js';
import { firstPromptArgs } from '../../core/client-commands.js';
import { CLIENT_IDS, parseClientId } from '../../core/clients.js';
import { aheadBehind, plusMinus } from '../../core/fleet/work-diff.js';
import { agentWhere } from '../../core/fleet/agent-where.js';
import type { SessionState } from '../../core/session-state.js';
import { addAgentWork } from '../../engine/fleet/agent-add.js';
import { lockRegistry } from '../../store/agent-registry.js';
import { sessionsByProject } from '../../store/agent-sessions.js';
import { listAgents, removeAgent, type ListedAgent } from '../../store/agent-worktrees.js';
import { FleetError } from '../../store/fleet-error.js';
import { ObjectError } from '../../store/git-objects.js';
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

/** `roz agent add`: the value from engine/fleet/agent-add.ts, printed (or as JSON with --json). */
export async function agentAddCommand(
  name: string,
  claudeArgs: string[],
  opts: { from?: string; worktree?: boolean; prompt?: string; start?: boolean; json?: boolean; agent?: string },
): Promise<number> {
  const client = opts.agent === undefined ? 'claude' : parseClientId(opts.agent);
  if (!client) {
    process.stderr.write(`roz: --agent ${JSON.stringify(opts.agent)}: the clients are ${CLIENT_IDS.join(', ')}\n`);
    return 2;
  }
  const ctx = cliContext();
  const r = await addAgentWork({
    storeDir: ctx.config.storage.path,
    cwd: process.cwd(),
    name,
    ...(opts.from !== undefined ? { from: opts.from } : {}),
    noWorktree: opts.worktree === false,
    configuredDir: ctx.config.fleet.worktree_dir,
    ...(opts.prompt !== undefined ? { prompt: opts.prompt } : {}),
    claudeArgs,
    client,
    now: new Date(),
  });
  if (r.kind === 'refused') {
    if (opts.json) printJson(r);
    else process.stderr.write(`roz: ${r.reason}\n`);
    return r.exit;
  }
  // A supervisor running for this project starts it (unless --no-start: the fleet host's own `n`
  // starts it itself); otherwise say how.
  const { askToStart } = await import('./queue.js');
  // The supervisor launches Claude Code, Codex and Gemini agents (docs/clients.md); a Gemini agent (never confined)
  // only under a supervisor whose agents are not confined either: refused with the reason otherwise.
  const started =
    opts.start === false ? null : await askToStart(r.name).catch((err: Error) => ({ ok: false as const, code: 'failed' as const, message: err.message }));
  if (opts.json) {
    printJson({ ...r, ...(started ? { started: { ok: started.ok, message: started.message } } : {}) });
    return 0;
  }
  const args = [...claudeArgs, ...(r.prompt ? firstPromptArgs(client, r.prompt) : [])].map(sh).join(' ');
  if (r.shared) process.stdout.write(`agent ${r.name}: in ${r.worktree}\n${c.yellow(`note: ${r.note}`)}\n`);
  else process.stdout.write(`agent ${r.name}: worktree ${r.worktree}\n  branch ${r.branch}, from ${r.base} at ${r.base_commit?.slice(0, 12)}\n`);
  if (started?.ok) process.stdout.write(`the running supervisor started it: ${started.message}\n`);
  else {
    if (started) process.stdout.write(c.yellow(`the running supervisor did not start it: ${started.message}\n`));
    process.stdout.write(`start it:  cd ${sh(r.worktree)} && roz run${args ? ` -- ${client} ${args}` : ` ${client}`}\n`);
    process.stdout.write(`  or in the roz run of this checkout: ${'Ctrl-]'} 6 (agents), n, ${r.name}, ⏎\n`);
  }
  if (!r.shared) process.stdout.write(`merge it, once its work is reviewed and approved:  roz agent merge ${r.name}\n`);
  return 0;
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
          where: a.where ?? agentWhere(null, name === FIRST_AGENT),
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
  const release = await lockRegistry(ctx.config.storage.path);
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
