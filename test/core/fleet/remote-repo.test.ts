import { describe, expect, it } from 'vitest';
import { githubRepoOf, isRemoteName, isRepoSlug, pushableUrl } from '../../../src/core/fleet/remote-repo.js';

describe('the repository a remote names, and the URLs roz pushes to', () => {
  it('reads OWNER/REPO from scp-like, ssh:// and https URLs; HOST/OWNER/REPO off github.com; null otherwise', () => {
    expect(githubRepoOf('git@github.com:acme/widgets.git')).toBe('acme/widgets');
    expect(githubRepoOf('ssh://git@github.com/acme/widgets')).toBe('acme/widgets');
    expect(githubRepoOf('https://github.com/acme/widgets.git')).toBe('acme/widgets');
    expect(githubRepoOf('https://token@github.com/acme/widgets/')).toBe('acme/widgets');
    expect(githubRepoOf('https://ghe.example.com/acme/widgets.git')).toBe('ghe.example.com/acme/widgets');
    expect(githubRepoOf('/srv/git/widgets.git')).toBeNull();
    expect(githubRepoOf('https://github.com/acme/../x')).toBeNull();
  });
  it('pushes over paths, file, ssh and https only: never transport::address or an option', () => {
    for (const ok of ['/srv/widgets.git', 'file:///srv/w.git', 'git@github.com:a/b.git', 'ssh://h/a', 'https://github.com/a/b'])
      expect(pushableUrl(ok), ok).toBe(true);
    for (const bad of ['ext::sh -c touch% /tmp/x', 'fd::3', '-uexploit', 'git://h/a', 'ftp://h/a', '', 'a\nb']) expect(pushableUrl(bad), bad).toBe(false);
  });
  it('remote names and --repo slugs', () => {
    expect(isRemoteName('origin')).toBe(true);
    expect(isRemoteName('--upload-pack=x')).toBe(false);
    expect(isRepoSlug('acme/widgets')).toBe(true);
    expect(isRepoSlug('ghe.example.com/acme/widgets')).toBe(true);
    expect(isRepoSlug('acme')).toBe(false);
    expect(isRepoSlug('-R/x')).toBe(false);
  });
});
