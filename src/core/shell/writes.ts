// Which paths a command line may create, modify or delete, as written, with `cd` applied.
import { analyzeCommand } from './commands.js';
import { isScratchPath } from './scratch.js';
import { lazyWriterName } from './effects-hint.js';
import { OPERAND_WRITERS, WRITERS, type GitMove, type WriteExtractor, type WriteSink } from './write-rules.js';
import type { ShellAnalysis, ShellRedirect, SimpleCommand } from './types.js';

/** A path the command may write: relative to the caller's cwd, absolute, or `~`-prefixed. */
export interface WriteTarget {
  path: string;
  /** What writes it: `>`, `tee`, `cp`, `sed -i`, `npm install (manifest/lockfile/dependency dir)`... */
  via: string;
  /** Anything below `path` may change (`git stash`, `wget -r`): in scope only if the scope covers the whole directory. */
  tree?: true;
  /** For a git move: what the caller may ask git, to replace the tree with the exact files. */
  git?: GitMove;
  /** `$TMPDIR/x`, `${TMPDIR:-/tmp}/x`: inside a scratch area whose value only the shell knows (path is as written). */
  temp?: true;
}

/** A write (or a part of the command) whose target cannot be determined statically. */
export interface UnknownWrite {
  command: string;
  why: string;
}

export interface WriteReport {
  targets: WriteTarget[];
  unknown: UnknownWrite[];
  /** The command may write something (a known target, or an unknown write). Parse trouble alone is not a write. */
  writes: boolean;
  /** A command's writer lives in the on-demand effects module (lazy-writers.ts), not loaded: load it and ask again. */
  needsEffects?: true;
}

/** Write extractors of rarely run programs (lazy-writers.ts), installed with the effects module by core/on-demand.ts. */
let lazyWriters: Readonly<Record<string, WriteExtractor>> | undefined;
export function installLazyWriters(w: Readonly<Record<string, WriteExtractor>> | undefined): void {
  lazyWriters = w;
}

/** Redirection operators that open their target for writing. */
const WRITE_OPS: ReadonlySet<ShellRedirect['op']> = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

/** Targets that are not files on disk. */
const NOT_A_FILE = /^\/dev\/(?:null|zero|stdout|stderr|stdin|tty|fd\/\d+)$/;

/** A directory as tracked through `cd`: known (possibly '' = caller's cwd), or unknown with the reason. */
type Cwd = { dir: string } | { why: string };

const START: Cwd = { dir: '' };

/** What the command line may write. Pure: the caller resolves paths against the real cwd/filesystem. */
export function writeTargets(source: string): WriteReport {
  return writeTargetsOf(analyzeCommand(source));
}

