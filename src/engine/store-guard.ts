// Does a tool call write inside roz's own store? The agent must never edit
// review state, traces or decisions by hand.
import { isAbsolute, join, sep } from 'node:path';
import type { ToolHookInput } from '../core/hook-input.js';
import { onDemand } from '../core/on-demand.js';
import { FILE_TOOLS } from '../core/governance/mutations.js';
import { protectedLinkTarget, storeFilesFor } from '../store/hard-links.js';
import { joinUnfolded, resolveReal } from '../store/realpath.js';

export function expandTilde(p: string, home: string): string {
  return p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : p;
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export function writesStore(input: ToolHookInput, storeRoot: string, home: string): boolean {
  const root = resolveReal(storeRoot);
  // Symlinks (dangling ones too) resolved before `..`, and a hard link of a store file counts as that file.
  const hit = (p: string): boolean => {
    const real = resolveReal(joinUnfolded(input.cwd, expandTilde(p, home)));
    return inside(real, root) || protectedLinkTarget(real, () => storeFilesFor(root, input.session_id)) !== null;
  };
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
