// The review gate as one policy: each hook event in, a verdict out, the
// session state updated in place. Pure: time, randomness, templates, shell
// analysis and store checks come in through the context.
import type { HookInput } from '../hook-input.js';
import type { RozConfig } from '../config.js';
import { result, type PolicyResult, type TraceNote, type Verdict } from '../verdict.js';
import { breakerOpen, shouldTrip, trip } from './breaker.js';
import { consumeApproval, isGateApproved, matchGate } from './gates.js';
import { chooseTemplate, renderBlockMessage } from './templates.js';
import { recordDecision } from './decide.js';
import { DECIDE_USAGE, parseDecideArgs } from './decide-args.js';
import { endReviewer, onTaskNotification, proofOfLife, settleReviewers, stoppedTaskId } from './reviewer-life.js';
import { approvedMessage, pendingSummary } from './outcome.js';
import type { SessionState } from '../session-state.js';
import { namedFiles, noteSeen, noteUnseenWrites, projectFiles, unseenChanges, unseenSentence, WRITTEN_DURING_REVIEW } from './seen-tree.js';
import type { RozFilesOffDisk } from './roz-files-text.js';
import { currentAttempt, isReviewer, REVIEWER_AGENT_TYPE, type ReviewerRun, type ReviewTrigger, type TreeSnapshot } from './state.js';
import { FILE_TOOLS } from '../file-tools.js';
import { launchedReviewAgain, reviewerWriteRefusal } from './launched-reviewer.js';

/** The parsed view of a Bash command that policies need (see core/shell). */
export interface ShellView {
  /** Effective argv of every simple command that could run, wrappers unwrapped. */
  argvs(): string[][];
  /** The same commands joined by spaces, for glob matching. */
  normalized(): string[];
  /** The argv when the line is exactly one plain simple command (nothing chained, redirected or substituted), else null. */
  alone(): string[] | null;
  /** Paths the command may write, and whether it writes somewhere the parser cannot name. */
  writes(): { targets: string[]; unknown: boolean };
}

export interface ReviewContext {
  now: Date;
  config: RozConfig;
  rng: () => number;
  loadTemplate: (id: string) => string | null;
  shell: (command: string) => ShellView;
  /** True when the tool call would write inside roz's own store. */
  writesStore: () => boolean;
  /** The session's worktree now (git), or null outside git or on failure. Costs a few git calls: only where a review needs it. */
  snapshot: () => TreeSnapshot | null;
  /** Why the last snapshot() was null, when it could not be taken (null: no repository to snapshot). */
  snapshotProblem?: () => string | null;
  /** Paths that differ between two trees, or null when git cannot say. */
  changedFiles: (from: string, to: string) => string[] | null;
  /** roz's own files a commit since `base` holds otherwise than the disk (issue 29), or null: none, or git cannot say. */
  rozFilesOffDisk?: (base: string) => RozFilesOffDisk | null;
  /**
   * The agent is reviewed by a reviewer roz starts itself (launched-reviewer.ts), not a subagent it spawns:
   * that client's label, and at a Stop that needs a review (`start`) the new run's id (its own session id).
   */
  launch?: { client: string; label: string; start: boolean; runId: () => string };
}

/** roz's files committed otherwise than on disk since the review's base commit (a commit by git plumbing), or null. */
const offDisk = (state: SessionState, ctx: ReviewContext): RozFilesOffDisk | null => {
  const head = state.review.base?.head;
  return (head && ctx.rozFilesOffDisk?.(head)) || null;
};

const PROMPT_LIMIT = 10_000;
const ROZ_PREFIX = /^\s*#roz(\s|$)/i;

export function isClientNotification(prompt: string): boolean {
  return /^\s*<task-notification>/.test(prompt);
}

