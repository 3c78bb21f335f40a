// The hooks' part in taking the agent's git objects into the repository
// (store/object-intake.ts): after every event but PreToolUse (whose cost is
// the agent's latency; a gated call's snapshot takes them in itself), when
// the session's repository has a staging store with something in it. The
// intake module (zlib, git) is loaded only then.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GitIdentity } from '../core/git-identity.js';
import { readOptionalText } from '../store/regular-file.js';
import { stagingDirOf, stagingHasWork } from '../store/object-staging.js';
import type { TraceRecord } from '../store/session-store.js';

export interface ObjectIntakeReport {
  warnings: string[];
  trace: (ts: string, sessionId: string) => TraceRecord[];
}

const NOTHING: ObjectIntakeReport = { warnings: [], trace: () => [] };

/**
 * `identity`: the repository the session started with (null when it had
 * none, undefined when unknown); a `.git` replaced since then is not taken from.
 */
export async function takeAgentObjects(dir: string, storeRoot: string, identity: () => GitIdentity | null | undefined): Promise<ObjectIntakeReport> {
  const staging = stagingDirOf(dir);
  if (!staging || !stagingHasWork(staging)) return NOTHING;
  const expect = identity();
  if (expect === null) return NOTHING;
  const { intakeAt, forgedMessage } = await import('../store/object-intake.js');
  const r = intakeAt(dir, storeRoot, expect);
  if (!r) return NOTHING;
  const warnings = [...r.forged.map(forgedMessage), ...r.problems.map((p) => `roz: git objects: ${p}`)];
  return {
    warnings,
    trace: (ts, sessionId) => [
      ...(r.taken || r.packs ? [{ ts, event: 'roz:ObjectsTaken', session_id: sessionId, objects: r.taken, packs: r.packs }] : []),
      ...r.forged.map((f) => ({ ts, event: 'roz:ForgedObjectRefused', session_id: sessionId, object: f.id, content_hash: f.real, kept: f.kept })),
    ],
  };
}

/** Operation state of the main checkout that the human's next git command continues (docs/security.md). */
const IN_PROGRESS: { path: string; what: string; todo?: string; resume: string }[] = [
  { path: 'rebase-merge', what: 'a rebase', todo: 'rebase-merge/git-rebase-todo', resume: 'git rebase --continue' },
  { path: 'rebase-apply', what: 'a rebase (apply)', resume: 'git rebase --continue' },
  { path: 'sequencer', what: 'a cherry-pick or revert', todo: 'sequencer/todo', resume: 'git cherry-pick --continue' },
  { path: 'MERGE_HEAD', what: 'a merge', resume: 'git commit' },
];

/**
 * At a stop of an agent roz launched in the main checkout (it has a staging
 * store): an operation it left in progress is the human's to continue, outside
 * every sandbox, so say so, and name the `exec` lines a todo would run. The
 * agent works in the human's checkout by design; this is what it leaves there.
 */
export function operationLeftWarning(dir: string): string | null {
  const staging = stagingDirOf(dir);
  if (!staging || !existsSync(staging)) return null;
  const gitDir = dirname(staging);
  for (const op of IN_PROGRESS) {
    if (!existsSync(join(gitDir, op.path))) continue;
    const todo = op.todo ? (readOptionalText(join(gitDir, op.todo), 256 * 1024) ?? '') : '';
    const execs = todo
      .split('\n')
      .filter((l) => /^\s*(x|exec)\s/.test(l))
      .map((l) => l.trim());
    const runs = execs.length
      ? ` Its todo runs ${execs.length} command${execs.length === 1 ? '' : 's'} outside the sandbox when continued: ${execs.slice(0, 3).join('; ').slice(0, 300)}${execs.length > 3 ? '; …' : ''}.`
      : '';
    return `roz: the agent left ${op.what} in progress in ${dir}; \`${op.resume}\` continues it as you, outside the sandbox.${runs} Read ${join(gitDir, op.todo ?? op.path)} first, or abort it.`;
  }
  return null;
}
