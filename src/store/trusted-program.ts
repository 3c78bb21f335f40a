// Programs roz runs for the human that are not git (`gh` for `roz agent push
// --pr`, `ssh` for a push): found without trusting a folder the agent writes.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/local/bin'] as const;

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

const inside = (p: string, dir: string): boolean => {
  const r = relative(dir, p);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

function executable(file: string): string | null {
  try {
    const real = realpathSync.native(file);
    const st = statSync(real);
    if (!st.isFile()) return null;
    accessSync(real, constants.X_OK);
    return file;
  } catch {
    return null;
  }
}

/** `name` in fixed system directories only (ssh): never PATH. */
export function trustedBinary(name: string): string | null {
  for (const dir of SYSTEM_DIRS) {
    const f = executable(`${dir}/${name}`);
    if (f) return f;
  }
  return null;
}

/**
 * `name` on the human's PATH with the project's folders taken out: every
 * relative entry (`.`, empty), and every entry inside one of `projectDirs`
 * (the repository's checkouts and git dir, the agents' worktrees) — where the
 * agent writes, as `node_modules/.bin` would be. A folder of the human's
 * (`~/.local/bin`) stays: advisory, an unconfined agent could write there too.
 */
export function programOnPath(name: string, pathEnv: string | undefined, projectDirs: readonly string[]): string | null {
  const roots = projectDirs.map(realOr);
  for (const dir of (pathEnv ?? '').split(':')) {
    if (!dir || !isAbsolute(dir)) continue;
    const real = realOr(dir);
    if (roots.some((root) => inside(real, root))) continue;
    const f = executable(`${dir}/${name}`);
    if (f) return realOr(f);
  }
  return null;
}
