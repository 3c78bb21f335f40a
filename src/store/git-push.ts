// `roz agent push`'s git: the approved commit, by its id, to `refs/heads/roz/NAME`
// of a remote, through the hardened runner (store/git.ts: no hooks, no program
// the repository's config names, no global config). What a push needs on top,
// and nothing else:
//  - the transports a remote uses (file, ssh, https): `protocol.allow=never`
//    stays the default, so `ext::` (which runs a command) and the rest stay off;
//  - `--receive-pack=git-receive-pack`: the repository's `remote.*.receivepack`
//    (a program run locally for a path remote) is never consulted — roz pushes
//    to the URL, not the remote's name, and says which program anyway;
//  - ssh: the first ssh binary in fixed system directories (never PATH, never
//    `core.sshCommand`), with the human's HOME (its keys, known_hosts) and
//    ssh-agent socket;
//  - https: credentials only from `gh auth git-credential` when roz found gh
//    (store/trusted-program.ts), else none (no prompt: it fails and says so).
import { homedir } from 'node:os';
import { runGit, type GitRepo, type GitResult } from './git.js';
import { trustedBinary } from './trusted-program.js';

/** The URL roz pushes to for `remote`: its pushurl, else its url, as the repository's config says; null when none. */
export function remoteUrl(common: GitRepo, remote: string): string | null {
  for (const key of [`remote.${remote}.pushurl`, `remote.${remote}.url`]) {
    const r = runGit(common, ['config', '--get', key]);
    if (r.ok && r.stdout.trim() !== '') return r.stdout.trim();
  }
  return null;
}

export interface PushOptions {
  /** gh, found where roz trusts it: the https credential helper. */
  gh: string | null;
  /** SSH_AUTH_SOCK of the human's environment. */
  sshAuthSock?: string | undefined;
}

/** Push `commit` to `refs/heads/<branch>` at `url` (not forced). */
export function pushCommit(common: GitRepo, url: string, commit: string, branch: string, opts: PushOptions): GitResult {
  const ssh = trustedBinary('ssh');
  const config = [
    'protocol.file.allow=always',
    'protocol.ssh.allow=always',
    'protocol.https.allow=always',
    ...(ssh ? [`core.sshCommand=${ssh}`] : []),
    ...(opts.gh ? [`credential.helper=!'${opts.gh.replace(/'/g, `'\\''`)}' auth git-credential`] : []),
  ];
  const env: Record<string, string> = ssh ? { GIT_SSH_COMMAND: ssh, GIT_SSH_VARIANT: 'ssh', HOME: homedir() } : {};
  if (ssh && opts.sshAuthSock) env.SSH_AUTH_SOCK = opts.sshAuthSock;
  return runGit(
    common,
    [
      ...config.flatMap((kv) => ['-c', kv]),
      'push',
      '--no-verify',
      '--porcelain',
      '--receive-pack=git-receive-pack',
      '--',
      url,
      `${commit}:refs/heads/${branch}`,
    ],
    { timeoutMs: 300_000, env },
  );
}
