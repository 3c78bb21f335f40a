// Intent governance as the engine calls it, inside the session lock (the
// engine loads this module lazily, only for a governed project): one answer
// per hook event. PreToolUse (gate.ts) fails closed; everything after the
// fact fails safe (a warning, never a denial): PostToolUse binds an intent
// chosen through MCP, remembers reads and records mutations (records.ts),
// SessionStart says the intents and lessons, Stop audits the scope (audit.ts).
import type { HookEventName, HookInput } from '../../core/hook-input.js';
import type { SessionState } from '../../core/session-state.js';
import { result, type PolicyResult } from '../../core/verdict.js';
import { formatProblems, type Intent } from '../../core/governance/intents.js';
import { globTest } from '../../core/glob/path-glob.js';
import { isTestArgv, latestLessons, reviewIssuesLesson, testFailureLesson } from '../../core/governance/lessons.js';
import { isSelectIntentTool } from '../../core/governance/mutations.js';
import type { ProjectView } from '../../core/governance/policy.js';
import { sessionSummary } from '../../core/governance/render.js';
import { resolvePath } from '../../core/governance/scope.js';
import { shellReads } from '../../core/governance/shell-reads.js';
import { hookClient } from '../../core/clients.js';
import { governanceOf, rememberFile, selectIntent, type GovernanceState } from '../../core/governance/state.js';
import { rethrowNotLoaded } from '../../core/on-demand.js';
import { appendLesson, readLessonsFile } from '../../store/orchestration.js';
import { analysis } from '../shell-view.js';
import { attributeAsked, ensureAuditBase, governanceOnStop } from './audit.js';
import { governanceOnPreToolUse } from './gate.js';
import { type GovernanceDeps, hashFile, LESSONS_FED_BACK, loadProject, pathContext, projectFor } from './project.js';
import { assertOrchestrationTrusted } from './orchestration-trust.js';
import { recordMutation, refreshStaleMap } from './records.js';

