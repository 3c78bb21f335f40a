// The staging store of a repository as the launcher makes it and the intake
// checks it (store/object-staging.ts says where it is; store/object-intake.ts
// takes from it). The git directory is read from the file system
// (git-repo.ts), never from git.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { GitIdentity } from '../core/git-identity.js';
import { identityChange, repoOf } from './git-repo.js';
import { STAGING_NAME } from './object-staging.js';
import { resolveReal } from './realpath.js';

export interface StagingPlace {
  /** The git directory (a linked worktree's admin dir, or `.git`). */
  gitDir: string;
  /** The shared git directory: its `objects/` is the repository's. */
  commonDir: string;
  /** `<gitDir>/roz-objects`. */
  staging: string;
  /** `<commonDir>/objects`. */
  objects: string;
}

/** The staging place of the repository holding `dir`, whether or not it exists yet; null outside git. */
export function stagingPlace(dir: string, expect?: GitIdentity | null): StagingPlace | null {
  const found = repoOf(dir);
  if (!found.ok) return null;
  // A `.git` the agent replaced since the session started names a repository that is not the session's.
  if (expect && identityChange(expect, found.id)) return null;
  const gitDir = resolveReal(found.id.git_dir);
  const commonDir = resolveReal(found.id.common_dir);
  return { gitDir, commonDir, staging: join(gitDir, STAGING_NAME), objects: join(commonDir, 'objects') };
}

/** The launcher: make the staging store (its `pack/` and `info/` too, as git expects of an object directory). */
export function prepareStaging(dir: string): StagingPlace | null {
  const place = stagingPlace(dir);
  if (!place || !existsSync(place.objects)) return null;
  for (const sub of ['pack', 'info']) mkdirSync(join(place.staging, sub), { recursive: true });
  return place;
}
