// The one way roz runs git. roz's hooks and supervisor run outside the agent's
// sandbox, and git runs programs named in files the agent can write (a nested
// repository's config, the project's own `.git/config` on some clients, a
// `.gitattributes`, `$HOME/.gitconfig`). So every git roz starts:
//  - is a binary found once in fixed system directories, never on PATH (a
//    PATH may start with the project's node_modules/.bin);
//  - gets an environment built from scratch: no system or global config, no
//    GIT_DIR/GIT_WORK_TREE/GIT_INDEX_FILE/GIT_CONFIG_* from the caller, no
//    pager, no prompts, no replace objects, no grafts;
//  - gets `-c` overrides, which beat every config file (the repository's
//    config and whatever it `include`s still load: they cannot run code
//    through a knob set here, but any knob NOT listed here still applies,
//    which is why snapshots do not ask git about the work tree at all —
//    store/tree-snapshot.ts hashes the files itself);
//  - names its repository explicitly (--git-dir, and --work-tree where one
//    exists), so neither the cwd nor `core.worktree` picks it.
// The commands roz runs never read a work-tree file (ls-tree, ls-files -s,
// rev-parse, log, diff between trees, stash show --name-only): clean/smudge/
// process filters and fsmonitor have nothing to act on, and the knobs below
// switch them off anyway. docs/security.md "Git" has the full argument.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';

type ChildProcess = typeof import('node:child_process');
// Loaded only when git runs: node:child_process costs every hook ~4 ms to load.
const cp = (): ChildProcess => process.getBuiltinModule('node:child_process') as ChildProcess;

/** Where roz looks for git, in order. Nothing the agent can write is on this list. */
export const GIT_DIRS = ['/usr/bin', '/bin', '/usr/local/bin'] as const;

/**
 * `-c` overrides on every call: each knob that runs a program or changes what
 * git shows. Command-line config wins over every config file (and includes).
 */
export const HARDENED_CONFIG: readonly string[] = [
  // Programs git would run.
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.editor=/bin/false',
  'sequence.editor=/bin/false',
  'core.askPass=',
  'credential.helper=',
  'core.sshCommand=/bin/false',
  'core.gitProxy=',
  'protocol.allow=never',
  'gpg.program=/bin/false',
  'gpg.ssh.program=/bin/false',
  'gpg.x509.program=/bin/false',
  'log.showSignature=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'diff.submodule=short',
  'submodule.recurse=false',
  // Files that change what git shows: ignores and attributes outside the tree.
  'core.attributesFile=/dev/null',
  'core.excludesFile=/dev/null',
  'core.useReplaceRefs=false',
  'core.untrackedCache=false',
  'core.quotePath=false',
  'color.ui=false',
  'diff.relative=false',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'diff.renames=false',
  'log.follow=false',
];

/** The environment every git call gets: nothing inherited. */
export function hardenedEnv(): Record<string, string> {
  return {
    PATH: '/usr/bin:/bin',
    LANG: 'C',
    LC_ALL: 'C',
    // No $HOME/.gitconfig, no $XDG_CONFIG_HOME/git/{config,attributes,ignore}, no ~ in paths.
    HOME: '/nonexistent',
    XDG_CONFIG_HOME: '/nonexistent',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_SYSTEM: '/dev/null',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_GRAFT_FILE: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: '/bin/false',
    GIT_SSH_COMMAND: '/bin/false',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_PROTOCOL_FROM_USER: '0',
  };
}

let resolved: { path: string | null; why: string } | null = null;

function usable(file: string): boolean {
  try {
    const real = realpathSync.native(file);
    const st = statSync(real);
    if (!st.isFile() || (st.mode & 0o111) === 0) return false;
    // A git the current user could overwrite is one the agent could: refused (root owns everything it runs).
    if (process.getuid?.() !== 0) {
      try {
        accessSync(real, constants.W_OK);
        return false;
      } catch {
        /* not writable: good */
      }
    }
    return true;
  } catch {
    return false;
  }
}