/** .intentignore patterns roz refused (scope.ts refusedIgnore), said at SessionStart. */
function refusedIgnoreWarning(project: ProjectView): string[] {
  const refused = project.ignored.refused ?? [];
  if (refused.length === 0) return [];
  return [`roz: .orchestration/.intentignore: refused ${refused.map((r) => `\`${r.pattern}\` (${r.why})`).join(', ')}; those paths stay governed`];
}

/**
 * owned_scope globs roz cannot match in bounded time (not regular: a
 * backreference picomatch passes through), said at SessionStart. Such a glob
 * matches nothing, so the writes it would allow are refused (closed), never
 * matched by a backtracking RegExp.
 */
function refusedScopeWarning(intents: readonly Intent[]): string[] {
  const out: string[] = [];
  for (const intent of intents) {
    const refused = globTest(intent.owned_scope).refused;
    if (refused.length) {
      out.push(
        `roz: intent ${intent.id}: owned_scope ${refused.map((g) => `\`${g}\``).join(', ')} cannot be matched in bounded time (not a regular glob) and matches nothing; writes it would allow are refused`,
      );
    }
  }
  return out;
}

/**
 * After a tool ran: bind an intent chosen through the MCP tool, remember what
 * the agent read, record a successful mutation in the ledger (the map follows at Stop), and
 * turn a failed test run into a lesson. Never denies.
 */
export function governanceOnPostToolUse(
  state: SessionState,
  input: HookInput<'PostToolUse'> | HookInput<'PostToolUseFailure'>,
  deps: GovernanceDeps,
): PolicyResult {
  try {
    const gov = governanceOf(state);
    const root = projectFor(gov, input.cwd, deps);
    if (!root) return result();
    if (input.hook_event_name === 'PostToolUseFailure' || 'error' in input) return onFailure(gov, state, input as HookInput<'PostToolUseFailure'>, root, deps);
    const post = input as HookInput<'PostToolUse'>;
    if (isSelectIntentTool(post.tool_name)) return bindFromMcpCall(gov, post, root, deps);
    attributeAsked(gov.audit, post, root, deps);
    const project = loadProject(root, deps);
    const paths = pathContext(project, post.cwd, deps, state.session_id);
    if (post.tool_name === 'Read') {
      const p = post.tool_input.file_path;
      if (typeof p !== 'string') return result();
      const real = resolvePath(p, paths).real;
      const h = hashFile(real);
      if (h) rememberFile(gov, real, h, 'read', deps.now);
      return result();
    }
    const recorded = recordMutation(gov, state, post, project, paths, root, deps);
    if (post.tool_name === 'Bash' && hookClient(deps.env).shellReads) rememberShellReads(gov, post, paths, deps);
    return recorded;
  } catch (err) {
    rethrowNotLoaded(err);
    return result(
      undefined,
      [{ type: 'GovernanceError', error: (err as Error).message }],
      [`roz: could not record this change in .orchestration (${(err as Error).message}); the change itself went through.`],
    );
  }
}

/**
 * A client with no read tool (Codex) reads files in its shell: what a plain
 * `cat`/`sed -n`/`head` showed it counts as its read (core/governance/shell-reads.ts),
 * hashed from the disk by this hook, after the command ran.
 */
function rememberShellReads(gov: GovernanceState, post: HookInput<'PostToolUse'>, paths: ReturnType<typeof pathContext>, deps: GovernanceDeps): void {
  const command = post.tool_input.command;
  if (typeof command !== 'string') return;
  for (const file of shellReads(analysis(command))) {
    const real = resolvePath(file, paths).real;
    const h = hashFile(real);
    if (h) rememberFile(gov, real, h, 'read', deps.now);
  }
}

function bindFromMcpCall(gov: GovernanceState, input: HookInput<'PostToolUse'>, root: string, deps: GovernanceDeps): PolicyResult {
  const id = input.tool_input.intent_id;
  if (typeof id !== 'string') return result();
  const project = loadProject(root, deps);
  const intent = project.intents.ok ? project.intents.intents.find((i) => i.id === id) : undefined;
  if (!intent || intent.status !== 'IN_PROGRESS') return result(undefined, [{ type: 'IntentSelectionRejected', intent_id: id }]);
  selectIntent(gov, id, 'hook', deps.now);
  ensureAuditBase(gov, root, deps);
  return result(undefined, [{ type: 'IntentSelected', intent_id: id, via: 'hook' }]);
}

function onFailure(gov: GovernanceState, state: SessionState, input: HookInput<'PostToolUseFailure'>, root: string, deps: GovernanceDeps): PolicyResult {
  if (input.tool_name !== 'Bash' || input.is_interrupt) return result();
  const command = typeof input.tool_input.command === 'string' ? input.tool_input.command : '';
  const isTest = analysis(command).commands.some((c) => isTestArgv(c.argv));
  if (!isTest) return result();
  try {
    assertOrchestrationTrusted(state, root, 'the lesson');
    appendLesson(root, testFailureLesson(deps.now, gov.intent_id, command, input.error ?? '', state.session_id));
  } catch (err) {
    return result(
      undefined,
      [{ type: 'GovernanceError', error: (err as Error).message }],
      [`roz: could not record the failed test as a lesson (${(err as Error).message})`],
    );
  }
  return result(undefined, [{ type: 'LessonRecorded', why: 'test failure' }]);
}

// -------------------------------------------------------------- SessionStart

/** The intents the agent can select and the latest lessons, as additionalContext. */
export function governanceOnSessionStart(state: SessionState, input: HookInput<'SessionStart'>, deps: GovernanceDeps): PolicyResult {
  try {
    const gov = governanceOf(state);
    const model = (input as Record<string, unknown>).model;
    if (typeof model === 'string' && model) gov.model_id = model;
    const root = projectFor(gov, input.cwd, deps);
    if (!root) return result();
    const project = loadProject(root, deps);
    const lessons = latestLessons(readLessonsFile(root), LESSONS_FED_BACK);
    if (!project.intents.ok) {
      return result({
        kind: 'context',
        text:
          `roz intent governance: ${project.intentsFile} is invalid, so every file change will be refused until the human fixes it:\n` +
          formatProblems(project.intentsFile, project.intents.problems.slice(0, 5)),
      });
    }
    return result(
      { kind: 'context', text: sessionSummary(project.intents.intents, gov.intent_id, lessons) },
      [{ type: 'GovernanceOn', root, ...(project.intentsOrchestration ? { intents: project.intentsFile } : {}) }],
      [...refusedIgnoreWarning(project), ...refusedScopeWarning(project.intents.intents)],
    );
  } catch (err) {
    rethrowNotLoaded(err);
    return result(undefined, [], [`roz: could not load intents (${(err as Error).message})`]);
  }
}

// ------------------------------------------------------------- Review ISSUES

/** A reviewer recorded ISSUES: keep it as a lesson for the project. Call after `roz decide ... ISSUES`. */
export function governanceOnReviewIssues(state: SessionState, decision: { summary: string; message?: string }, deps: GovernanceDeps): PolicyResult {
  try {
    const gov = governanceOf(state);
    const root = projectFor(gov, state.cwd ?? deps.env.CLAUDE_PROJECT_DIR ?? process.cwd(), deps);
    if (!root) return result();
    assertOrchestrationTrusted(state, root, 'the lesson');
    appendLesson(root, reviewIssuesLesson(deps.now, gov.intent_id, decision.summary, decision.message, state.session_id));
    return result(undefined, [{ type: 'LessonRecorded', why: 'review issues' }]);
  } catch (err) {
    return result(undefined, [], [`roz: could not record the review lesson (${(err as Error).message})`]);
  }
}

// ------------------------------------------------------------- engine entry

/**
 * The governance answer for any hook event (events it does not handle answer
 * nothing). Throws only NotLoaded (core/on-demand.ts), for the engine to load and retry.
 */
export function runGovernance(event: HookEventName, state: SessionState, input: HookInput, deps: GovernanceDeps): PolicyResult {
  switch (event) {
    case 'SessionStart':
      return governanceOnSessionStart(state, input as HookInput<'SessionStart'>, deps);
    case 'PreToolUse':
      return governanceOnPreToolUse(state, input as HookInput<'PreToolUse'>, deps);
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return governanceOnPostToolUse(state, input as HookInput<'PostToolUse'> | HookInput<'PostToolUseFailure'>, deps);
    case 'Stop': {
      // The audit first: the unattributed changes it records belong in the map too.
      const out = governanceOnStop(state, input as HookInput<'Stop'>, deps);
      const warning = refreshStaleMap(state, input.cwd, deps);
      if (warning) out.warnings.push(warning);
      return out;
    }
    default:
      return result();
  }
}
