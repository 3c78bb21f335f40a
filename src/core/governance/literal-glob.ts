// A project path as a glob that matches that path and nothing else: what the
// approval panel's `g` key adds to an intent's owned_scope. The agent names
// the files it writes, so a file called `**`, `*` or `[!x]*` must not become
// a glob that hands it the whole repository.

/**
 * picomatch's metacharacters (wildcards, classes, braces, extglobs, negation),
 * its quotes (`"a*"` is a quoted literal) and `$`/`^` (an unescaped `$$`
 * comes out of picomatch 4 as a regex anchor); each is escaped with a
 * backslash, which picomatch reads as "this character itself" on POSIX.
 * Found and checked by the random-name test in test/governance/literal-glob.test.ts.
 */
const META = /[*?[\]{}()!+@|,$^"'`]/g;

/**
 * `rel` (a project-relative POSIX path) as a literal glob, or null when no
 * glob can stand for it exactly: leading or trailing whitespace (globs are
 * trimmed before matching), control characters, empty segments, and a
 * backslash (picomatch 4 mis-reads an escaped backslash before an escaped
 * `*`: `a\\\*` does not match a file named `a\*`).
 *
 * One quirk is picomatch's, not this escape's: a glob always matches its own
 * text too, so `\*\*` also matches a file literally named `\*\*`. That is one
 * more named file, never a wildcard.
 */
export function literalGlob(rel: string): string | null {
  if (rel === '' || rel !== rel.trim() || /[\u0000-\u001f\u007f\\]/.test(rel)) return null;
  if (rel.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) return null;
  return rel.replace(META, (c) => `\\${c}`);
}

/** A directory and everything below it, the directory's name taken literally (`build/**`). */
export function literalTreeGlob(rel: string): string | null {
  const base = literalGlob(rel);
  return base === null ? null : `${base}/**`;
}
