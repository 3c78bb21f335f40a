// Where a path really points, even when it does not exist yet: symlinks of the
// longest existing prefix are resolved, and so are dangling links (writing
// through `link -> /elsewhere/new` creates /elsewhere/new).
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

export function resolveReal(path: string, depth = 0): string {
  let p = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      // .native: one realpath(3) call; the JS version lstats each component (~1 ms a hook).
      return join(realpathSync.native(p), ...rest.reverse());
    } catch {
      // p does not resolve: a dangling symlink, or a name that does not exist yet.
    }
    try {
      if (depth < 40 && lstatSync(p).isSymbolicLink()) {
        const target = resolve(dirname(p), readlinkSync(p));
        return resolveReal(join(target, ...[...rest].reverse()), depth + 1);
      }
    } catch {
      /* does not exist */
    }
    const parent = dirname(p);
    if (parent === p) return path;
    rest.push(p.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    p = parent;
  }
}
