// The review gate as one policy: each hook event in, a verdict out, the
// session state updated in place. Pure: time, randomness, templates, shell
// analysis and store checks come in through the context.
import type { HookInput } from '../hook-input.js';
import type { RozConfig } from '../config.js';
import { result, type PolicyResult, type TraceNote, type Verdict } from '../verdict.js';
import { breakerOpen, shouldTrip, trip } from './breaker.js';
import { consumeApproval, isGateApproved, matchGate } from './gates.js';
import { chooseTemplate, renderBlockMessage } from './templates.js';
import {
  currentAttempt,
  isReviewer,
  REVIEWER_AGENT_TYPE,
  type ReviewTrigger,
  type SessionState,
} from './state.js';

/** The parsed view of a Bash command that policies need (see core/shell). */
export interface ShellView {
  /** Effective argv of every simple command that could run, wrappers unwrapped. */
  argvs(): string[][];
  /** The same commands joined by spaces, for glob matching. */
  normalized(): string[];
}

export interface ReviewContext {
  now: Date;
  config: RozConfig;
  rng: () => number;
  loadTemplate: (id: string) => string | null;
  shell: (command: string) => ShellView;
  /** True when the tool call would write inside roz's own store. */
  writesStore: () => boolean;
}

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

/** `roz decide ...`, `/x/bin/roz decide`, `node bin/roz decide`, `npx roz decide` -> 'decide'. */
export function rozSubcommand(argv: string[]): string | null {
  const [a0, a1, a2] = argv;
  if (a0 === undefined) return null;
  if (baseName(a0) === 'roz') return a1 ?? '';
  if ((baseName(a0) === 'node' || baseName(a0) === 'nodejs' || baseName(a0) === 'npx') && a1 && baseName(a1) === 'roz') return a2 ?? '';
  return null;
}

function reviewerSpawnHint(sessionId: string): string {
  return `spawn the reviewer with the Agent tool (subagent_type "${REVIEWER_AGENT_TYPE}") and a prompt that starts with SESSION_ID=${sessionId}`;
}

function startReview(state: SessionState, trigger: ReviewTrigger, now: Date): void {
  const review = state.review;
  review.enabled = true;
  review.status = 'pending';
  review.trigger = trigger;
  review.block_count = 0;
  review.decision = null;
  review.review_started_at = now.toISOString();
}

function reviewActive(state: SessionState): boolean {
  const s = state.review.status;
  return state.review.enabled && (s === 'pending' || s === 'blocked' || s === 'issues');
}

export function onSessionStart(state: SessionState, input: HookInput<'SessionStart'>): PolicyResult {
  state.cwd = input.cwd;
  state.transcript_path = input.transcript_path ?? state.transcript_path;
  return result();
}

