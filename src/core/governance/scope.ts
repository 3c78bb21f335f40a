// Where a write really lands (cwd, `..`, `~`, symlinks) and whether that
// place is inside an intent's owned_scope, protected, or outside governance.
import { isAbsolute, join, relative, sep } from 'node:path';
import picomatch from 'picomatch';

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

/** The reference semantics: picomatch given the whole list tests every glob in turn. */
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
  const compiled = new Map<string, RegExp>();
  for (const [base, gs] of byBase) compiled.set(base, oneRegex(gs));
  const rest = everywhere.length ? oneRegex(everywhere) : null;
  // picomatch's own test: an empty path never matches, the glob's own text always does.
  const literal = new Set(list);
  return (rel) => {
    if (rel === '') return false;
    if (literal.has(rel)) return true;
    for (let i = rel.indexOf('/'); i > 0; i = rel.indexOf('/', i + 1)) {
      const re = compiled.get(rel.slice(0, i));
      if (re !== undefined && re.test(rel)) return true;
    }
    const whole = compiled.get(rel);
    if (whole !== undefined && whole.test(rel)) return true;
    return rest !== null && rest.test(rel);
  };
}

/** picomatch's regexes for several globs as one alternation (each keeps its own anchors). */
function oneRegex(globs: readonly string[]): RegExp {
  if (globs.length === 1) return picomatch.makeRe(globs[0]!, { dot: true });
  return new RegExp(globs.map((g) => `(?:${picomatch.makeRe(g, { dot: true }).source})`).join('|'));
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
  if (rel.length && picomatch(rel, { dot: true })('.orchestration/active_intents.yaml')) return 'it covers .orchestration/';
  if (abs.length) {
    const m = picomatch(abs, { dot: true });
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
  const mr = rel.length ? picomatch(rel, { dot: true }) : () => false;
  const ma = abs.length ? picomatch(abs, { dot: true }) : () => false;
  // Absolute patterns only reach outside the project: `/tmp/**` must not exempt a project that lives under /tmp.
  return Object.assign((p: ResolvedPath) => (p.rel !== null ? mr(p.rel) : ma(p.real)), { refused });
}
