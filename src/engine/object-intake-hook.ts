// The hooks' part in taking the agent's git objects into the repository
// (store/object-intake.ts): after every event but PreToolUse (whose cost is
// the agent's latency; a gated call's snapshot takes them in itself), when
// the session's repository has a staging store with something in it. The
// intake module (zlib, git) is loaded only then.
import type { GitIdentity } from '../core/git-identity.js';
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