export function isRozPrompt(prompt: string): boolean {
  return ROZ_PREFIX.test(prompt);
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** Where the roz subcommand sits in argv: `roz decide`, `/x/bin/roz decide` -> 1; `node bin/roz decide`, `npx roz decide` -> 2. */
function rozSubcommandIndex(argv: string[]): number | null {
  const [a0, a1] = argv;
  if (a0 === undefined) return null;
  if (baseName(a0) === 'roz') return 1;
  if ((baseName(a0) === 'node' || baseName(a0) === 'nodejs' || baseName(a0) === 'npx') && a1 && baseName(a1) === 'roz') return 2;
  return null;
}

/**
 * Does this `roz context` argv show session `sid`? Its session argument must
 * be `sid`; with none, roz context reads $CLAUDE_CODE_SESSION_ID, which the
 * client sets to this session: trusted only for a plain command (no prefix
 * assignment or wrapper could change it). `--last` (the most recent session,
 * whichever that is) or an option roz context does not take: no.
 */
export function contextShows(argv: string[], sid: string, plain: boolean): boolean {
  const at = rozSubcommandIndex(argv);
  if (at === null || argv[at] !== 'context') return false;
  const positional: string[] = [];
  let options = true;
  for (const arg of argv.slice(at + 1)) {
    if (options && arg === '--') options = false;
    else if (options && arg.startsWith('-')) {
      if (arg !== '--json') return false;
    } else positional.push(arg);
  }
  if (positional.length === 0) return plain;
  return positional.length === 1 && positional[0] === sid;
}

/** `roz decide ...`, `/x/bin/roz decide`, `node bin/roz decide`, `npx roz decide` -> 'decide'. */
export function rozSubcommand(argv: string[]): string | null {
  const i = rozSubcommandIndex(argv);
  return i === null ? null : (argv[i] ?? '');
}

function reviewerSpawnHint(sessionId: string): string {
  return `spawn the reviewer with the Agent tool (subagent_type "${REVIEWER_AGENT_TYPE}") and a prompt that starts with SESSION_ID=${sessionId}`;
}

function startReview(state: SessionState, trigger: ReviewTrigger, ctx: ReviewContext): void {
  const review = state.review;
  // A review still waiting for its verdict keeps its base: the reviewer must
  // see everything since the first trigger, not only the latest task.
  const keepBase = reviewActive(state) && review.base;
  review.enabled = true;
  review.status = 'pending';
  review.trigger = trigger;
  review.block_count = 0;
  review.decision = null;
  review.issues_pending = false;
  review.rearmed = null;
  review.review_started_at = ctx.now.toISOString();
  if (!keepBase) review.base = ctx.snapshot();
}

/**
 * Files changed after an approval put the gate back: the approval covered
 * another tree. The decision stays in the history; a new cycle starts.
 */
function rearm(state: SessionState, files: string[], why: string, now: Date): TraceNote {
  const review = state.review;
  review.enabled = true;
  review.status = 'pending';
  review.decision = null;
  review.gate_approved_at = null;
  review.block_count = 0;
  review.rearmed = { at: now.toISOString(), files, why };
  return { type: 'ReviewRearmed', files, why };
}

const CHANGED_AFTER = 'changed after the review approved the work';

/**
 * The tree an approval covers, compared with the worktree now: the changed
 * files and why, or null when unchanged. A snapshot that cannot be taken is
 * never "unchanged" (a broken index, a replaced `.git`): it re-arms, saying why.
 */
function changedSinceApproval(state: SessionState, ctx: ReviewContext): { files: string[]; why: string } | null {
  const d = state.review.decision;
  if (!d || d.kind !== 'complete') return null;
  if (!d.tree) {
    // Bound to no tree: right only where there is no repository to snapshot, then and now.
    const unbound = 'the approval is bound to no snapshot of the work tree (none could be taken when the reviewer looked)';
    if (state.review.base) return { files: [], why: unbound };
    const now = ctx.snapshot();
    const problem = now ? null : (ctx.snapshotProblem?.() ?? null);
    if (problem) return { files: [], why: `the work tree cannot be snapshotted (${problem})` };
    return now ? { files: [], why: unbound } : null;
  }
  const now = ctx.snapshot();
  if (!now) return { files: [], why: `the work tree could not be snapshotted after the approval (${ctx.snapshotProblem?.() ?? 'no git repository'})` };
  if (now.tree === d.tree) return null;
  const files = ctx.changedFiles(d.tree, now.tree);
  if (files === null) return { files: [], why: CHANGED_AFTER };
  // roz's and the client's own files (.orchestration/, .claude/) are not the agent's work.
  const work = projectFiles(files);
  return work.length > 0 ? { files: work, why: CHANGED_AFTER } : null;
}

function reviewActive(state: SessionState): boolean {
  const s = state.review.status;
  return state.review.enabled && (s === 'pending' || s === 'blocked' || s === 'issues');
}

export function onSessionStart(state: SessionState, input: HookInput<'SessionStart'>): PolicyResult {
  state.cwd = input.cwd;
  state.transcript_path = input.transcript_path ?? state.transcript_path;
  // After /compact (or an automatic compaction) the agent has lost what it was
  // told: say again that its work is under review and what is pending. A
  // resumed session is told too: 2.1.197 does not keep the compaction's hook
  // context in the transcript it resumes from (test/e2e/README.md).
  if ((input.source === 'compact' || input.source === 'resume') && state.review.enabled) {
    return result({ kind: 'context', text: `roz: ${pendingSummary(state)}` }, [{ type: 'ReviewRecalled', status: state.review.status, source: input.source }]);
  }
  return result();
}

export function onUserPrompt(state: SessionState, input: HookInput<'UserPromptSubmit'>, ctx: ReviewContext): PolicyResult {
  const review = state.review;
  const at = ctx.now.toISOString();
  const text = input.prompt;
  // The client re-engages the agent with a <task-notification> "prompt" when a
  // background subagent finishes; that is not the human speaking.
  if (isClientNotification(text)) {
    const ended = onTaskNotification(state, text, ctx.now);
    return result(undefined, [{ type: 'ClientNotification' }, ...ended.map((e) => ({ type: 'ReviewerEnded', ...e }))]);
  }
  review.user_prompts.push(text.length > PROMPT_LIMIT ? { text: text.slice(0, PROMPT_LIMIT), at, truncated: true } : { text, at });
  state.cwd = input.cwd;
  const mode = ctx.config.review.mode;
  const explicit = isRozPrompt(text);

  if (mode !== 'never' && (explicit || mode === 'always')) {
    if (!explicit && breakerOpen(state, ctx.now)) {
      return result(undefined, [{ type: 'ReviewSkipped', why: 'circuit breaker open' }]);
    }
    // A human typing #roz re-arms the breaker: that is an explicit request.
    if (explicit) review.breaker.open_until = null;
    startReview(state, { kind: explicit ? 'prompt' : 'always', at }, ctx);
    review.last_prompt_at = at;
    const verdict: Verdict = {
      kind: 'context',
      text:
        `roz: this task will be reviewed. When you think you are done, an independent reviewer (${ctx.launch ? `${ctx.launch.label}, started by roz when you finish your turn` : REVIEWER_AGENT_TYPE}) ` +
        `reads the real diff before you may stop. SESSION_ID=${state.session_id}`,
    };
    return result(verdict, [{ type: 'ReviewRequested', trigger: explicit ? 'prompt' : 'always' }]);
  }

  // Prompt isolation: a "hurry up" typed during a review must not cancel it or
  // invalidate the pending approval.
  if (!reviewActive(state)) {
    review.last_prompt_at = at;
    review.enabled = false;
  }
  return result();
}

/**
 * The review gate at PreToolUse, one idea per step: roz's store is never
 * written; a reviewer's run is noted as seen; a Bash command may be a review
 * decision (only the running reviewer's counts) or the reviewer reading roz
 * context; spawning the reviewer must name this session and keep roz's model;
 * and a gated call by the working agent asks for a review first.
 */
export function onPreToolUse(state: SessionState, input: HookInput<'PreToolUse'>, ctx: ReviewContext): PolicyResult {
  const tool = input.tool_name;
  const command = tool === 'Bash' && typeof input.tool_input.command === 'string' ? input.tool_input.command : null;

  if (ctx.writesStore()) {
    return result({
      kind: 'deny',
      code: 'STORE_PROTECTED',
      reason:
        `roz: ${tool} would write inside roz's own store (${ctx.config.storage.path}). ` +
        'Review state is recorded only through the roz hooks and the reviewer; leave those files alone and carry on with the task.',
    });
  }

  // What a reviewer could have seen starts at its start (seen-tree.ts); a run
  // whose SubagentStart took no snapshot (a session from before) takes it at
  // its first tool call.
  const own = input.agent_id && isReviewer(input.agent_type) ? state.review.reviewers[input.agent_id] : undefined;
  if (own && own.stopped_at === null && own.seen_tree === undefined) noteSeen(own, ctx.snapshot()?.tree ?? null, ctx.now);
  // A reviewer roz started itself is read-only: its hooks refuse a write before its client runs it.
  if (own?.launched) {
    const why = reviewerWriteRefusal(tool, command !== null ? () => ctx.shell(command).writes() : null);
    if (why)
      return result({ kind: 'deny', code: 'REVIEWER_READ_ONLY', reason: why }, [{ type: 'ReviewerWriteRefused', agent_id: input.agent_id, tool_name: tool }]);
  }

  if (command !== null) {
    const answered = reviewCommand(state, input, command, ctx);
    if (answered) return answered;
  }
  if ((tool === 'Agent' || tool === 'Task') && input.tool_input.subagent_type === REVIEWER_AGENT_TYPE) return reviewerSpawn(state, input);
  // Gates apply to the agent doing the work, not to the reviewer.
  if (isReviewer(input.agent_type)) return result();
  return gatedCall(state, input, command, ctx);
}

/** A Bash call that is a review decision, or the reviewer reading roz's view of the work; null for any other command. */
function reviewCommand(state: SessionState, input: HookInput<'PreToolUse'>, command: string, ctx: ReviewContext): PolicyResult | null {
  const sid = state.session_id;
  const view = ctx.shell(command);
  const decides = view.argvs().some((argv) => rozSubcommand(argv) === 'decide');
  // A reviewer's tool call is proof that it runs (reviewer-life.ts), within its window.
  const bound = ctx.config.review.reviewer_timeout_seconds;
  const run0 = input.agent_id ? state.review.reviewers[input.agent_id] : undefined;
  if (run0 && run0.stopped_at === null && bound > 0 && ctx.now.getTime() - Date.parse(run0.started_at) > bound * 1000) {
    endReviewer(state, input.agent_id!, 'timeout', ctx.now);
  }
  const reviewerRunning = proofOfLife(state, input.agent_id, input.agent_type);
  if (decides) {
    if (reviewerRunning && input.agent_id) return reviewerDecides(state, input, view, ctx);
    const attempt = currentAttempt(state);
    if (attempt) attempt.self_approvals_denied = (attempt.self_approvals_denied ?? 0) + 1;
    const reason = isReviewer(input.agent_type)
      ? `roz: this reviewer run has ended (${input.agent_id ? (state.review.reviewers[input.agent_id]?.end_reason ?? 'not started') : 'no agent id'}), so it can no longer record a decision. Nothing was recorded.`
      : `roz: only the independent reviewer may record a review decision, not the agent whose work is reviewed. ` +
        (ctx.launch ? launchedReviewAgain(ctx.launch.label) : `To get your work reviewed, ${reviewerSpawnHint(sid)}. It records COMPLETE or ISSUES itself.`);
    return result({ kind: 'deny', code: 'SELF_APPROVAL', reason }, [{ type: 'SelfApprovalDenied' }]);
  }
  if (!isReviewer(input.agent_type)) return null;
  const argvs = view.argvs();
  // Only a `roz context` of this session counts as having seen it: one of another session (or --last) shows another diff.
  const plain = view.alone() !== null;
  const contexts = argvs.filter((argv) => rozSubcommand(argv) === 'context');
  const reader = input.agent_id ? state.review.reviewers[input.agent_id] : undefined;
  if (reader && contexts.some((argv) => !contextShows(argv, sid, plain))) reader.read_other_context = true;
  const allRoz = argvs.every((argv) => {
    const sub = rozSubcommand(argv);
    return sub === 'context' || sub === 'debug' || sub === 'trace';
  });
  if (!allRoz || argvs.length === 0) return null;
  // What the reviewer sees is the worktree now: its decision is bound to it.
  if (reader && reviewerRunning && contexts.some((argv) => contextShows(argv, sid, plain))) {
    // Taken here, outside any sandbox: `roz context` shows the reviewer this very tree.
    noteSeen(reader, ctx.snapshot()?.tree ?? null, ctx.now);
    reader.read_own_context = true;
  }
  return result({ kind: 'allow', reason: 'roz: reviewer reads roz context' });
}

/** The working agent spawning roz's reviewer: on roz's model, told this session's id. */
function reviewerSpawn(state: SessionState, input: HookInput<'PreToolUse'>): PolicyResult {
  const sid = state.session_id;
  // The reviewer is roz's: its agent file picks its model, and the agent under review may not pick a weaker one.
  if (input.tool_input.model !== undefined) {
    const asked = typeof input.tool_input.model === 'string' ? input.tool_input.model : JSON.stringify(input.tool_input.model);
    return result(
      {
        kind: 'deny',
        code: 'REVIEWER_MODEL',
        reason:
          `roz: the reviewer's model is set by roz's reviewer agent, not by the agent under review (this call asks for "${asked}"). ` +
          `Spawn ${REVIEWER_AGENT_TYPE} again without the model parameter, with a prompt that starts with SESSION_ID=${sid}.`,
      },
      [{ type: 'ReviewerModelRefused', model: asked }],
    );
  }
  const prompt = typeof input.tool_input.prompt === 'string' ? input.tool_input.prompt : '';
  const named = /SESSION_ID=([A-Za-z0-9._-]+)/.exec(prompt)?.[1];
  if (named === sid) return result();
  const attempt = currentAttempt(state);
  if (attempt) attempt.bad_session_id_spawns = (attempt.bad_session_id_spawns ?? 0) + 1;
  const got = named ? `it names SESSION_ID=${named}` : 'it has no SESSION_ID= line';
  return result(
    {
      kind: 'deny',
      code: 'BAD_SESSION_ID',
      reason: `roz: the reviewer cannot find your session: ${got}. Spawn it again with a prompt that starts with SESSION_ID=${sid}.`,
    },
    [{ type: 'BadSessionId', named: named ?? null }],
  );
}

/**
 * A call matching a review gate ([review] gates): through when the review is
 * approved and nothing changed since (the approval is consumed by its scope),
 * or when the breaker is open; otherwise the review starts and the call asks.
 */
function gatedCall(state: SessionState, input: HookInput<'PreToolUse'>, command: string | null, ctx: ReviewContext): PolicyResult {
  const tool = input.tool_name;
  const gate = matchGate(ctx.config.review.gates, tool, () => (command !== null ? ctx.shell(command).argvs() : []));
  if (!gate) return result();

  const policy = ctx.config.review;
  if (breakerOpen(state, ctx.now)) {
    return result(
      undefined,
      [{ type: 'GateAllowed', pattern: gate.pattern, why: 'circuit breaker open' }],
      [`roz: gate "${gate.pattern}" let through unreviewed: the circuit breaker is open.`],
    );
  }
  const notes: TraceNote[] = [];
  if (isGateApproved(state, policy, ctx.now)) {
    const changed = changedSinceApproval(state, ctx);
    if (changed === null) {
      consumeApproval(state, policy);
      return result(undefined, [{ type: 'GateAllowed', pattern: gate.pattern, why: `approved (${policy.approval_scope} scope)` }]);
    }
    notes.push(rearm(state, changed.files, changed.why, ctx.now));
  }
  if (!reviewActive(state)) {
    startReview(
      state,
      { kind: 'gate', at: ctx.now.toISOString(), tool_name: tool, pattern: gate.pattern, ...(gate.command ? { command: gate.command } : {}) },
      ctx,
    );
  }
  const what = gate.command ?? tool;
  // An ask: a human at the client's dialog (or roz run's approval panel) may let
  // this one call run. That does not approve the review, which stays required
  // at the next stop. In print mode (-p) the client turns an ask into a denial.
  return result(
    {
      kind: 'ask',
      code: 'REVIEW_REQUIRED',
      reason:
        `roz: \`${what}\` matches the review gate "${gate.pattern}" and needs an independent review first. ` +
        `${ctx.launch ? `Finish your turn: roz starts the reviewer (${ctx.launch.label})` : capitalise(reviewerSpawnHint(state.session_id))}; once it records COMPLETE, run \`${what}\` again. ` +
        `(A human may allow this one call; the review is still required. In print mode, -p, this ask is a denial.)`,
    },
    [...notes, { type: 'GateBlocked', pattern: gate.pattern, command: what }],
  );
}

/**
 * The running reviewer's own `roz decide` Bash call: recorded here, by the
 * hook the client spawned (agent_id and agent_type are the client's), and only
 * when the command is exactly one `roz decide ...`. Anything else is refused
 * with what to do; nothing is recorded.
 */
function reviewerDecides(state: SessionState, input: HookInput<'PreToolUse'>, view: ShellView, ctx: ReviewContext): PolicyResult {
  const sid = state.session_id;
  const agentId = input.agent_id!;
  const refuse = (why: string): PolicyResult =>
    result({ kind: 'deny', code: 'DECISION_REFUSED', reason: `roz: decision NOT recorded: ${why}` }, [{ type: 'DecisionRefused', agent_id: agentId, why }]);
  const argv = view.alone();
  const at = argv ? rozSubcommandIndex(argv) : null;
  if (!argv || at === null || argv[at] !== 'decide') {
    return refuse(
      `run \`roz decide\` as a Bash command of its own, with nothing before or after it (no ;, &&, |, redirection, variable or $(...)). Usage: ${DECIDE_USAGE.replace('SESSION', sid)}`,
    );
  }
  const parsed = parseDecideArgs(argv.slice(at + 1));
  if (!parsed.ok) return refuse(`${parsed.error}. Usage: ${DECIDE_USAGE.replace('SESSION', sid)}`);
  const args = parsed.args;
  if (args.session !== null && args.session !== sid) return refuse(`it names session ${args.session}, but you are reviewing SESSION_ID=${sid}`);
  const opinionPolicy = ctx.config.review.second_opinion;
  if (opinionPolicy === 'required' && args.kind === 'complete' && !args.opinions?.length) {
    return refuse(
      `second opinions are required here ([review] second_opinion = "required"): consult one as \`roz context ${sid}\` says and name it with --opinions, or record ISSUES`,
    );
  }
  const run = state.review.reviewers[agentId]!;
  // What it read must be this session's change: a reviewer steered to another session's (harmless) diff cannot approve this one.
  if (args.kind === 'complete' && run.read_other_context && !run.read_own_context) {
    return refuse(
      `you read \`roz context\` of another session (or --last), not of SESSION_ID=${sid}. Run \`roz context ${sid}\`, check that change, then decide`,
    );
  }
  // Bound to the tree the reviewer could have seen (its start, or its last
  // `roz context`), not the tree when it decides: another agent may have
  // written meanwhile (a background reviewer runs beside the agent).
  const committed = args.kind === 'complete' ? offDisk(state, ctx) : null;
  if (committed) return refuse(committed.refusal);
  const nowTree = ctx.snapshot()?.tree ?? null;
  const seenAt = run.seen_at;
  const unseen = unseenChanges(run, nowTree, ctx.changedFiles);
  const tree = run.seen_tree ?? nowTree;
  const base = state.review.base?.tree;
  const changed = tree && base ? ctx.changedFiles(base, tree) : null;
  const covers = changed ? projectFiles(changed) : undefined;
  const d = recordDecision(
    state,
    args,
    { agent_id: agentId, ...(input.tool_use_id ? { tool_use_id: input.tool_use_id } : {}), tree, ...(covers ? { covers } : {}), opinion_policy: opinionPolicy },
    ctx.now,
  );
  const notes: TraceNote[] = [];
  let said = `roz: decision recorded: ${d.kind.toUpperCase()} for SESSION_ID=${sid}`;
  if (d.kind === 'complete' && unseen !== null) {
    // The approval stands for what the reviewer saw; what it could not see re-arms the gate now, by name.
    notes.push(rearm(state, unseen, WRITTEN_DURING_REVIEW, ctx.now));
    said += `. ${unseenSentence(unseen, seenAt)}`;
  }
  return result({ kind: 'allow', reason: said }, [
    {
      type: 'Decision',
      kind: d.kind,
      valid: true,
      summary: d.summary,
      agent_id: agentId,
      ...(d.message !== undefined ? { message: d.message } : {}),
      ...(d.opinions ? { opinions: d.opinions } : {}),
      ...(d.no_opinion ? { no_opinion: d.no_opinion } : {}),
      tree,
    },
    ...notes,
  ]);
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * The files a finished tool call wrote, as far as the call says: a Write-like
 * tool's path, or the targets the shell parser names in a Bash command (a
 * failed command may still have written before it failed). null: no write seen.
 */
function writtenBy(input: HookInput<'PostToolUse'> | HookInput<'PostToolUseFailure'>, ctx: ReviewContext): { files: string[]; how: string } | null {
  if (input.hook_event_name !== 'PostToolUseFailure' && FILE_TOOLS.has(input.tool_name)) {
    const file = input.tool_input.file_path ?? input.tool_input.notebook_path;
    return { files: typeof file === 'string' ? [file] : [], how: `with ${input.tool_name}` };
  }
  if (input.tool_name === 'Bash' && typeof input.tool_input.command === 'string') {
    const files = ctx
      .shell(input.tool_input.command)
      .writes()
      .targets.filter((t) => !/^\/dev\//.test(t));
    return files.length > 0 ? { files, how: 'by a Bash command' } : null;
  }
  return null;
}

export function onPostToolUse(state: SessionState, input: HookInput<'PostToolUse'> | HookInput<'PostToolUseFailure'>, ctx: ReviewContext): PolicyResult {
  const notes: TraceNote[] = [];
  const stopped = stoppedTaskId(input.tool_name, input.tool_input);
  if (stopped && endReviewer(state, stopped, 'task_stop', ctx.now)) notes.push({ type: 'ReviewerEnded', agent_id: stopped, why: 'task_stop' });
  // Only a write that can matter is looked for: one after an approval, or one while a reviewer is reading.
  const reviewing = Object.values(state.review.reviewers).some((r) => r.stopped_at === null && !r.decided);
  const written = state.review.enabled && (reviewing || state.review.status === 'approved') ? writtenBy(input, ctx) : null;
  if (!written) return result(undefined, notes);
  // Written while a reviewer runs: not seen by it, whoever wrote it (but itself).
  noteUnseenWrites(state, written.files, input.agent_id);
  // A file written after an approval is not covered by it. Tool writes and
  // Bash writes the parser can see re-arm at once; whatever it cannot see is
  // caught by the tree re-hash at the next stop or gated call.
  if (!isReviewer(input.agent_type) && state.review.status === 'approved') {
    notes.push(rearm(state, written.files, `written ${written.how} after the review approved the work`, ctx.now));
  }
  return result(undefined, notes);
}

export function onSubagentStart(state: SessionState, input: HookInput<'SubagentStart'>, ctx: ReviewContext): PolicyResult {
  if (!isReviewer(input.agent_type)) return result();
  const at = ctx.now.toISOString();
  const run: ReviewerRun = { agent_type: input.agent_type, started_at: at, stopped_at: null, decided: false };
  // The earliest the reviewer can read anything: its decision covers at most this tree, unless a `roz context` shows it a later one.
  noteSeen(run, ctx.snapshot()?.tree ?? null, ctx.now);
  state.review.reviewers[input.agent_id] = run;
  const attempt = currentAttempt(state);
  if (attempt && !attempt.spawned_at) {
    attempt.spawned_at = at;
    attempt.reviewer_agent_id = input.agent_id;
  }
  return result(undefined, [{ type: 'ReviewerStarted', agent_id: input.agent_id }]);
}

export function onSubagentStop(state: SessionState, input: HookInput<'SubagentStop'>, ctx: ReviewContext): PolicyResult {
  if (!isReviewer(input.agent_type)) return result();
  const run = state.review.reviewers[input.agent_id];
  const sid = state.session_id;
  if (run && run.stopped_at === null && !run.decided && !input.stop_hook_active) {
    // Keep the window open: the reviewer goes on and can still decide.
    return result(
      {
        kind: 'block',
        reason:
          `roz: you have not recorded a decision for SESSION_ID=${sid}. Record it now with a Bash command of its own:\n` +
          `  roz decide ${sid} COMPLETE "what you verified"\n` +
          `or\n  roz decide ${sid} ISSUES "what is wrong" --message "what the agent must fix"`,
      },
      [{ type: 'ReviewerNudged', agent_id: input.agent_id }],
    );
  }
  const notes: TraceNote[] = [{ type: 'ReviewerStopped', agent_id: input.agent_id, decided: run?.decided ?? false }];
  const warnings: string[] = [];
  if (run) {
    endReviewer(state, input.agent_id, 'subagent_stop', ctx.now);
    if (!run.decided) warnings.push(`roz: the reviewer finished without recording a decision for session ${sid}.`);
  }
  return result(undefined, notes, warnings);
}

function closeAttempt(state: SessionState, now: Date): void {
  const attempt = currentAttempt(state);
  if (!attempt) return;
  attempt.outcome = attempt.spawned_at ? 'no_decision' : 'not_spawned';
  attempt.ended_at = now.toISOString();
}

export function onStop(state: SessionState, input: HookInput<'Stop'>, ctx: ReviewContext): PolicyResult {
  const review = state.review;
  const notes: TraceNote[] = [];
  // Who is still reviewing, from the client's facts (reviewer-life.ts).
  for (const e of settleReviewers(state, input.background_tasks, ctx.config.review.reviewer_timeout_seconds, ctx.now)) {
    notes.push({ type: 'ReviewerEnded', ...e });
  }
  // A reviewer roz started lives only inside the Stop hook that started it (which waits for it): one
  // still open at a later stop is the trace of a hook that was killed, not a review under way.
  for (const [id, r] of Object.entries(review.reviewers)) {
    if (r.launched && endReviewer(state, id, 'exited', ctx.now)) notes.push({ type: 'ReviewerEnded', agent_id: id, why: 'exited' });
  }
  if (!review.enabled || review.status === 'idle') return result(undefined, notes);
  const cfg = ctx.config.circuit_breaker;
  // roz's own files committed otherwise than on disk: the human hears of it at every stop until they are gone, and no approval stands.
  const committed = offDisk(state, ctx);
  const warnings = committed ? [committed.warning] : [];
  if (committed) notes.push({ type: 'RozFilesCommitted', files: committed.files });

  if (review.status === 'approved') {
    // The approval covers the tree the reviewer saw; anything written since
    // (a Bash write, a commit of other work) needs its own review.
    const changed = committed ?? changedSinceApproval(state, ctx);
    if (changed === null) {
      const d = review.decision;
      // Shown once per decision, at the stop it lets through: in print mode this
      // is the run's last word on the review.
      if (d && review.announced !== d.decided_at) {
        review.announced = d.decided_at;
        return result(undefined, [...notes, { type: 'ReviewOutcomeShown', outcome: 'approved' }], [approvedMessage(state)]);
      }
      return result(undefined, notes);
    }
    notes.push(rearm(state, changed.files, changed.why, ctx.now));
  }

  // Current clients run subagents in the background: the agent's turn may end
  // while its reviewer is still working, and the client wakes the agent when
  // the reviewer finishes. Blocking here would only burn turns (and trip the
  // breaker); the next stop after the reviewer finishes is gated as usual.
  const running = Object.entries(review.reviewers).filter(([, r]) => r.stopped_at === null);
  if (running.length > 0) {
    return result(undefined, [...notes, { type: 'StopWhileReviewing', agent_ids: running.map(([id]) => id) }], warnings);
  }

  // An ISSUES message not yet delivered always is: ISSUES is progress, not a
  // failure, and the breaker must not swallow it.
  const deliverIssues = review.status === 'issues' && review.issues_pending === true && review.decision?.kind === 'issues';
  if (!deliverIssues && shouldTrip(state, cfg)) {
    closeAttempt(state, ctx.now);
    const warning = trip(state, cfg, ctx.now);
    return result(undefined, [...notes, { type: 'BreakerTripped', max_blocks: cfg.max_blocks }], [...warnings, warning]);
  }

  const previousStatus = review.status;
  closeAttempt(state, ctx.now);
  const templateId = chooseTemplate(ctx.config.templates.active, ctx.config.templates.weights, ctx.rng);
  const rendered = renderBlockMessage(templateId, state.session_id, ctx.loadTemplate);
  // Where roz starts the reviewer itself, the agent only has to stop again (launched-reviewer.ts).
  const again = ctx.launch ? launchedReviewAgain(ctx.launch.label) : rendered.text;
  let reason = rendered.text;
  if (deliverIssues) {
    const d = review.decision!;
    reason =
      `roz: the reviewer found issues with your work (SESSION_ID=${state.session_id}).\n\n` +
      `Summary: ${d.summary}\n` +
      (d.message ? `What to fix: ${d.message}\n` : '') +
      `\nFix these first. Then the work must be reviewed again:\n\n${again}`;
    review.issues_pending = false;
  } else if (review.rearmed) {
    const r = review.rearmed;
    reason =
      (r.files.length === 0 && r.why !== CHANGED_AFTER
        ? `roz: the approval no longer holds: ${r.why} (SESSION_ID=${state.session_id}). `
        : `roz: ${namedFiles(r.files)} ${r.files.length === 1 ? 'was' : 'were'} ${r.why} (SESSION_ID=${state.session_id}). `) +
      `The approval covered the work as the reviewer saw it; these changes need a review too.\n\n${again}`;
  }
  review.block_count += 1;
  review.status = 'blocked';
  review.attempts.push({
    id: review.attempts.length + 1,
    template_id: rendered.template_id,
    blocked_at: ctx.now.toISOString(),
    reason: deliverIssues || previousStatus === 'issues' ? 'issues' : previousStatus === 'blocked' ? 'retry' : 'review',
    outcome: 'pending',
  });
  const blocked = [...notes, { type: 'ReviewBlocked', template_id: rendered.template_id, block_count: review.block_count }];
  if (ctx.launch && !deliverIssues) {
    if (!ctx.launch.start) return result({ kind: 'block', reason: `${reason === rendered.text ? '' : `${reason}\n\n`}${again}` }, blocked, warnings);
    // roz starts the reviewer now, registered before it runs: only this run's own tool calls may decide.
    // This block stands if it ends without a decision (the engine judges the stop again after it).
    const runId = ctx.launch.runId();
    const run: ReviewerRun = {
      agent_type: REVIEWER_AGENT_TYPE,
      started_at: ctx.now.toISOString(),
      stopped_at: null,
      decided: false,
      launched: ctx.launch.client,
    };
    noteSeen(run, ctx.snapshot()?.tree ?? null, ctx.now);
    review.reviewers[runId] = run;
    const attempt = currentAttempt(state)!;
    attempt.spawned_at = run.started_at;
    attempt.reviewer_agent_id = runId;
    const said =
      `roz: the reviewer roz started for this stop (${ctx.launch.label}, run ${runId}) ended without recording a decision (SESSION_ID=${state.session_id}). ` +
      `Finish your turn again to be reviewed again.`;
    return result({ kind: 'block', reason: reason === rendered.text ? said : `${reason}\n\n${said}` }, [
      ...blocked,
      { type: 'ReviewerLaunch', agent_id: runId, client: ctx.launch.client },
    ]);
  }
  return result({ kind: 'block', reason }, blocked, [...warnings, ...(rendered.warning ? [rendered.warning] : [])]);
}

/**
 * After a reviewer roz started for this stop has exited: its run ends, and if
 * it recorded a decision the stop is judged again (COMPLETE for this tree lets
 * it through; ISSUES blocks it with the reviewer's findings). null: it decided
 * nothing, and the block that started it stands.
 */
export function afterLaunchedReview(state: SessionState, input: HookInput<'Stop'>, runId: string, ctx: ReviewContext): PolicyResult | null {
  const ended = endReviewer(state, runId, 'exited', ctx.now);
  const run = state.review.reviewers[runId];
  const notes: TraceNote[] = ended ? [{ type: 'ReviewerEnded', agent_id: runId, why: 'exited' }] : [];
  if (!run?.decided) return null;
  const out = onStop(state, input, { ...ctx, ...(ctx.launch ? { launch: { ...ctx.launch, start: false } } : {}) });
  return { ...out, notes: [...notes, ...out.notes] };
}

export function onSessionEnd(state: SessionState, _input: HookInput<'SessionEnd'>, ctx: ReviewContext): PolicyResult {
  const at = ctx.now.toISOString();
  state.ended_at = at;
  closeAttempt(state, ctx.now);
  for (const id of Object.keys(state.review.reviewers)) endReviewer(state, id, 'session_end', ctx.now);
  return result();
}
