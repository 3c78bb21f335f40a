// Does a tool call write inside roz's own store? The agent must never edit
// review state, traces or decisions by hand.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { ToolHookInput } from '../core/hook-input.js';
import { onDemand } from '../core/on-demand.js';
import { FILE_TOOLS } from '../core/governance/mutations.js';


/** Resolve symlinks of the longest existing prefix, so a link into the store counts. */
export function realish(path: string): string {
  let p = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync.native(p), ...rest.reverse());
    } catch {
      const parent = dirname(p);
      if (parent === p) return path;
      rest.push(p.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      p = parent;
    }
  }
}

export function expandTilde(p: string, home: string): string {
  return p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : p;
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export function writesStore(input: ToolHookInput, storeRoot: string, home: string): boolean {
  const root = realish(resolve(storeRoot));
  const hit = (p: string): boolean => inside(realish(resolve(input.cwd, expandTilde(p, home))), root);
  if (FILE_TOOLS.has(input.tool_name)) {
    const p = input.tool_input.file_path ?? input.tool_input.notebook_path;
    return typeof p === 'string' && hit(p);
  }
  if (input.tool_name === 'Bash' && typeof input.tool_input.command === 'string') {
    const cmd = input.tool_input.command;
    const w = onDemand('shell').writeTargets(cmd);
    if (w.targets.some((t) => hit(t.path))) return true;
    // A write we cannot resolve statically that names the store is refused too.
    const named = cmd.includes(storeRoot) || cmd.includes(root) || (isAbsolute(storeRoot) && storeRoot.startsWith(home) && cmd.includes('~/' + storeRoot.slice(home.length + 1)));
    return named && (w.writes || w.unknown.length > 0);
  }
  return false;
}
