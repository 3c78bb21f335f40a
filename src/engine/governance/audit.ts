// The Stop-time scope audit: the worktree is snapshotted when an intent is
// selected (and before an asked Bash call), and at Stop whatever changed
// outside the intent's scope that no judged call wrote blocks the stop once.
// Fails safe: git trouble is a warning. Snapshots are roz's own
// (store/tree-snapshot.ts), of the `.git` the session started with.
import { join as joinPath, relative as relativePath, sep } from 'node:path';
import type { HookInput } from '../../core/hook-input.js';
import type { SessionState } from '../../core/session-state.js';
import { result, type PolicyResult } from '../../core/verdict.js';
import { remember, type AuditState } from '../../core/governance/audit-state.js';
import { auditVerdict, unattributed } from '../../core/governance/audit.js';
import { resolvePath } from '../../core/governance/scope.js';
import { governanceOf, type GovernanceState } from '../../core/governance/state.js';
import { rethrowNotLoaded } from '../../core/on-demand.js';
import type { TreeSnapshot } from '../../core/review/state.js';
import { snapshotModule } from '../snapshots.js';
import { type GovernanceDeps, loadProject, pathContext, projectFor } from './project.js';
import { appendUnattributed } from './records.js';

interface Snap {
  tree: TreeSnapshot | null;
  top: string | null;
  error: string | null;
}

function snapshot(root: string, deps: GovernanceDeps): Snap {
  const r = snapshotModule().takeSnapshot(root, deps.storeRoot, { now: deps.now, expect: deps.gitIdentity?.() ?? null });
  return r.ok ? { tree: r.snapshot, top: r.top, error: null } : { tree: null, top: null, error: r.error };
}

/** Record the worktree as the audit's base when an intent is (newly) selected; no-op outside git. */
export function ensureAuditBase(gov: GovernanceState, root: string, deps: GovernanceDeps): void {
  if (!gov.intent_id || gov.audit?.intent_id === gov.intent_id) return;
  gov.audit = { intent_id: gov.intent_id, base: snapshot(root, deps).tree, written: [], pending: null, flagged: null };
}

/** Paths changed between two trees, relative to the project root (the git top may be above it). */
function changedInProject(root: string, top: string, from: string, to: string, deps: GovernanceDeps): string[] | null {
  const changed = snapshotModule().changedBetween(deps.storeRoot, from, to);
  if (changed === null) return null;
  const out: string[] = [];
  for (const p of changed) {
    const rel = relativePath(root, joinPath(top, p)).split(sep).join('/');
    if (rel !== '' && !rel.startsWith('../') && rel !== '..') out.push(rel);
  }
  return out;
}

/** A Bash call about to be asked: remember the worktree, so what it changes is attributed to it once it ran. */
export function holdBeforeAsk(audit: AuditState | null, input: HookInput<'PreToolUse'>, root: string, deps: GovernanceDeps): void {
  if (!audit?.base || input.tool_name !== 'Bash' || !input.tool_use_id) return;
  const tree = snapshot(root, deps).tree;
  audit.pending = tree ? { tool_use_id: input.tool_use_id, tree } : null;
}

/** After an asked Bash call ran (so a human let it): its changes count as judged. */
export function attributeAsked(audit: AuditState | null, input: HookInput<'PostToolUse'>, root: string, deps: GovernanceDeps): void {
  const pending = audit?.pending;
  if (!audit || !pending || pending.tool_use_id !== input.tool_use_id) return;
  audit.pending = null;
  const now = snapshot(root, deps);
  const changed = now.tree && now.top ? changedInProject(root, now.top, pending.tree.tree, now.tree.tree, deps) : null;
  if (changed) remember(audit, changed);
}

/**
 * At Stop: files changed since the intent's base, outside its scope, that no
 * judged call wrote, block the stop once (SCOPE_VIOLATION) and are recorded in
 * the ledger as unattributed. Fails safe: git trouble is a warning.
 */
export function governanceOnStop(state: SessionState, input: HookInput<'Stop'>, deps: GovernanceDeps): PolicyResult {
  try {
    const gov = governanceOf(state);
    const audit = gov.audit;
    if (!gov.intent_id || !audit?.base || audit.intent_id !== gov.intent_id) return result();
    const root = projectFor(gov, input.cwd, deps);
    if (!root) return result();
    const project = loadProject(root, deps);
    const intent = project.intents.ok ? project.intents.intents.find((i) => i.id === gov.intent_id) : undefined;
    if (!intent) return result();
    const now = snapshot(root, deps);
    const changed = now.tree && now.top ? changedInProject(root, now.top, audit.base.tree, now.tree.tree, deps) : null;
    if (changed === null)
      return result(
        undefined,
        [{ type: 'AuditUnreadable', error: now.error ?? 'git could not compare the trees' }],
        [
          `roz: the scope audit could not read the worktree (${now.error ?? 'git could not compare the trees'}); changes outside the scope were not checked at this stop`,
        ],
      );
    const paths = pathContext(project, root, deps, state.session_id);
    const files = unattributed(changed, intent, audit, (rel) => project.ignored(resolvePath(rel, paths)));
    const out = auditVerdict(files, intent, audit);
    if (out.verdict.kind === 'block') {
      try {
        out.notes.push(appendUnattributed(state, gov, root, files, deps));
      } catch (err) {
        rethrowNotLoaded(err);
        out.warnings.push(`roz: could not record the unattributed changes in the ledger (${(err as Error).message})`);
      }
    }
    return out;
  } catch (err) {
    rethrowNotLoaded(err);
    return result(
      undefined,
      [{ type: 'GovernanceError', error: (err as Error).message }],
      [`roz: the scope audit failed at this stop: ${(err as Error).message}`],
    );
  }
}
