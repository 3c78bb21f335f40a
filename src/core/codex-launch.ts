// The command line `roz exec -- codex exec ...` and `roz run codex ...` (its
// interactive TUI) start Codex CLI with: roz's hooks and Codex's own sandbox, both as `-c key=value` overrides on the
// command line roz builds (the highest of Codex's config layers, and not a
// file the agent could edit), learnt from the pinned client (docs/clients.md):
//  - every event roz judges is a command hook that starts roz's built hook
//    entry by absolute path, never a program named by the project's `.codex/`;
//    `--dangerously-bypass-hook-trust` runs them without Codex's hook review
//    (roz wrote them; Codex runs no hook at all otherwise, silently);
//  - the sandbox is a permission profile that extends Codex's `:workspace`:
//    the project writable, `/tmp` and `$TMPDIR` not (roz's store may live
//    there), roz's files inside the project (`.orchestration/`, a store or
//    plugin kept there) read-only, the supervisors' control records
//    unreadable (their secrets); Codex keeps `.git` and `.codex` read-only
//    itself; roz's token is kept out of the shell's environment. In an
//    agent's linked worktree the profile also opens what a Claude agent's
//    sandbox opens to commit on its branch (core/enforce/worktree-sandbox.ts):
//    its admin dir (with the staging store), its ref's and reflog's folders
//    `"write"`, each other ref or reflog in them `"read"` (a more specific
//    entry wins: probed, docs/clients.md). Where another config layer names `sandbox_mode`, Codex ignores
//    profiles: then roz forces the older `workspace-write` settings instead and
//    the run says what is advisory.
// Pure: the caller reads the files and says what it found.
import { isAbsolute, relative, sep } from 'node:path';
import { ASKING_HOOK_TIMEOUT_S } from './client-commands.js';
import type { NetworkSetting } from './config.js';
import type { WorktreeSandbox } from './enforce/worktree-sandbox.js';

export interface CodexLaunchInput {
  /** The arguments after `codex` as the user typed them. */
  args: string[];
  /** The shell command that runs `roz hook <name>` (absolute node and roz). */
  hookCommand: (name: string) => string;
  /** The client's hook event -> roz hook name (core/clients.ts). */
  hooks: Readonly<Record<string, string>>;
  /** Seconds Codex waits for a hook, where roz needs more than its default (the Stop hook that waits for a reviewer). */
  hookTimeouts?: Readonly<Record<string, number>>;
  /** The project (cwd): Codex's workspace root. */
  project: string;
  /** roz's paths that must stay read-only to the agent (store, plugin, `.orchestration/`, config files). */
  readOnly: string[];
  /** Paths the agent must not even read (the control records: each supervisor's secret). */
  denyRead: string[];
  /** Environment variables the agent's shell must not see (the supervisor's token). */
  secretEnv: string[];
  network: NetworkSetting;
  /** Config files that set `sandbox_mode` (then Codex ignores permission profiles). */
  legacySandboxIn: string[];
  /**
   * The project as an agent's linked worktree: what Claude Code's sandbox would let it write and
   * deny it (core/enforce/worktree-sandbox.ts planWorktreeSandbox, from the launch's facts); null
   * or absent elsewhere (then all of `.git` stays read-only).
   */
  worktree?: WorktreeSandbox | null;
  /**
   * roz's git shim is first on the PATH the launch gives Codex (the agent's new objects go to the
   * staging store): its shell must then not be a login shell, whose /etc/profile sets PATH anew
   * (observed: the shim was gone from the agent's PATH, its `git add` failed on the read-only objects).
   */
  gitShim?: boolean;
}

export interface CodexLaunch {
  args: string[];
  /** `exec` (`codex exec`, nobody to ask) or `interactive` (Codex's TUI, under `roz run` in a pty). */
  mode: 'exec' | 'interactive';
  /** Said before the run starts; a line naming "advisory" says what roz cannot hold. */
  notes: string[];
  /** Whether everything roz asks of the sandbox holds (else the session is advisory, with these reasons). */
  enforced: boolean;
  advisory: string[];
}

/** Why a codex command line cannot run under roz, or null. */
export class CodexArgsError extends Error {}