/** The git binary roz runs, found once per process in GIT_DIRS; null (with why) when there is none. */
export function gitBinary(): { path: string | null; why: string } {
  if (resolved) return resolved;
  for (const dir of GIT_DIRS) {
    const file = `${dir}/git`;
    if (usable(file)) return (resolved = { path: file, why: '' });
  }
  return (resolved = { path: null, why: `no usable git in ${GIT_DIRS.join(', ')} (roz never takes git from PATH)` });
}

export interface GitRepo {
  /** The repository's git directory (absolute). */
  gitDir: string;
  /** Its work tree, or null for a bare repository (roz's own). */
  workTree: string | null;
}

export type GitResult = { ok: true; stdout: string } | { ok: false; error: string };

export interface GitOptions {
  timeoutMs?: number;
  maxBuffer?: number;
  input?: string | Buffer;
  /** An open file git reads as its standard input instead (a pack too large for a buffer). */
  stdinFd?: number;
  /** Variables set over the hardened environment (a push's ssh: store/git-push.ts); never the caller's whole environment. */
  env?: Readonly<Record<string, string>>;
}

/**
 * The argv of every git roz runs: no pager, every knob of HARDENED_CONFIG,
 * the repository named. One place, so a knob added here reaches every call.
 */
function hardenedArgv(repo: GitRepo, args: readonly string[]): string[] {
  return [
    '--no-pager',
    ...HARDENED_CONFIG.flatMap((kv) => ['-c', kv]),
    `--git-dir=${repo.gitDir}`,
    ...(repo.workTree ? [`--work-tree=${repo.workTree}`] : []),
    ...args,
  ];
}

/** Run `git args` against `repo`, hardened (see the file's head). Never throws. */
export function runGit(repo: GitRepo, args: readonly string[], opts: GitOptions = {}): GitResult {
  const bin = gitBinary();
  if (!bin.path) return { ok: false, error: bin.why };
  const r = cp().spawnSync(bin.path, hardenedArgv(repo, args), {
    cwd: repo.workTree ?? repo.gitDir,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 10_000,
    maxBuffer: opts.maxBuffer ?? 64 * 1024 * 1024,
    env: { ...hardenedEnv(), ...opts.env },
    input: opts.input,
    stdio: [opts.stdinFd ?? (opts.input === undefined ? 'ignore' : 'pipe'), 'pipe', 'pipe'],
  });
  if (r.status === 0) return { ok: true, stdout: r.stdout };
  const error = (r.stderr || r.error?.message || (r.signal ? `killed by ${r.signal}` : `exit ${r.status}`)).trim().split('\n')[0] ?? '';
  return { ok: false, error: error || `git ${args[0]} failed` };
}

/** Like runGit, but the output or null. */
export function gitOut(repo: GitRepo, args: readonly string[], opts?: GitOptions): string | null {
  const r = runGit(repo, args, opts);
  return r.ok ? r.stdout : null;
}

/** Like runGit, with stdout as bytes (object contents are not text). Never throws. */
export function runGitBytes(
  repo: GitRepo,
  args: readonly string[],
  opts: GitOptions = {},
): { ok: true; stdout: Buffer } | { ok: false; error: string; status: number | null; stdout: Buffer } {
  const bin = gitBinary();
  if (!bin.path) return { ok: false, error: bin.why, status: null, stdout: Buffer.alloc(0) };
  const r = cp().spawnSync(bin.path, hardenedArgv(repo, args), {
    cwd: repo.workTree ?? repo.gitDir,
    timeout: opts.timeoutMs ?? 60_000,
    maxBuffer: opts.maxBuffer ?? 1024 * 1024 * 1024,
    env: hardenedEnv(),
    input: opts.input,
    stdio: [opts.stdinFd ?? (opts.input === undefined ? 'ignore' : 'pipe'), 'pipe', 'pipe'],
  });
  if (r.status === 0) return { ok: true, stdout: r.stdout };
  const error = (r.stderr?.toString('utf8') || r.error?.message || (r.signal ? `killed by ${r.signal}` : `exit ${r.status}`)).trim().split('\n')[0] ?? '';
  return { ok: false, error: error || `git ${args[0]} failed`, status: r.status, stdout: r.stdout ?? Buffer.alloc(0) };
}
