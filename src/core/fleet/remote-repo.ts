// Which GitHub repository a remote URL names, for `gh pr create --repo`
// (`roz agent push --pr`): roz tells gh the repository instead of letting gh
// ask git in the project (gh runs git from PATH, reading the repository's
// config). Pure.

/** `OWNER/REPO` (github.com) or `HOST/OWNER/REPO`, from an scp-like, ssh:// or http(s):// URL; null when it names none. */
export function githubRepoOf(url: string): string | null {
  const m =
    /^(?:ssh:\/\/)?[\w.-]+@([\w.-]+)[:/]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url) ??
    /^https?:\/\/(?:[^@/]+@)?([\w.-]+)(?::\d+)?\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url);
  if (!m) return null;
  const [, host, owner, repo] = m as unknown as [string, string, string, string];
  if (owner.startsWith('.') || repo.startsWith('.')) return null;
  return host.toLowerCase() === 'github.com' ? `${owner}/${repo}` : `${host}/${owner}/${repo}`;
}

/** A remote name roz passes to git: letters, digits, `._-`, never an option. */
export const isRemoteName = (s: string): boolean => /^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(s);

/** `OWNER/REPO` or `HOST/OWNER/REPO` as the human may give it with --repo. */
export const isRepoSlug = (s: string): boolean => /^(?:[\w.-]+\/)?[\w][\w.-]*\/[\w][\w.-]*$/.test(s);

/**
 * A URL roz hands git for a push: a path, file://, ssh (scp-like or ssh://)
 * or http(s). Never a `transport::address` (ext:: runs a command), never one
 * that reads as an option.
 */
export function pushableUrl(url: string): boolean {
  if (url === '' || url.startsWith('-') || /[\0\n]/.test(url)) return false;
  if (/^[A-Za-z][\w+.-]*::/.test(url)) return false;
  const scheme = /^([A-Za-z][\w+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || ['file', 'ssh', 'git+ssh', 'ssh+git', 'https', 'http'].includes(scheme);
}
