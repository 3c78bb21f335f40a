// The Claude Code settings roz launches the client with (`--settings FILE`
// under `roz run`/`roz exec`, printed by `roz settings`): the client's own
// Bash sandbox confines the agent's shell, deny rules keep the Write/Edit
// tools out of roz's files. Pure: every path comes in absolute; composable
// fragments merged into one document, so other parts of roz (hooks for
// supervised runs) add theirs without knowing this one.

import { controlDirOf } from '../fleet/control-dir.js';

/** A Claude Code settings document (or a fragment of one). */
export type ClaudeSettings = { [key: string]: unknown };

/** `user`: keep the user's own network settings; `open`: every host; a list: exactly those domains. */
export type NetworkPolicy = 'user' | 'open' | string[];

/** Absolute paths the agent must not write, with what they are (for `roz settings` readers). */
export interface ProtectedPaths {
  /** roz's store (sessions, traces, decisions; the config file by default). */
  store: string;
  /** The hook bundle's V8 code cache directory. */
  codeCache: string | null;
  /** Config files read by roz that live outside the store. */
  configFiles: string[];
  /** The governed project's `.orchestration/` (absent outside a project). */
  orchestration: string | null;
  /** An agent's worktree: the base checkout's `.orchestration/`, whose intents govern it (docs/fleet.md, "Intents"). */
  intentsOrchestration?: string | null;
  /** The per-run settings file itself. */
  settingsFile: string | null;
  /** The client's user directory (`~/.claude` or CLAUDE_CONFIG_DIR). */
  claudeUserDir: string | null;
  /** roz's plugin (the code every hook runs), when the run loads it from a folder. */
  pluginDir?: string | null;
  /** The project: the file tools never write a `.git` in it (its own or a nested repository's). */
  project?: string | null;
  /** Outside the project and $TMPDIR: paths the file tools must not write (engine/file-tool-area.ts). */
  outside?: string[];
}

export interface EnforceOptions {
  network: NetworkPolicy;
  /** Environment variables to keep out of sandboxed Bash (e.g. the supervisor token). */
  secretEnv: string[];
}

