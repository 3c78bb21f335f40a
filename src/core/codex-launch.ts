// The command line `roz exec -- codex exec ...` starts Codex CLI with: roz's
// hooks and Codex's own sandbox, both as `-c key=value` overrides on the
// command line roz builds (the highest of Codex's config layers, and not a
// file the agent could edit), learnt from the pinned client (docs/clients.md):
//  - every event roz judges is a command hook that starts roz's built hook
//    entry by absolute path, never a program named by the project's `.codex/`;
//    `--dangerously-bypass-hook-trust` runs them without Codex's hook review
//    (roz wrote them; Codex runs no hook at all otherwise, silently);
//  - the sandbox is a permission profile that extends Codex's `:workspace`:
//    the project writable, `/tmp` and `$TMPDIR` not (roz's store may live
//    there), roz's files inside the project (`.orchestration/`, a store or
//    plugin kept there) read-only; Codex keeps `.git` and `.codex` read-only
//    itself. Where another config layer names `sandbox_mode`, Codex ignores
//    profiles: then roz forces the older `workspace-write` settings instead and
//    the run says what is advisory.
// Pure: the caller reads the files and says what it found.
import { isAbsolute, relative, sep } from 'node:path';
import type { NetworkSetting } from './config.js';

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
  network: NetworkSetting;
  /** Config files that set `sandbox_mode` (then Codex ignores permission profiles). */
  legacySandboxIn: string[];
}

export interface CodexLaunch {
  args: string[];
  /** Said before the run starts; a line naming "advisory" says what roz cannot hold. */
  notes: string[];
  /** Whether everything roz asks of the sandbox holds (else the session is advisory, with these reasons). */
  enforced: boolean;
  advisory: string[];
}

/** Why a codex command line cannot run under roz, or null. */
export class CodexArgsError extends Error {}

const SUBCOMMANDS = new Set(['exec', 'e']);
/** Flags that would replace or switch off the sandbox roz configures. */
const SANDBOX_FLAGS = ['-s', '--sandbox', '--dangerously-bypass-approvals-and-sandbox', '--yolo', '--full-auto'];
/** `-c` keys that would undo roz's hooks or sandbox. */
const ROZ_KEYS = /^\s*(hooks|sandbox_mode|sandbox_workspace_write|default_permissions|permissions|features)\b/;

/** A TOML basic string: JSON's escapes are TOML's. */
export const tomlString = (s: string): string => JSON.stringify(s);

function checkArgs(args: string[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const flag = a.split('=')[0]!;
    if (SANDBOX_FLAGS.includes(flag)) throw new CodexArgsError(`${flag}: roz configures Codex's sandbox itself (a workspace-write profile); leave out ${flag}`);
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

export function codexLaunch(input: CodexLaunchInput): CodexLaunch {
  const [sub, ...rest] = input.args;
  if (!sub || !SUBCOMMANDS.has(sub))
    throw new CodexArgsError(
      `roz exec runs \`codex exec ...\` (got ${sub ? `\`codex ${sub}\`` : 'no subcommand'}): Codex's interactive mode is not governed yet`,
    );
  checkArgs(rest);
  const notes: string[] = [];
  const advisory: string[] = [];
  const over: string[] = [];
  const set = (key: string, value: string): void => {
    over.push('-c', `${key}=${value}`);
  };
  for (const [event, name] of Object.entries(input.hooks)) {
    const timeout = input.hookTimeouts?.[event];
    set(`hooks.${event}`, `[{hooks=[{type="command",command=${tomlString(input.hookCommand(name))}${timeout ? `,timeout=${timeout}` : ''}}]}]`);
  }
  // Hooks are on by default since 0.124; a layer roz does not write must not turn them off.
  set('features.codex_hooks', 'true');

  const inside = [...new Set(input.readOnly.map((p) => insideProject(input.project, p)).filter((r): r is string => r !== null))].sort();
  if (input.legacySandboxIn.length === 0) {
    const ro = inside.map((r) => `${tomlString(r)}="read"`).join(', ');
    set('default_permissions', '"roz"');
    set('permissions.roz', `{extends=":workspace", filesystem={":slash_tmp"="read", ":tmpdir"="read"${ro ? `, ":project_roots"={${ro}}` : ''}}}`);
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
  notes.push(
    `codex: roz's hooks on the command line (${Object.keys(input.hooks).join(', ')}); Codex's sandbox: the project writable, ${
      inside.length ? `${inside.map((r) => `${r}/`).join(', ')} read-only, ` : ''
    }.git and .codex read-only, everything else read-only`,
  );
  for (const a of advisory) notes.push(`codex: advisory: ${a}`);
  return { args: [sub, '--dangerously-bypass-hook-trust', ...over, ...rest], notes, enforced: advisory.length === 0, advisory };
}
