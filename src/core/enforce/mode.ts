// Enforced or advisory: decided at SessionStart from what the client was
// really started with. Enforced means the OS sandbox confines the agent's
// Bash with roz's settings, from a source the agent cannot override (the
// per-run --settings file of roz exec/run, or managed settings); anything
// less is advisory, and says why. Pure: the engine reads the files.
import type { ClaudeSettings } from './settings.js';

export type EnforcementMode = 'enforced' | 'advisory';

/** Persisted as state.enforcement (the TUI's status line reads it). */
export interface Enforcement {
  mode: EnforcementMode;
  reasons: string[];
}

export interface ModeInputs {
  /** An OS sandbox the client can use is installed (bwrap + socat on Linux, sandbox-exec on macOS); null = unsupported platform. */
  sandboxTools: { ok: boolean; missing: string[] } | null;
  /** ROZ_SETTINGS_FILE as roz exec/run passed it: the parsed file, and whether the client's command line names it (null: cannot tell). */
  run: { file: string; doc: ClaudeSettings | null; error?: string; launchedWith: boolean | null } | null;
  managed: { file: string; doc: ClaudeSettings } | null;
  /** User, project and local settings files that exist, weakest last. */
  others: Array<{ file: string; doc: ClaudeSettings }>;
  store: string;
}

interface SandboxDoc {
  enabled?: unknown;
  allowUnsandboxedCommands?: unknown;
  excludedCommands?: unknown;
  filesystem?: { denyWrite?: unknown };
  network?: { allowAllUnixSockets?: unknown };
}

const sandboxOf = (doc: ClaudeSettings | null | undefined): SandboxDoc =>
  doc && typeof doc.sandbox === 'object' && doc.sandbox !== null ? (doc.sandbox as SandboxDoc) : {};

const under = (p: string, root: string): boolean => p === root || root.startsWith(p.endsWith('/') ? p : `${p}/`);

/** Sandbox on, no unsandboxed escape, and roz's store read-only. */
export function confines(doc: ClaudeSettings | null, store: string): boolean {
  const s = sandboxOf(doc);
  const deny = Array.isArray(s.filesystem?.denyWrite) ? (s.filesystem.denyWrite as unknown[]) : [];
  return s.enabled === true && s.allowUnsandboxedCommands === false && deny.some((p) => typeof p === 'string' && under(p, store));
}

export function decideMode(i: ModeInputs): Enforcement {
  const reasons: string[] = [];
  if (i.sandboxTools === null) reasons.push('no OS sandbox the client supports on this platform');
  else if (!i.sandboxTools.ok) reasons.push(`the sandbox is unavailable: ${i.sandboxTools.missing.join(', ')} not installed`);

  const managedConfines = !!i.managed && confines(i.managed.doc, i.store);
  let runConfines = false;
  if (i.run) {
    if (!i.run.doc) reasons.push(`the run's settings file ${i.run.file} cannot be read${i.run.error ? ` (${i.run.error})` : ''}`);
    else if (!confines(i.run.doc, i.store))
      reasons.push(`the run's settings file ${i.run.file} does not confine Bash (sandbox off, unsandboxed commands allowed, or the store writable)`);
    else if (i.run.launchedWith === false) reasons.push(`the client was not started with --settings ${i.run.file}`);
    else runConfines = true;
  }
  if (!managedConfines && !runConfines && !i.run) {
    reasons.push('not started by `roz exec`/`roz run` and no managed settings confine Bash: user and project settings can turn the sandbox off');
  }

  const m = sandboxOf(i.managed?.doc);
  if (i.managed && (m.enabled === false || m.allowUnsandboxedCommands === true))
    reasons.push(`managed settings ${i.managed.file} turn the sandbox off or allow unsandboxed commands`);

  const strong = [...(i.managed ? [i.managed] : []), ...(i.run?.doc ? [{ file: i.run.file, doc: i.run.doc }] : [])];
  // An explicit `allowAllUnixSockets: false` in the strong source wins over
  // weaker files on both pinned clients (observed); left unset, 2.1.197 lets a
  // project's `true` through.
  const socketsPinned = strong.some(({ doc }) => sandboxOf(doc).network?.allowAllUnixSockets === false);
  for (const { file, doc } of [...strong, ...i.others]) {
    const s = sandboxOf(doc);
    if (Array.isArray(s.excludedCommands) && s.excludedCommands.length > 0) {
      reasons.push(
        `sandbox.excludedCommands in ${file} may run those commands unsandboxed (client 2.1.197 does, even with allowUnsandboxedCommands: false; 2.1.330 does not)`,
      );
    }
    const weaker = !strong.some((x) => x.file === file);
    if (s.network?.allowAllUnixSockets === true && !(weaker && socketsPinned))
      reasons.push(`sandbox.network.allowAllUnixSockets in ${file} lets Bash reach Unix sockets (the supervisor's)`);
  }
  return { mode: reasons.length === 0 ? 'enforced' : 'advisory', reasons };
}