function isPlainObject(v: unknown): v is ClaudeSettings {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Deep merge, left to right: objects merge key by key, arrays are
 * concatenated without duplicates (a later fragment adds deny rules, it never
 * drops one), anything else is replaced by the later value.
 */
export function mergeSettings(...fragments: ClaudeSettings[]): ClaudeSettings {
  const out: ClaudeSettings = {};
  for (const frag of fragments) mergeInto(out, frag);
  return out;
}

function mergeInto(target: ClaudeSettings, src: ClaudeSettings): void {
  for (const [k, v] of Object.entries(src)) {
    if (v === undefined) continue;
    const cur = target[k];
    if (isPlainObject(cur) && isPlainObject(v)) mergeInto(cur, v);
    else if (Array.isArray(cur) && Array.isArray(v)) {
      const seen = new Set(cur.map((x) => JSON.stringify(x)));
      for (const x of v) if (!seen.has(JSON.stringify(x))) seen.add(JSON.stringify(x)), cur.push(structuredClone(x));
    } else target[k] = structuredClone(v);
  }
}

/** Every protected path, each once, in a stable order. */
export function protectedPathList(p: ProtectedPaths): string[] {
  const all = [p.store, p.codeCache, ...p.configFiles, p.orchestration, p.intentsOrchestration, p.settingsFile, p.claudeUserDir, p.pluginDir];
  return [...new Set(all.filter((x): x is string => typeof x === 'string' && x.startsWith('/')))];
}

/** The OS sandbox for Bash: on, no way out, roz's paths read-only, the supervisors' control records unreadable, no Unix sockets. */
export function sandboxFragment(p: ProtectedPaths, opts: EnforceOptions): ClaudeSettings {
  const sandbox: ClaudeSettings = {
    enabled: true,
    // No sandbox (no bwrap/socat) must stop the client, not quietly run Bash unconfined.
    failIfUnavailable: true,
    // Otherwise `dangerouslyDisableSandbox: true` in a Bash call runs it outside.
    allowUnsandboxedCommands: false,
    autoAllowBashIfSandboxed: true,
    // The control records hold each supervisor's secret (docs/fleet.md): never readable from Bash.
    filesystem: { denyWrite: protectedPathList(p), denyRead: [controlDirOf(p.store)] },
    // Said explicitly, not just left unset: seccomp then refuses every Unix
    // socket, so Bash cannot reach or replace the supervisor's; and on 2.1.197
    // a project's `allowAllUnixSockets: true` loses to it (observed).
    network: { allowAllUnixSockets: false, ...networkFragment(opts.network) },
  };
  if (opts.secretEnv.length > 0) sandbox.credentials = { envVars: opts.secretEnv.map((name) => ({ name, mode: 'deny' })) };
  return { sandbox };
}

function networkFragment(policy: NetworkPolicy): ClaudeSettings {
  if (policy === 'user') return {};
  // "*" matches every host on both pinned clients (observed; "*.*" matches nothing).
  if (policy === 'open') return { allowedDomains: ['*'] };
  return { allowedDomains: [...policy] };
}

/**
 * Deny rules for the file tools, which the sandbox does not confine.
 * `Edit(//abs/**)` covers Write, Edit, MultiEdit and NotebookEdit, in every
 * permission mode (bypass included). Never the
 * project's `.claude/`: on 2.1.197 such a rule makes every Bash call fail;
 * the PreToolUse hook refuses those writes instead (PROTECTED_PATH).
 */
export function permissionsFragment(p: ProtectedPaths): ClaudeSettings {
  const rules: string[] = [];
  const dirs = [p.store, p.codeCache, p.orchestration, p.intentsOrchestration, p.pluginDir].filter((x): x is string => !!x);
  for (const d of dirs) rules.push(`Edit(/${d}/**)`);
  // The file tools are not confined by the sandbox: the control records' secret is kept from Read (and Grep/Glob) here.
  rules.push(`Read(/${controlDirOf(p.store)}/**)`);
  for (const f of [...p.configFiles, p.settingsFile].filter((x): x is string => !!x)) rules.push(`Edit(/${f})`);
  // Git runs programs its config, hooks and attributes name. Not all of .git/:
  // both clients turn an Edit deny rule into a read-only path for sandboxed
  // Bash too, and git must still write its index, objects and refs (observed:
  // `git commit` failed with `.git/**` denied). The hook refuses the rest of
  // any .git/ to the file tools (engine/file-tool-area.ts).
  if (p.project) for (const g of gitDenyPaths(p.project)) rules.push(`Edit(/${g})`);
  // Where sandboxed Bash cannot write, the file tools may not either (a shell's start-up files, git's global config).
  for (const o of p.outside ?? []) rules.push(`Edit(/${o})`, `Edit(/${o}/**)`);
  return { permissions: { deny: [...new Set(rules)] } };
}

/** The files in a repository's .git/ that make git run programs or hide changes, for the project's own and nested ones. */
export function gitDenyPaths(project: string): string[] {
  // Only paths git creates at init: a missing one may get a placeholder file while sandboxed Bash runs.
  const inGit = ['config', 'hooks/**', 'info/**'];
  return [...inGit.map((f) => `${project}/.git/${f}`), ...inGit.map((f) => `${project}/**/.git/${f}`)];
}

/** The whole enforced document: sandbox + deny rules. */
export function enforcedSettings(p: ProtectedPaths, opts: EnforceOptions): ClaudeSettings {
  return mergeSettings(sandboxFragment(p, opts), permissionsFragment(p));
}

/**
 * The repository's `objects/` read-only to the agent, for Bash (the sandbox)
 * and the file tools (a deny rule): its git writes new objects into a staging
 * store roz takes them from (store/object-intake.ts). Only for a launch that
 * made that store and puts roz's git shim on the agent's PATH. For the agent
 * in the main checkout (`mainCheckout`: the git dir), also what git there
 * reads from folders the agent never needs for its own work and that would
 * act for the human: a submodule's git dir with its config and hooks,
 * recorded conflict resolutions (whose presence turns rerere on), LFS
 * content, shallow grafts (docs/security.md, "The shared git directory").
 */
export function objectsFragment(objects: string, mainCheckout: string | null = null): ClaudeSettings {
  const more = mainCheckout ? MAIN_CHECKOUT_DENIED.map((n) => `${mainCheckout}/${n}`) : [];
  return { sandbox: { filesystem: { denyWrite: [objects, ...more] } }, permissions: { deny: [`Edit(/${objects}/**)`] } };
}

/** Denied to the agent in the main checkout even when missing (the sandbox mounts a placeholder). */
export const MAIN_CHECKOUT_DENIED = ['modules', 'lfs', 'rr-cache', 'shallow'] as const;
