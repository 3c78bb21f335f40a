// PreToolUse: intent governance gates a tool call (scope, stale files, the
// destructive guard, `roz intent select` in Bash, adopting a pending
// selection). Fails closed: an internal error on a call that may change
// files denies it.
import { resolve as resolveAbs } from 'node:path';
import type { HookInput } from '../../core/hook-input.js';
import type { SessionState } from '../../core/session-state.js';
import { result, type PolicyResult, type TraceNote } from '../../core/verdict.js';
import type { Intent } from '../../core/governance/intents.js';
import { FILE_TOOLS, type WriteAnalyzer } from '../../core/governance/mutations.js';
import { intentsOnPreToolUse, type GovernanceContext, type ProjectView } from '../../core/governance/policy.js';
import { SELECT_HOW } from '../../core/governance/render.js';
import { intentSelectCall } from '../../core/governance/select-call.js';
import { governanceOf, selectIntent, type GovernanceState } from '../../core/governance/state.js';
import { rethrowNotLoaded } from '../../core/on-demand.js';
import { filesOfGitMove } from '../../store/git-moves.js';
import { snapshotModule } from '../snapshots.js';
import { resolveReal } from '../../store/realpath.js';
import { takePendingSelection } from '../../store/selections.js';
import { analysis, destructiveVerdict, writeReport } from '../shell-view.js';
import { ensureAuditBase, holdBeforeAsk } from './audit.js';
import { type GovernanceDeps, hashFile, loadProject, pathContext, projectFor, tempDirs } from './project.js';

/**
 * Git moves (`git stash`, `git switch REF`) in the session's repository become
 * the exact files they change; in another repository (a nested one), anything
 * under its top; where roz cannot say, the whole-tree target stays.
 */
