// Finding a program the way a trusted process of roz's may: on a PATH without
// the folders the agent can write. Relative entries (the cwd) and any inside
// the project go (`npx` and npm scripts put node_modules/.bin first), so a
// `claude`, `codex` or `git` an agent planted there is never what roz starts:
// the client roz launches, the real git behind roz's shim, the human's
// [notify] command, the reviewer roz starts at a stop.
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, sep } from 'node:path';

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

/** PATH without relative entries and without any folder inside `project` (links resolved). */
export function pathOutsideProject(path: string | undefined, project: string): string {
  const root = realOr(project);
  const inside = (d: string): boolean => d === root || d.startsWith(root.endsWith(sep) ? root : root + sep);
  return (path ?? '')
    .split(delimiter)
    .filter((d) => d && isAbsolute(d) && !inside(realOr(d)))
    .join(delimiter);
}

/** The executable `cmd` resolves to on PATH, or null: a clear error beats a child that dies at once. */
export function resolveExecutable(cmd: string, path: string | undefined): string | null {
  const ok = (p: string): boolean => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (cmd.includes('/')) return ok(cmd) ? cmd : null;
  for (const dir of (path ?? '').split(delimiter)) if (dir && ok(join(dir, cmd))) return join(dir, cmd);
  return null;
}
