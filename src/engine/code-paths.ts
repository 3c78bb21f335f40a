// Tells plugin/bin/roz which parts of the hook bundle this process ran, so
// the V8 code cache is rewritten to cover them: V8 caches only functions that
// have run, and a function missing from the cache is compiled from source in
// every process that calls it. A no-op outside that loader (tests, CLI).
import type { HookEventName } from '../core/hook-input.js';
import { FILE_TOOLS } from '../core/governance/mutations.js';
import { launcherGlobals } from '../core/launcher-globals.js';

/**
 * The lazily loaded parts (governance, the supervisor channel) and the kind of
 * hook: the cache is first written by whichever hook runs first (SessionStart,
 * usually), and without the kind every PreToolUse after it compiled its own
 * path again (~13M instructions, a quarter of the hook's work, measured with
 * callgrind). A handful of kinds, so the cache is rewritten a few times per build.
 */
export type CodePath = 'governance' | 'supervised' | `hook:${HookEventName}` | `hook:${HookEventName}:${'Bash' | 'file' | 'other'}`;

export function markCodePath(path: CodePath): void {
  launcherGlobals().__rozCodePaths?.add(path);
}

/** The kind of hook this process runs: its event, and for a tool event, which kind of tool. */
export function hookCodePath(event: HookEventName, toolName: unknown): CodePath {
  if (typeof toolName !== 'string') return `hook:${event}`;
  return `hook:${event}:${toolName === 'Bash' ? 'Bash' : FILE_TOOLS.has(toolName) ? 'file' : 'other'}`;
}

/**
 * The hook bundle's V8 code cache directory, as plugin/bin/roz chooses it
 * (that launcher is plain CommonJS and cannot import this; keep the two in
 * step). Null when the cache is off.
 */
export function codeCacheDir(env: Record<string, string | undefined>, home: string): string | null {
  const v = env.ROZ_CODE_CACHE;
  if (v === 'off' || v === '0' || v === 'false') return null;
  if (v) return v;
  return `${env.XDG_CACHE_HOME || `${home}/.cache`}/roz`;
}