function withGitMoves(analyze: WriteAnalyzer, cwd: string, root: string, deps: GovernanceDeps): WriteAnalyzer {
  return (command) => {
    const report = analyze(command);
    if (!report.targets.some((t) => t.git)) return report;
    const targets = report.targets.flatMap((t) => {
      if (!t.git) return [t];
      const moved = filesOfGitMove(resolveAbs(cwd, t.path), t.git, {
        projectDir: deps.env.CLAUDE_PROJECT_DIR || root,
        storeDir: deps.storeRoot,
        expect: deps.gitIdentity?.() ?? null,
        // Loaded on demand (NotLoaded reruns the update): only `git stash` in the project hashes the work tree.
        snapshot: (...args) => snapshotModule().takeSnapshot(...args),
      });
      if (moved === null) return [t];
      if ('under' in moved) return [{ ...t, path: moved.under, via: t.via.replace(/ \(.*\)$/, ' (anything in the repository it runs in)') }];
      return moved.files.map((path) => ({ path, via: t.via.replace(/ \(.*\)$/, ' (a file it changes)') }));
    });
    return { ...report, targets };
  };
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A selection made by the MCP server or CLI without a session id: the first hook of this project adopts it. */
function adoptPending(gov: GovernanceState, root: string, sessionId: string, deps: GovernanceDeps, intents: readonly Intent[] | null): TraceNote[] {
  const sel = takePendingSelection(deps.storeRoot, root, sessionId, deps.now);
  if (!sel) return [];
  const intent = intents?.find((i) => i.id === sel.intent_id);
  if (!intent || intent.status !== 'IN_PROGRESS') return [{ type: 'IntentAdoptionSkipped', intent_id: sel.intent_id }];
  selectIntent(gov, sel.intent_id, 'adopted', deps.now);
  return [{ type: 'IntentSelected', intent_id: sel.intent_id, via: 'adopted', from: sel.via }];
}

/** Gate a tool call. Any internal error on a call that may change files denies it (HOOK_ERROR). */
export function governanceOnPreToolUse(state: SessionState, input: HookInput<'PreToolUse'>, deps: GovernanceDeps): PolicyResult {
  try {
    const gov = governanceOf(state);
    const root = projectFor(gov, input.cwd, deps);
    if (!root) return result();
    const project = loadProject(root, deps);
    const selecting = selectFromBash(gov, state.session_id, input, project, deps);
    if (selecting) return selecting;
    const adopted = adoptPending(gov, root, state.session_id, deps, project.intents.ok ? project.intents.intents : null);
    const ctx: GovernanceContext = {
      project,
      paths: pathContext(project, input.cwd, deps, state.session_id),
      storeRoot: resolveReal(deps.storeRoot),
      writes: withGitMoves(deps.writeTargets ?? writeReport, input.cwd, root, deps),
      destructive: deps.classifyDestructive ?? destructiveVerdict,
      hashFile,
      guard: deps.guard ?? 'ask',
      tempDirs: deps.allowTempWrites === false ? [] : tempDirs(deps.env),
    };
    ensureAuditBase(gov, root, deps);
    const out = intentsOnPreToolUse(gov, input, ctx);
    if (out.verdict.kind === 'ask') holdBeforeAsk(gov.audit, input, root, deps);
    return { ...out, notes: [...adopted, ...out.notes] };
  } catch (err) {
    rethrowNotLoaded(err);
    const mayWrite = FILE_TOOLS.has(input.tool_name) || input.tool_name === 'Bash';
    const why = (err as Error).message ?? String(err);
    if (!mayWrite) return result(undefined, [{ type: 'GovernanceError', error: why }], [`roz: governance error (tool allowed, it changes no files): ${why}`]);
    return result(
      {
        kind: 'deny',
        code: 'HOOK_ERROR',
        reason:
          `roz: intent governance failed while checking this ${input.tool_name} call (${clip(why, 300)}), and file changes are refused when it cannot decide. ` +
          'Try again; if it keeps failing, tell the human (roz debug shows the session).',
      },
      [{ type: 'GovernanceError', error: why }],
    );
  }
}

/**
 * `roz intent select ID` in the agent's Bash: recorded here, by the hook, and
 * the command allowed (it then only reports). Overrides are refused
 * (core/governance/select-call.ts). Null: not such a call.
 */
function selectFromBash(
  gov: GovernanceState,
  sessionId: string,
  input: HookInput<'PreToolUse'>,
  project: ProjectView,
  deps: GovernanceDeps,
): PolicyResult | null {
  if (input.tool_name !== 'Bash' || typeof input.tool_input.command !== 'string' || !input.tool_input.command.includes('select')) return null;
  const argvs = analysis(input.tool_input.command).commands.map((c) => c.argv);
  const call = intentSelectCall(argvs, sessionId);
  if (call.kind === 'none') return null;
  const refuse = (why: string): PolicyResult =>
    result({ kind: 'deny', code: 'INTENT_REQUIRED', reason: `roz: \`roz intent select\` refused: ${why}. ${SELECT_HOW}.` }, [
      { type: 'IntentSelectionRejected', why },
    ]);
  if (call.kind === 'refuse') return refuse(call.why);
  if (!project.intents.ok) return refuse(`${project.intentsFile} is invalid`);
  const intent = project.intents.intents.find((i) => i.id === call.intentId);
  if (!intent || intent.status !== 'IN_PROGRESS') {
    const open = project.intents.intents.filter((i) => i.status === 'IN_PROGRESS').map((i) => i.id);
    return refuse(`${call.intentId} is ${intent ? intent.status : 'not in ' + project.intentsFile} (IN_PROGRESS: ${open.join(', ') || 'none'})`);
  }
  selectIntent(gov, intent.id, 'hook', deps.now);
  return result({ kind: 'allow', reason: `roz: intent ${intent.id} selected for this session (recorded by roz's hook)` }, [
    { type: 'IntentSelected', intent_id: intent.id, via: 'hook' },
  ]);
}
