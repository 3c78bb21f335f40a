// Where a path really points, even when it does not exist yet, the way the
// kernel walks it: component by component, each symlink replaced by its
// target *before* a later `..` is applied. Folding `..` first (path.resolve,
// path.normalize) is wrong as soon as a symlink is involved: with
// `src/l -> .`, `src/l/../.orchestration/x` is `.orchestration/x` to the
// kernel but `src/.orchestration/x` to path.resolve. Dangling links are
// followed too (writing through `link -> /elsewhere/new` creates
// /elsewhere/new), and names that do not exist yet are kept as given.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';

const MAX_LINKS = 40; // as the kernel's ELOOP bound

/** `p` made absolute against `cwd` without folding `..` (that is resolveReal's job). */
export function joinUnfolded(cwd: string, p: string): string {
  return isAbsolute(p) ? p : `${cwd}${cwd.endsWith(sep) ? '' : sep}${p}`;
}

const hasDotDot = (p: string): boolean => p === '..' || p.startsWith(`..${sep}`) || p.includes(`${sep}..${sep}`) || p.endsWith(`${sep}..`);

/**
 * The real absolute path `path` names. A relative `path` is taken from
 * process.cwd(). Never throws: a loop of links ends at the link it stopped on.
 */
export function resolveReal(path: string): string {
  return resolveAt(joinUnfolded(process.cwd(), path), 0);
}

function resolveAt(abs: string, depth: number): string {
  // Without `..`, normalising is safe and one realpath(3) of the longest existing prefix is enough.
  return hasDotDot(abs) ? walk(abs) : viaRealpath(normalize(abs), depth);
}

/** `p` (absolute, no `..`): realpath(3) of the longest existing prefix, following a dangling link at its end. */
function viaRealpath(p: string, depth: number): string {
  const rest: string[] = [];
  let at = p;
  for (;;) {
    try {
      // .native: one realpath(3) call; the JS version lstats each component (~1 ms a hook).
      return join(realpathSync.native(at), ...[...rest].reverse());
    } catch {
      // does not resolve: a dangling symlink, or a name that does not exist yet
    }
    try {
      if (depth < MAX_LINKS && lstatSync(at).isSymbolicLink()) {
        const target = joinUnfolded(dirname(at), readlinkSync(at));
        const below = [...rest].reverse().join(sep);
        return resolveAt(below ? `${target}${sep}${below}` : target, depth + 1);
      }
    } catch {
      /* does not exist */
    }
    const parent = dirname(at);
    if (parent === at) return p;
    rest.push(at.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    at = parent;
  }
}

/** `p` (absolute): component by component, links spliced in before any later `..`. */
function walk(p: string): string {
  // Components still to walk, last first (a stack).
  const todo = p
    .split(sep)
    .filter((c) => c && c !== '.')
    .reverse();
  let real: string = sep;
  let links = 0;
  while (todo.length > 0) {
    const c = todo.pop()!;
    if (c === '..') {
      real = dirname(real);
      continue;
    }
    const next = real === sep ? `${sep}${c}` : `${real}${sep}${c}`;
    let link: string | null = null;
    try {
      if (lstatSync(next).isSymbolicLink()) link = readlinkSync(next);
    } catch {
      /* does not exist (yet): taken as named */
    }
    if (link === null) {
      real = next;
      continue;
    }
    if (++links > MAX_LINKS) return resolve(next, ...todo.reverse());
    for (const t of link
      .split(sep)
      .filter((x) => x && x !== '.')
      .reverse())
      todo.push(t);
    if (isAbsolute(link)) real = sep;
  }
  return real;
}