/** writeTargets for an analysis the caller already has. */
export function writeTargetsOf(analysis: ShellAnalysis): WriteReport {
  const report: WriteReport = { targets: [], unknown: [], writes: false };
  const seen = new Set<string>();
  const scopes = new Map<number, Cwd>([[-1, START]]);

  for (const error of analysis.errors) {
    report.unknown.push({ command: '(whole command)', why: `could not fully parse the command: ${error.message}` });
  }

  for (const cmd of analysis.commands) {
    const scope = scopeOf(cmd, scopes);
    const cwd = scopes.get(scope) ?? START;
    const label = cmd.argv.length > 0 ? cmd.argv.join(' ') : cmd.text;
    let within: Cwd | undefined;

    const addUnknown = (why: string): void => {
      report.writes = true;
      report.unknown.push({ command: label, why });
    };
    const add = (path: string, via: string, dynamic: boolean, glob: boolean, tree = false, git?: GitMove): void => {
      report.writes = true;
      if (dynamic) {
        // `$TMPDIR/x` names a scratch area; a command that sets TMPDIR itself is not read that way.
        const setsTemp = cmd.assignments.some((a) => (a.name === 'TMPDIR' || a.name === 'CLAUDE_CODE_TMPDIR') && (a.dynamic || !isScratchPath(a.value)));
        if (!glob && !setsTemp && isScratchPath(path)) {
          report.targets.push({ path, via, temp: true });
          return;
        }
        return addUnknown(`${via} writes ${path}, which is not known statically`);
      }
      if (glob) {
        // `rm src/*.log`: whatever the pattern matches lies under its literal directory part.
        const dir = globDir(path);
        if (dir === undefined) return addUnknown(`${via} writes ${path}, a pattern that may match any file there`);
        path = dir;
        via = `${via} (files matching a pattern under this directory)`;
        tree = true;
      }
      const base = within === undefined ? cwd : join(cwd, within);
      if (!('dir' in base) && !isAbsolute(path)) return addUnknown(`${via} writes ${path} relative to a directory that is not known (${base.why})`);
      const resolved = 'dir' in base ? joinPath(base.dir, path) : path;
      const key = `${resolved}\0${via}`;
      if (seen.has(key)) return;
      seen.add(key);
      report.targets.push(tree ? { path: resolved, via, tree: true, ...(git ? { git } : {}) } : { path: resolved, via });
    };
    // `env --chdir DIR cmd`: the command's relative paths start there.
    if (cmd.chdir !== undefined) within = cmd.chdir.dynamic ? { why: `env --chdir ${cmd.chdir.path}` } : { dir: cmd.chdir.path };

    if (cmd.opaque !== undefined) addUnknown(cmd.opaque);
    if (cmd.argv.length > 0 && cmd.dynamic[0] === true) addUnknown('the command name is not known statically');

    for (const r of cmd.redirects) {
      if (!isWriteRedirect(r) || NOT_A_FILE.test(r.target)) continue;
      add(r.target, r.op, r.dynamic, r.glob);
    }

    // A function runs in the caller's shell: a `cd` inside it moves whoever calls it, so after
    // its definition no relative path of the caller can be trusted. `source` may `cd` too.
    if ((cmd.name === 'cd' || cmd.name === 'pushd' || cmd.name === 'popd') && cmd.nesting.some((f) => f.kind === 'function')) {
      for (const key of scopes.keys()) scopes.set(key, { why: 'a shell function changes directory' });
      continue;
    }
    if (cmd.name === 'source' || cmd.name === '.') {
      scopes.set(scope, { why: `${cmd.name} runs a script that may change directory` });
      continue;
    }
    if (cmd.name === 'cd' || cmd.name === 'pushd') {
      scopes.set(scope, changeDir(cwd, cmd));
      continue;
    }
    if (cmd.name === 'popd') {
      scopes.set(scope, { why: 'popd returns to a directory from the stack' });
      continue;
    }

    if (cmd.findDelete) {
      for (const root of findRoots(cmd)) add(root.path, 'find -delete (deletes matches under this directory)', root.dynamic, false, true);
    }

    let extractor = WRITERS[cmd.name];
    if (extractor === undefined && lazyWriterName(cmd.name)) {
      extractor = lazyWriters?.[cmd.name];
      if (extractor === undefined) {
        // Not loaded: fail closed (a write roz cannot name) for a caller that does not load it.
        report.needsEffects = true;
        addUnknown(`roz's writer for ${cmd.name} is not loaded`);
        continue;
      }
    }
    if (extractor === undefined) continue;
    const sink: WriteSink = {
      path: (path, via, i) => add(path, via, i !== undefined && cmd.dynamic[i] === true, i !== undefined && cmd.glob[i] === true),
      tree: (dir, via, git) => add(dir, via, false, false, true, git),
      unknown: addUnknown,
      within: (dir, i) => {
        within = i !== undefined && cmd.dynamic[i] === true ? { why: `${dir} is not known statically` } : { dir };
      },
    };
    const before = report.targets.length + report.unknown.length;
    extractor(cmd, sink);
    const wrote = report.targets.length + report.unknown.length > before;
    if (cmd.argsFromStdin && (wrote || OPERAND_WRITERS.has(cmd.name))) addUnknown(`${cmd.name} gets further arguments from stdin`);
  }
  return report;
}

