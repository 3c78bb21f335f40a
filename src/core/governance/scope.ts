// Where a write really lands (cwd, `..`, `~`, symlinks) and whether that
// place is inside an intent's owned_scope, protected, or outside governance.
import { isAbsolute, join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { globTest } from '../glob/path-glob.js';

export interface PathContext {
  /** Directory relative paths start from (the hook input's cwd). */
  cwd: string;
  home: string;
  /** Real path of the project root (symlinks resolved). */
  root: string;
  /** The real path of an absolute, unfolded path (symlinks before `..`, hard links of protected files); injected so policies stay pure. */
  realish: (absolute: string) => string;
}

export interface ResolvedPath {
  /** What the agent wrote. */
  given: string;
  /** Absolute path with symlinks resolved. */
  real: string;
  /** Project-relative POSIX path, or null when it is outside the project. */
  rel: string | null;
}

export function expandHome(p: string, home: string): string {
  return p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : p;
}

export function resolvePath(given: string, ctx: PathContext): ResolvedPath {
  // Not folded here: `..` after a symlink means the link's parent (ctx.realish walks it as the kernel does).
  const expanded = expandHome(given, ctx.home);
  const real = ctx.realish(isAbsolute(expanded) ? expanded : `${ctx.cwd}${ctx.cwd.endsWith(sep) ? '' : sep}${expanded}`);
  const r = relative(ctx.root, real);
  const outside = r === '..' || r.startsWith(`..${sep}`) || isAbsolute(r);
  return { given, real, rel: outside ? null : r.split(sep).join('/') || '.' };
}

export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** `src/auth/` means everything below it; `./x` is `x`. */
function normaliseGlob(glob: string): string {
  let g = glob.trim().replace(/^\.\//, '');
  if (g.endsWith('/')) g += '**';
  return g;
}

export type PathMatcher = (rel: string) => boolean;

/**
 * The reference semantics: picomatch given the whole list tests every glob in
 * turn. A test oracle only: picomatch's regexes backtrack (issue 24), so roz
 * never runs them on globs the agent can write; scopeMatcher answers the same
 * in linear time.
 */
export function scopeMatcherPerGlob(globs: readonly string[]): PathMatcher {
  const list = globs.map(normaliseGlob).filter(Boolean);
  if (list.length === 0) return () => false;
  const m = picomatch(list, { dot: true });
  return (rel) => m(rel);
}

/** A literal base picomatch's own regex anchors at: plain segments, no escapes, no empty or dot-only parts. */
function indexableBase(base: string): boolean {
  if (!base || base.includes('\\')) return false;
  return base.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/**
 * One matcher for all of an intent's globs, with the same answers as
 * `scopeMatcherPerGlob`. Testing 1,000 picomatch regexes in turn costs
 * ~100 µs a path; instead each glob is filed under its literal base
 * directory (`picomatch.scan`: `src/auth/**` under `src/auth`), whose regex
 * can only match that base or paths below it, so a path tests only the globs
 * filed under one of its own prefixes (a Map lookup per path segment). Globs
 * without a clean literal base (those starting with `**` or a brace, negations, escapes)
 * are tested for every path, as before.
 */
export function scopeMatcher(globs: readonly string[]): PathMatcher {
  const list = globs.map(normaliseGlob).filter(Boolean);
  if (list.length === 0) return () => false;
  const byBase = new Map<string, string[]>();
  const everywhere: string[] = [];
  for (const g of list) {
    const scan = picomatch.scan(g);
    if (scan.negated || scan.negatedExtglob || scan.prefix !== '' || !indexableBase(scan.base)) everywhere.push(g);
    else {
      const at = byBase.get(scan.base);
      if (at) at.push(g);
      else byBase.set(scan.base, [g]);
    }
  }
  // Linear-time tests (path-glob.ts): the globs are agent-writable. Each
  // answers like picomatch's own test (an empty path never matches, the
  // glob's own text always does); a refused glob matches nothing.
  const compiled = new Map<string, (rel: string) => boolean>();
  for (const [base, gs] of byBase) compiled.set(base, globTest(gs));
  const rest = everywhere.length ? globTest(everywhere) : null;
  return (rel) => {
    if (rel === '') return false;
    for (let i = rel.indexOf('/'); i > 0; i = rel.indexOf('/', i + 1)) {
      const test = compiled.get(rel.slice(0, i));
      if (test !== undefined && test(rel)) return true;
    }
    const whole = compiled.get(rel);
    if (whole !== undefined && whole(rel)) return true;
    return rest !== null && rest(rel);
  };
}

/**
 * `.orchestration/.intentignore`: one pattern a line, `#` comments. Like
 * .gitignore, a pattern without `/` matches at any depth and a directory
 * matches everything below it; an absolute pattern (`/tmp/**`) matches
 * absolute paths outside the project too.
 */
export function parseIntentIgnore(text: string): { relative: string[]; absolute: string[] } {
  const relativeOut: string[] = [];
  const absoluteOut: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (isAbsolute(line)) {
      absoluteOut.push(line.endsWith('/') ? `${line}**` : line);
      continue;
    }
    const g = normaliseGlob(line);
    const bare = g.replace(/\/\*\*$/, '');
    if (!bare.includes('/')) relativeOut.push(`**/${bare}`, `**/${bare}/**`);
    else relativeOut.push(bare, `${bare}/**`);
  }
  return { relative: relativeOut, absolute: absoluteOut };
}

/** A pattern of .intentignore that roz refuses, and why. */
export interface RefusedPattern {
  pattern: string;
  why: string;
}

export type IgnoreMatcher = ((p: ResolvedPath) => boolean) & { refused: RefusedPattern[] };

/**
 * .intentignore takes paths out of governance, so a pattern that reaches
 * further than the human can have meant is refused (and reported), never
 * obeyed: one that climbs out with `..`, one that covers `.orchestration/`
 * (`**`, `*`, `.orchestration`: governance switched off wholesale), and an
 * absolute one that covers the home directory or the top of the filesystem
 * (`/**`: every write outside the project let through).
 */
export function refusedIgnore(line: string, home: string): string | null {
  const trimmed = line.trim();
  if (trimmed.split('/').includes('..')) return 'it climbs out with `..`';
  const { relative: rel, absolute: abs } = parseIntentIgnore(trimmed);
  const mr = globTest(rel);
  const ma = globTest(abs);
  if (mr.refused.length || ma.refused.length) return 'roz cannot match it in bounded time (a backreference or a pattern too large)';
  if (rel.length && mr('.orchestration/active_intents.yaml')) return 'it covers .orchestration/';
  if (abs.length) {
    const m = ma;
    const h = home.replace(/\/+$/, '') || '/';
    if ([`${h}/.bashrc`, `${h}/x/y`, '/etc/passwd', '/x'].some((p) => m(p))) return 'it covers your home directory or the top of the filesystem';
  }
  return null;
}

export function ignoreMatcher(text: string | null, home = '/nonexistent-home'): IgnoreMatcher {
  const refused: RefusedPattern[] = [];
  const kept: string[] = [];
  for (const raw of (text ?? '').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const why = refusedIgnore(line, home);
    if (why) refused.push({ pattern: line, why });
    else kept.push(line);
  }
  const { relative: rel, absolute: abs } = parseIntentIgnore(kept.join('\n'));
  const mr = globTest(rel);
  const ma = globTest(abs);
  // Absolute patterns only reach outside the project: `/tmp/**` must not exempt a project that lives under /tmp.
  return Object.assign((p: ResolvedPath) => (p.rel !== null ? mr(p.rel) : ma(p.real)), { refused });
}
