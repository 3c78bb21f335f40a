// roz writes the ledger, the lessons and the intent map only into an
// `.orchestration/` that was there when the session began. The client's
// sandbox cannot protect a path that does not exist yet, so in a project
// without one the agent can make `.orchestration/` (and active_intents.yaml,
// to switch governance on) with links inside it; roz's hooks, outside the
// sandbox, would then write where the agent chose. Such a folder is refused
// for roz's writes and the human is told; reads (intents as data) go on.
import type { SessionState } from '../../core/session-state.js';
import { orchestrationBirth, orchestrationIdentity, orchestrationPaths } from '../../store/project-root.js';
import { resolveReal } from '../../store/realpath.js';

export class OrchestrationRefused extends Error {
  override name = 'OrchestrationRefused';
}

/** Why roz must not write into `root`'s `.orchestration/`, or null when it may. */
export function orchestrationUntrusted(state: SessionState, root: string): string | null {
  const now = orchestrationIdentity(root);
  const dir = orchestrationPaths(root).dir;
  if (now === 'link') return `${dir} is a symbolic link (or not a directory)`;
  if (now === null) return `${dir} does not exist`;
  const seen = state.orchestration_at_start ?? {};
  const real = resolveReal(root);
  if (real in seen) {
    const then = seen[real];
    if (then === now) return null;
    return then === null ? `${dir} did not exist when this session started (it appeared during the session)` : `${dir} was replaced during this session`;
  }
  // A project the session had not seen at its start (the agent cd'd into it): only one older than the session.
  const born = orchestrationBirth(root);
  if (born !== null && born < Date.parse(state.created_at)) return null;
  return `${dir} was not there when this session started${born === null ? ' (or its age cannot be told)' : ''}`;
}

/** Throws OrchestrationRefused, with a message for the human, when roz must not write there. */
export function assertOrchestrationTrusted(state: SessionState, root: string, what: string): void {
  const why = orchestrationUntrusted(state, root);
  if (why)
    throw new OrchestrationRefused(
      `refused to write ${what}: ${why}. roz writes only into an .orchestration/ that was there when the session began, so links the agent made there cannot send roz's writes elsewhere (advisory for this folder: restart the session to use it)`,
    );
}