const EXEC = new Set(['exec', 'e']);
/** Codex 0.169's other subcommands (`codex --help`): none of them is a governed agent session. */
const OTHER_SUBCOMMANDS = new Set([
  'agents',
  'review',
  'login',
  'logout',
  'mcp',
  'plugin',
  'app-server',
  'remote-control',
  'completion',
  'update',
  'doctor',
  'sandbox',
  'debug',
  'apply',
  'a',
  'resume',
  'queue',
  'archive',
  'delete',
  'migrate-rollouts',
  'migrate-nfs-db',
  'unarchive',
  'fork',
  'cloud',
  'exec-server',
  'features',
  'help',
]);
/** Flags that would replace or switch off the sandbox roz configures. */
const SANDBOX_FLAGS = ['-s', '--sandbox', '--dangerously-bypass-approvals-and-sandbox', '--yolo', '--full-auto'];
/**
 * Flags that would move the session out of what roz configured: another workspace root or more
 * writable folders (`-C`, `--add-dir`, `--worktree`), a config layer roz does not see (`-p`), or a
 * session served by another process (`--remote`).
 */
const PLACE_FLAGS = ['-C', '--cd', '--add-dir', '--worktree', '-p', '--profile', '--remote', '--remote-auth-token-env'];
/** `-c` keys that would undo roz's hooks, sandbox or the shell's environment policy. */
const ROZ_KEYS = /^\s*(hooks|sandbox_mode|sandbox_workspace_write|default_permissions|permissions|features|shell_environment_policy)\b/;
/**
 * Codex's timeout for each hook (seconds). A hook that times out fails open (observed: the command
 * ran), so roz's own deadline must come first: PreToolUse and PermissionRequest may wait for a human
 * under `roz run` (the hook's deadline is at most 590 s), the others end within 25 s.
 */
const HOOK_TIMEOUT_S: Readonly<Record<string, number>> = { PreToolUse: ASKING_HOOK_TIMEOUT_S, PermissionRequest: ASKING_HOOK_TIMEOUT_S };
const OTHER_HOOK_TIMEOUT_S = 30;

/** A TOML basic string: JSON's escapes are TOML's. */
export const tomlString = (s: string): string => JSON.stringify(s);

function checkArgs(args: string[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const flag = a.split('=')[0]!;
    if (SANDBOX_FLAGS.includes(flag)) throw new CodexArgsError(`${flag}: roz configures Codex's sandbox itself (a workspace-write profile); leave out ${flag}`);
    if (PLACE_FLAGS.includes(flag))
      throw new CodexArgsError(`${flag}: roz runs Codex in this directory with the config and writable folders it chose; leave out ${flag}`);
    if ((flag === '--enable' || flag === '--disable') && /codex_hooks/.test(a.includes('=') ? a : (args[i + 1] ?? '')))
      throw new CodexArgsError(`${flag} codex_hooks: roz sets Codex's hooks itself`);
    if (flag === '-c' || flag === '--config') {
      const value = a.includes('=') && flag === '--config' ? a.slice('--config='.length) : (args[i + 1] ?? '');
      if (ROZ_KEYS.test(value)) throw new CodexArgsError(`-c ${value.split('=')[0]}: roz sets Codex's hooks, features and sandbox itself`);
    }
  }
}

/** `".orchestration"`-style keys for paths inside the project; null for a path outside it. */
function insideProject(project: string, p: string): string | null {
  const rel = relative(project, p);
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel;
}

const within = (p: string, root: string): boolean => p === root || insideProject(root, p) !== null;

/**
 * The profile's entries for a linked worktree, as absolute paths: each folder
 * Claude's sandbox lets the agent write outside the project (its admin dir,
 * its ref's and reflog's folders; the project is writable already) as
 * `"write"`, and each denial inside a writable folder (the other refs and
 * reflogs beside its own, anything denied in the project) as `"read"`: a more
 * specific entry wins over its folder's, and Codex bind-mounts a file entry
 * read-only, so git can neither write nor rename onto it (EBUSY). A denial
 * elsewhere is read-only already (the profile's base: everything outside the
 * workspace); naming it again would only lengthen the command line.
 */
export function worktreeEntries(project: string, w: WorktreeSandbox): { write: string[]; read: string[] } {
  const write = [...new Set(w.allowWrite.filter((p) => !within(p, project)))].sort();
  const open = [project, ...write];
  const read = [...new Set(w.denyWrite.filter((d) => open.some((o) => within(d, o)) && !write.some((o) => within(o, d))))].sort();
  return { write, read };
}

