// The scope audit after the fact: parsing cannot see every write (a build
// script, a program the agent wrote), so at Stop roz compares the worktree
// with the one it recorded when the intent was selected, and any change
// outside owned_scope that no judged tool call made blocks the stop.
// Pure: the engine takes the snapshots and diffs, this decides.
import { result, type PolicyResult } from '../verdict.js';
import type { AuditState } from './audit-state.js';
import type { Intent } from './intents.js';
import { scopeMatcher } from './scope.js';

/** Changed paths (project-relative) that are outside the scope and that no judged call wrote. */
export function unattributed(changed: readonly string[], intent: Intent, audit: AuditState, ignored: (rel: string) => boolean): string[] {
  const inScope = scopeMatcher(intent.owned_scope);
  const written = new Set(audit.written);
  return changed.filter((rel) => !rel.startsWith('.orchestration/') && !inScope(rel) && !written.has(rel) && !ignored(rel)).sort();
}

/** The Stop verdict for the files found: block once per set, then a visible warning. */
export function auditVerdict(files: readonly string[], intent: Intent, audit: AuditState): PolicyResult {
  if (files.length === 0) return result();
  const fingerprint = files.join('\n');
  const list =
    files
      .slice(0, 20)
      .map((f) => `  - ${f}`)
      .join('\n') + (files.length > 20 ? `\n  … and ${files.length - 20} more` : '');
  if (audit.flagged === fingerprint) {
    return result(
      undefined,
      [{ type: 'ScopeAuditRepeated', files }],
      [`roz: files changed outside the scope of intent ${intent.id} remain (stop no longer blocked for them; the human should look):\n${list}`],
    );
  }
  audit.flagged = fingerprint;
  return result(
    {
      kind: 'block',
      reason:
        `[SCOPE_VIOLATION] roz: since intent ${intent.id} was selected, these files changed outside its owned_scope (${intent.owned_scope.join(', ') || 'empty'}), ` +
        `and no tool call roz judged wrote them (a command whose writes roz could not see did):\n${list}\n` +
        'Revert them (`git checkout -- FILE` for tracked files, remove new ones) and redo the change inside the scope, ' +
        'or ask the human to approve them or widen the scope. They are recorded in .orchestration/agent_trace.jsonl as unattributed changes.',
    },
    [{ type: 'ScopeAudit', files, intent_id: intent.id }],
  );
}
