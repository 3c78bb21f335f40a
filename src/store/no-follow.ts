// Every file roz writes in the project or the store is written without
// following links. The agent can put a symlink (or a hard link) anywhere it
// can write: `.orchestration/CLAUDE.md -> ~/.bashrc` made roz's lesson append
// land in the user's shell start-up file. So a write names the directory roz
// means (`within`: the project root, the store) and the file below it; every
// component between them must be a real directory (lstat, created one by one
// when missing), the file itself is opened with O_NOFOLLOW, must be a regular
// file with one link, and (where /proc shows it) the opened file must sit
// exactly where roz meant. `within` itself is trusted as given: it is the
// user's choice (a store or home reached through a link is fine).
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/** A write roz refused because a link or something else than a directory stood in its way. */
export class LinkedPathError extends Error {
  override name = 'LinkedPathError';
  readonly code = 'ELINKED';
}

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

/**
 * An absolute POSIX path with nothing to normalize (no `.`, `..`, `//` or
 * trailing `/`): for two of these, path.relative is a prefix test. It costs a
 * hook 0.9M instructions per write (two path.resolve calls per relative, three
 * relatives per write, and compiling them), for an answer the strings give.
 */
const plain = (p: string): boolean =>
  sep === '/' &&
  p.startsWith('/') &&
  (p === '/' || (!p.endsWith('/') && !p.endsWith('/.') && !p.endsWith('/..') && !p.includes('//') && !p.includes('/./') && !p.includes('/../')));

/** path.relative(within, path), by prefix when both are plain. */
export function relativeTo(within: string, path: string): string {
  if (!plain(within) || !plain(path)) return relative(within, path);
  if (path === within) return '';
  const prefix = within === '/' ? '/' : `${within}/`;
  // Outside: relative() would start with '..'; any such answer is refused the same way below.
  return path.startsWith(prefix) ? path.slice(prefix.length) : '..';
}

/** The components of `path` below `within`, or a LinkedPathError when it is not inside. */
function below(within: string, path: string): string[] {
  const rel = relativeTo(within, path);
  if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`))
    throw new LinkedPathError(`${path} is not inside ${within}; roz writes only there`);
  return rel.split(sep).filter((c) => c && c !== '.');
}

/**
 * Make sure `dir` (inside `within`, or `within` itself) is a chain of real
 * directories, creating the missing ones with `mode`. Returns its real path.
 */
export function checkedDir(within: string, dir: string, opts: { create?: boolean; mode?: number } = {}): string {
  let at = realOr(within);
  if (relativeTo(within, dir) === '') return at;
  for (const c of below(within, dir)) {
    const next = join(at, c);
    let st;
    try {
      st = lstatSync(next);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || opts.create === false) throw err;
      try {
        mkdirSync(next, opts.mode === undefined ? undefined : { mode: opts.mode });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      st = lstatSync(next);
    }
    if (st.isSymbolicLink()) throw new LinkedPathError(`${next} is a symbolic link; roz does not write through links`);
    if (!st.isDirectory()) throw new LinkedPathError(`${next} is not a directory`);
    at = next;
  }
  return at;
}

/** Where /proc says an open descriptor is; null where there is no /proc (macOS). */
function openedAt(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * Open `file` (inside `within`) for writing with `flags` plus O_NOFOLLOW and
 * O_NONBLOCK (a FIFO there fails instead of waiting). The caller closes the
 * descriptor (`real`: the path it was opened at). Refuses a link at any component, anything but a regular file,
 * and a file with other hard links (the same file under another name, maybe
 * outside).
 */
export function openNoFollow(within: string, file: string, flags: number, mode = 0o644, dirMode?: number): { fd: number; real: string } {
  const parts = below(within, file);
  const name = parts.pop()!;
  const dir = checkedDir(within, join(within, ...parts), { mode: dirMode });
  const target = join(dir, name);
  let fd: number;
  try {
    fd = openSync(target, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
  } catch (err) {
    // ELOOP is what O_NOFOLLOW answers for a link (EMLINK on FreeBSD).
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new LinkedPathError(`${target} is a symbolic link; roz does not write through links`);
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new LinkedPathError(`${target} is not a regular file; roz writes only to one`);
    if (st.nlink > 1) throw new LinkedPathError(`${target} has ${st.nlink} hard links (the same file under other names); roz does not write to it`);
    const at = openedAt(fd);
    // A directory swapped for a link between the checks and the open.
    if (at !== null && at !== target) throw new LinkedPathError(`${target} opened as ${at}; roz does not write through links`);
    return { fd, real: target };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