export function codexLaunch(input: CodexLaunchInput): CodexLaunch {
  const [sub, ...tail] = input.args;
  const mode = sub !== undefined && EXEC.has(sub) ? 'exec' : 'interactive';
  if (sub !== undefined && OTHER_SUBCOMMANDS.has(sub))
    throw new CodexArgsError(
      `roz runs \`codex [options] [prompt]\` (its TUI) and \`codex exec ...\`, not \`codex ${sub}\`: that is not a governed agent session`,
    );
  const rest = mode === 'exec' ? tail : input.args;
  checkArgs(rest);
  const notes: string[] = [];
  const advisory: string[] = [];
  const over: string[] = [];
  const set = (key: string, value: string): void => {
    over.push('-c', `${key}=${value}`);
  };
  for (const [event, name] of Object.entries(input.hooks)) {
    // The launch's own (the Stop that waits for a reviewer roz starts), else the per-event default.
    const timeout = input.hookTimeouts?.[event] ?? HOOK_TIMEOUT_S[event] ?? OTHER_HOOK_TIMEOUT_S;
    set(`hooks.${event}`, `[{hooks=[{type="command",command=${tomlString(input.hookCommand(name))},timeout=${timeout}}]}]`);
  }
  // Hooks are on by default since 0.124; a layer roz does not write must not turn them off.
  set('features.codex_hooks', 'true');

  const inside = [...new Set(input.readOnly.map((p) => insideProject(input.project, p)).filter((r): r is string => r !== null))].sort();
  if (input.legacySandboxIn.length === 0) {
    const ro = inside.map((r) => `${tomlString(r)}="read"`).join(', ');
    // `"<abs path>"="none"`: not even readable (probed with `codex sandbox -P`: cat fails with Permission denied).
    const hidden = [...new Set(input.denyRead)]
      .sort()
      .map((p) => `, ${tomlString(p)}="none"`)
      .join('');
    const git = input.worktree ? worktreeEntries(input.project, input.worktree) : { write: [], read: [] };
    const gitEntries = [...git.write.map((p) => `, ${tomlString(p)}="write"`), ...git.read.map((p) => `, ${tomlString(p)}="read"`)].join('');
    set('default_permissions', '"roz"');
    set(
      'permissions.roz',
      `{extends=":workspace", filesystem={":slash_tmp"="read", ":tmpdir"="read"${hidden}${gitEntries}${ro ? `, ":project_roots"={${ro}}` : ''}}}`,
    );
  } else {
    // Another layer's sandbox_mode would win over a profile: force the older settings to workspace-write.
    set('sandbox_mode', '"workspace-write"');
    set('sandbox_workspace_write.writable_roots', '[]');
    set('sandbox_workspace_write.exclude_slash_tmp', 'true');
    set('sandbox_workspace_write.exclude_tmpdir_env_var', 'true');
    if (inside.length)
      advisory.push(
        `${input.legacySandboxIn.join(', ')} set sandbox_mode, so Codex's sandbox cannot keep ${inside.map((r) => `${r}/`).join(', ')} read-only (roz's hooks still refuse the writes they see)`,
      );
  }
  if (input.network === 'open') {
    if (input.legacySandboxIn.length === 0) set('permissions.roz.network', '{enabled=true}');
    else set('sandbox_workspace_write.network_access', 'true');
  } else if (Array.isArray(input.network)) {
    advisory.push("[enforce] network names domains: Codex's sandbox cannot allow only those, so its commands get no network at all");
  }
  if (input.gitShim) set('allow_login_shell', 'false');
  // The token lets a process talk to the supervisor as a hook would: the agent's shell never gets it
  // (Codex's default excludes drop *TOKEN* names too; a user's config may turn those off).
  if (input.secretEnv.length) set('shell_environment_policy.exclude', `[${input.secretEnv.map(tomlString).join(', ')}]`);
  if (input.denyRead.length && input.legacySandboxIn.length)
    advisory.push(
      `${input.legacySandboxIn.join(', ')} set sandbox_mode, so the supervisors' control records stay readable (the older sandbox settings cannot hide a folder)`,
    );
  const commits = input.worktree && input.legacySandboxIn.length === 0;
  notes.push(
    `codex: roz's hooks on the command line (${Object.keys(input.hooks).join(', ')}); Codex's sandbox: the project writable, ${
      inside.length ? `${inside.map((r) => `${r}/`).join(', ')} read-only, ` : ''
    }${commits ? "its git admin dir and its branch's ref writable (it commits on its branch; the other refs, the shared config, hooks and objects read-only), " : ''}.git and .codex read-only, everything else read-only`,
  );
  for (const a of advisory) notes.push(`codex: advisory: ${a}`);
  // The TUI in this process (`--no-daemon`): never a shared background server started with another config.
  const head = mode === 'exec' ? [sub!, '--dangerously-bypass-hook-trust'] : ['--dangerously-bypass-hook-trust', '--no-daemon'];
  return { args: [...head, ...over, ...rest], mode, notes, enforced: advisory.length === 0, advisory };
}