export function onUserPrompt(state: SessionState, input: HookInput<'UserPromptSubmit'>, ctx: ReviewContext): PolicyResult {
  const review = state.review;
  const at = ctx.now.toISOString();
  const text = input.prompt;
  // The client re-engages the agent with a <task-notification> "prompt" when a
  // background subagent finishes; that is not the human speaking.
  if (isClientNotification(text)) return result(undefined, [{ type: 'ClientNotification' }]);
  review.user_prompts.push(
    text.length > PROMPT_LIMIT ? { text: text.slice(0, PROMPT_LIMIT), at, truncated: true } : { text, at },
  );
  state.cwd = input.cwd;
  const mode = ctx.config.review.mode;
  const explicit = isRozPrompt(text);

  if (mode !== 'never' && (explicit || mode === 'always')) {
    if (!explicit && breakerOpen(state, ctx.now)) {
      return result(undefined, [{ type: 'ReviewSkipped', why: 'circuit breaker open' }]);
    }
    // A human typing #roz re-arms the breaker: that is an explicit request.
    if (explicit) review.breaker.open_until = null;
    startReview(state, { kind: explicit ? 'prompt' : 'always', at }, ctx.now);
    review.last_prompt_at = at;
    const verdict: Verdict = {
      kind: 'context',
      text:
        `roz: this task will be reviewed. When you think you are done, an independent reviewer (${REVIEWER_AGENT_TYPE}) ` +
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

export function onPreToolUse(state: SessionState, input: HookInput<'PreToolUse'>, ctx: ReviewContext): PolicyResult {
  const tool = input.tool_name;
  const sid = state.session_id;
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

  if (command !== null) {
    const view = ctx.shell(command);
    const decides = view.argvs().some((argv) => rozSubcommand(argv) === 'decide');
    if (decides) {
      if (isReviewer(input.agent_type) && input.agent_id) {
        const run = state.review.reviewers[input.agent_id];
        if (run && run.stopped_at === null) {
          run.decide_calls.push(input.tool_use_id ?? `call-${ctx.now.getTime()}`);
          // Answer allow so the human is not asked to approve the reviewer's own verdict.
          return result({ kind: 'allow', reason: 'roz: the reviewer records its decision' }, [{ type: 'DecisionCallRegistered', agent_id: input.agent_id }]);
        }
      }
      const attempt = currentAttempt(state);
      if (attempt) attempt.self_approvals_denied = (attempt.self_approvals_denied ?? 0) + 1;
      return result(
        {
          kind: 'deny',
          code: 'SELF_APPROVAL',
          reason:
            `roz: only the independent reviewer may record a review decision, not the agent whose work is reviewed. ` +
            `To get your work reviewed, ${reviewerSpawnHint(sid)}. It records COMPLETE or ISSUES itself.`,
        },
        [{ type: 'SelfApprovalDenied' }],
      );
    }
    if (isReviewer(input.agent_type)) {
      const allRoz = view.argvs().every((argv) => {
        const sub = rozSubcommand(argv);
        return sub === 'context' || sub === 'debug' || sub === 'trace';
      });
      if (allRoz && view.argvs().length > 0) return result({ kind: 'allow', reason: 'roz: reviewer reads roz context' });
    }
  }

  if ((tool === 'Agent' || tool === 'Task') && input.tool_input.subagent_type === REVIEWER_AGENT_TYPE) {
    const prompt = typeof input.tool_input.prompt === 'string' ? input.tool_input.prompt : '';
    const named = /SESSION_ID=([A-Za-z0-9._-]+)/.exec(prompt)?.[1];
    if (named !== sid) {
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
    return result();
  }

  // Gates apply to the agent doing the work, not to the reviewer.
  if (isReviewer(input.agent_type)) return result();
  const gate = matchGate(ctx.config.review.gates, tool, () => (command !== null ? ctx.shell(command).normalized() : []));
  if (!gate) return result();

  const policy = ctx.config.review;
  if (breakerOpen(state, ctx.now)) {
    return result(undefined, [{ type: 'GateAllowed', pattern: gate.pattern, why: 'circuit breaker open' }], [
      `roz: gate "${gate.pattern}" let through unreviewed: the circuit breaker is open.`,
    ]);
  }
  if (isGateApproved(state, policy, ctx.now)) {
    consumeApproval(state, policy);
    return result(undefined, [{ type: 'GateAllowed', pattern: gate.pattern, why: `approved (${policy.approval_scope} scope)` }]);
  }
  if (!reviewActive(state)) {
    startReview(
      state,
      { kind: 'gate', at: ctx.now.toISOString(), tool_name: tool, pattern: gate.pattern, ...(gate.command ? { command: gate.command } : {}) },
      ctx.now,
    );
  }
  const what = gate.command ?? tool;
  return result(
    {
      kind: 'deny',
      code: 'REVIEW_REQUIRED',
      reason:
        `roz: \`${what}\` matches the review gate "${gate.pattern}" and needs an independent review first. ` +
        `${capitalise(reviewerSpawnHint(sid))}; once it records COMPLETE, run \`${what}\` again.`,
    },
    [{ type: 'GateBlocked', pattern: gate.pattern, command: what }],
  );
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function onPostToolUse(state: SessionState, input: HookInput<'PostToolUse'> | HookInput<'PostToolUseFailure'>): PolicyResult {
  if (input.agent_id && input.tool_use_id) {
    const run = state.review.reviewers[input.agent_id];
    if (run) run.decide_calls = run.decide_calls.filter((id) => id !== input.tool_use_id);
  }
  return result();
}

export function onSubagentStart(state: SessionState, input: HookInput<'SubagentStart'>, ctx: ReviewContext): PolicyResult {
  if (!isReviewer(input.agent_type)) return result();
  const at = ctx.now.toISOString();
  state.review.reviewers[input.agent_id] = {
    agent_type: input.agent_type,
    started_at: at,
    stopped_at: null,
    decide_calls: [],
    decided: false,
  };
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
  if (run && !run.decided && !input.stop_hook_active) {
    // Keep the window open: the reviewer goes on and can still decide.
    return result(
      {
        kind: 'block',
        reason:
          `roz: you have not recorded a decision for SESSION_ID=${sid}. Record it now with Bash:\n` +
          `  roz decide ${sid} COMPLETE "what you verified"\n` +
          `or\n  roz decide ${sid} ISSUES "what is wrong" --message "what the agent must fix"`,
      },
      [{ type: 'ReviewerNudged', agent_id: input.agent_id }],
    );
  }
  const notes: TraceNote[] = [{ type: 'ReviewerStopped', agent_id: input.agent_id, decided: run?.decided ?? false }];
  const warnings: string[] = [];
  if (run) {
    run.stopped_at = ctx.now.toISOString();
    run.decide_calls = [];
    if (!run.decided) {
      const attempt = currentAttempt(state);
      if (attempt && attempt.reviewer_agent_id === input.agent_id) {
        attempt.outcome = 'no_decision';
        attempt.ended_at = run.stopped_at;
      }
      warnings.push(`roz: the reviewer finished without recording a decision for session ${sid}.`);
    }
  }
  return result(undefined, notes, warnings);
}

function closeAttempt(state: SessionState, now: Date): void {
  const attempt = currentAttempt(state);
  if (!attempt) return;
  attempt.outcome = attempt.spawned_at ? 'no_decision' : 'not_spawned';
  attempt.ended_at = now.toISOString();
}

export function onStop(state: SessionState, _input: HookInput<'Stop'>, ctx: ReviewContext): PolicyResult {
  const review = state.review;
  if (!review.enabled || review.status === 'approved' || review.status === 'idle') return result();
  const cfg = ctx.config.circuit_breaker;

  // Current clients run subagents in the background: the agent's turn may end
  // while its reviewer is still working, and the client wakes the agent when
  // the reviewer finishes. Blocking here would only burn turns (and trip the
  // breaker); the next stop after the reviewer finishes is gated as usual.
  const running = Object.entries(review.reviewers).filter(([, r]) => r.stopped_at === null);
  if (running.length > 0) {
    return result(undefined, [{ type: 'StopWhileReviewing', agent_ids: running.map(([id]) => id) }]);
  }

  if (shouldTrip(state, cfg)) {
    closeAttempt(state, ctx.now);
    const warning = trip(state, cfg, ctx.now);
    return result(undefined, [{ type: 'BreakerTripped', max_blocks: cfg.max_blocks }], [warning]);
  }

  const previousStatus = review.status;
  closeAttempt(state, ctx.now);
  const templateId = chooseTemplate(ctx.config.templates.active, ctx.config.templates.weights, ctx.rng);
  const rendered = renderBlockMessage(templateId, state.session_id, ctx.loadTemplate);
  let reason = rendered.text;
  if (previousStatus === 'issues' && review.decision?.kind === 'issues') {
    const d = review.decision;
    reason =
      `roz: the reviewer found issues with your work (SESSION_ID=${state.session_id}).\n\n` +
      `Summary: ${d.summary}\n` +
      (d.message ? `What to fix: ${d.message}\n` : '') +
      `\nFix these first. Then the work must be reviewed again:\n\n${rendered.text}`;
  }
  review.block_count += 1;
  review.status = 'blocked';
  review.attempts.push({
    id: review.attempts.length + 1,
    template_id: rendered.template_id,
    blocked_at: ctx.now.toISOString(),
    reason: previousStatus === 'issues' ? 'issues' : previousStatus === 'blocked' ? 'retry' : 'review',
    outcome: 'pending',
  });
  return result(
    { kind: 'block', reason },
    [{ type: 'ReviewBlocked', template_id: rendered.template_id, block_count: review.block_count }],
    rendered.warning ? [rendered.warning] : [],
  );
}

export function onSessionEnd(state: SessionState, _input: HookInput<'SessionEnd'>, ctx: ReviewContext): PolicyResult {
  const at = ctx.now.toISOString();
  state.ended_at = at;
  closeAttempt(state, ctx.now);
  for (const run of Object.values(state.review.reviewers)) {
    if (run.stopped_at === null) run.stopped_at = at;
    run.decide_calls = [];
  }
  return result();
}
