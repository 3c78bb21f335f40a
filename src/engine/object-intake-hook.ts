// The hooks' part in taking the agent's git objects into the repository
// (store/object-intake.ts): after every event but PreToolUse (whose cost is
// the agent's latency; the PostToolUse of the command that wrote them comes
// right after it), when the session's repository has a staging store with
// something in it. Only the look is here, on every hook's path; the intake
// and what it says (zlib, git) load only when something waits.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GitIdentity } from '../core/git-identity.js';
import { OPERATIONS_IN_PROGRESS, stagingHasWork } from '../store/object-staging.js';
import type { TraceRecord } from '../store/session-store.js';

export interface ObjectIntakeReport {
  warnings: string[];
  trace: (ts: string, sessionId: string) => TraceRecord[];
}

const NOTHING: ObjectIntakeReport = { warnings: [], trace: () => [] };

/**
 * `staging`: the session's staging store (store/object-staging.ts stagingDirOf), found once per hook for both looks here. `identity`: the repository the session started with (null when it had
 * none, undefined when unknown); a `.git` replaced since then is not taken from.
 */
export async function takeAgentObjects(
  dir: string,
  staging: string | null,
  storeRoot: string,
  identity: () => GitIdentity | null | undefined,
): Promise<ObjectIntakeReport> {
  if (!staging || !stagingHasWork(staging)) return NOTHING;
  const expect = identity();
  if (expect === null) return NOTHING;
  return (await import('../store/object-intake.js')).hookIntake(dir, storeRoot, expect);
}

/**
 * At a stop of an agent roz launched in the main checkout (it has a staging
 * store): an operation it left in progress there is the human's to continue,
 * outside every sandbox; store/object-intake.ts operationLeft says so.
 */
export async function operationLeftWarning(dir: string, staging: string | null): Promise<string | null> {
  if (!staging || !existsSync(staging)) return null;
  const gitDir = dirname(staging);
  if (!OPERATIONS_IN_PROGRESS.some((p) => existsSync(join(gitDir, p)))) return null;
  return (await import('../store/object-intake.js')).operationLeft(dir, gitDir);
}