/** The directory a glob's matches live under (`src/*.log` → `src`, `*.ts` → `.`), when no directory part is a pattern. */
function globDir(path: string): string | undefined {
  const slash = path.lastIndexOf('/');
  const dir = slash === -1 ? '.' : path.slice(0, slash) || '/';
  if (/[*?[\]{}]/.test(dir) || /(?:^|\/)\.\.(?:\/|$)/.test(dir)) return undefined;
  return dir;
}

function isWriteRedirect(r: ShellRedirect): boolean {
  if (WRITE_OPS.has(r.op)) return true;
  // `>&file` is `&>file`; `>&2`, `>&-` duplicate or close descriptors.
  return r.op === '>&' && !/^(?:\d+-?|-)$/.test(r.target);
}

/** The cwd key of the innermost isolated frame, created from its parent's cwd on first sight. */
function scopeOf(cmd: SimpleCommand, scopes: Map<number, Cwd>): number {
  let key = -1;
  for (const frame of cmd.nesting) {
    if (!frame.isolated) continue;
    if (!scopes.has(frame.id)) scopes.set(frame.id, scopes.get(key) ?? START);
    key = frame.id;
  }
  return key;
}

function changeDir(cwd: Cwd, cmd: SimpleCommand): Cwd {
  let i = 1;
  while (i < cmd.argv.length && /^-[LPe@]+$/.test(cmd.argv[i]!)) i++;
  const target = cmd.argv[i];
  if (target === undefined) return { dir: '~' };
  if (cmd.dynamic[i] === true) return { why: `cd ${target}` };
  if (cmd.glob[i] === true) return { why: `cd ${target} (a pattern)` };
  if (target === '-') return { why: 'cd - returns to the previous directory' };
  // After `cd link/..` the kernel resolves `..` against the physical directory, which only the
  // caller can see; a relative `cd` through `..` is not followed here.
  // A leading `../..` climbs from the (real) cwd and is safe; `dir/..` may climb out of a symlink's target.
  if (/(?:^|\/)(?!\.\.?\/)[^/]+\/\.\.(?:\/|$)/.test(target)) return { why: `cd ${target} (through .. after a directory that may be a symlink)` };
  return join(cwd, { dir: target });
}

function join(base: Cwd, next: Cwd): Cwd {
  if (!('dir' in next)) return next;
  if (isAbsolute(next.dir)) return next;
  if (!('dir' in base)) return base;
  return { dir: joinPath(base.dir, next.dir) };
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || path === '~' || path.startsWith('~/');
}

/**
 * Lexical join that drops `.` segments but keeps `..`: after `cd link`, `..` is resolved by the
 * kernel against the physical directory, so only the caller (who can see symlinks) may fold it.
 */
function joinPath(dir: string, path: string): string {
  if (dir === '' || isAbsolute(path)) return path;
  const segments = `${dir}/${path}`.split('/');
  const out: string[] = [];
  segments.forEach((s, i) => {
    if (s === '.' || (s === '' && i > 0)) return;
    out.push(s);
  });
  if (out.length === 1 && out[0] === '') return '/';
  return out.join('/') || '.';
}

/** find's starting points: operands before the expression; `.` when there are none. */
function findRoots(cmd: SimpleCommand): Array<{ path: string; dynamic: boolean }> {
  const roots: Array<{ path: string; dynamic: boolean }> = [];
  let i = 1;
  while (i < cmd.argv.length && /^-[HLP]$|^-D$|^-O\d$/.test(cmd.argv[i]!)) i += cmd.argv[i] === '-D' ? 2 : 1;
  for (; i < cmd.argv.length; i++) {
    const w = cmd.argv[i]!;
    if (w.startsWith('-') || w === '(' || w === '!') break;
    roots.push({ path: w, dynamic: cmd.dynamic[i] === true || cmd.glob[i] === true });
  }
  return roots.length > 0 ? roots : [{ path: '.', dynamic: false }];
}
