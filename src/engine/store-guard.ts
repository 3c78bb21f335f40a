// Does a tool call write inside roz's own store, or another area the agent
// must never change (code cache, config, .claude/, .orchestration/, the run's
// settings file)? The agent must never edit review state, traces or
// decisions by hand.
import { isAbsolute, join, sep } from 'node:path';
import type { ToolHookInput } from '../core/hook-input.js';
import type { ProtectedArea, ProtectedHit } from '../core/enforce/protect.js';
import { NotLoaded, onDemand } from '../core/on-demand.js';
import { FILE_TOOLS, PATCH_TOOLS } from '../core/governance/mutations.js';
import { filesIn, protectedLinkTarget, storeFilesFor } from '../store/hard-links.js';
import { joinUnfolded, resolveReal } from '../store/realpath.js';
import { fileToolRefusal, type WriteArea } from './file-tool-area.js';
import { writeReport } from './shell-view.js';

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
    const w = writeReport(cmd);
    if (w.targets.some((t) => hit(t.path))) return true;
    // A write we cannot resolve statically that names the store is refused too.
    const named =
      cmd.includes(storeRoot) ||
      cmd.includes(root) ||
      (isAbsolute(storeRoot) && storeRoot.startsWith(home) && cmd.includes('~/' + storeRoot.slice(home.length + 1)));
    return named && (w.writes || w.unknown.length > 0);
  }
  return false;
}

/** Where the protected areas are for one hook call (absolute, as configured). */
export interface ProtectedRoots {
  /** roz's plugin folder (CLAUDE_PLUGIN_ROOT), the hooks' own code. */
  pluginDir: string | null;
  codeCache: string | null;
  configFiles: string[];
  settingsFile: string | null;
  claudeUserDir: string;
  home: string;
  /** Where the file tools may write (file-tool-area.ts); absent: no such check. */
  area?: () => WriteArea;
  /** No roz exec/run settings back the hook: its denials say "advisory". */
  advisory?: boolean;
  /** Left to another policy that refuses them in its own words (roz's store: STORE_PROTECTED). */
  deferred?: string[];
}

/** Under ~/.claude, what the agent's own tools legitimately write (plan files, its project memory). */
const CLAUDE_USER_WRITABLE = ['plans', 'projects'];

/**
 * The first write of this call into an area the agent must never change
 * (core/enforce/protect.ts), or null. Paths are resolved through symlinks
 * (resolveReal) before they are compared, so a link into a protected area counts.
 */
export function protectedWrite(input: ToolHookInput, roots: ProtectedRoots): ProtectedHit | null {
  const targets: string[] = [];
  // A patch tool writes like the file tools: held to the same area (where sandboxed Bash may write).
  const patchFields = PATCH_TOOLS.get(input.tool_name);
  const fileTool = FILE_TOOLS.has(input.tool_name) || patchFields !== undefined;
  if (patchFields) {
    // Codex's apply_patch: every file its patch text names (core/apply-patch.ts).
    const { patchFiles, patchText } = onDemand('apply-patch');
    targets.push(...patchFiles(patchText(input.tool_input, patchFields)).paths);
  } else if (fileTool) {
    const p = input.tool_input.file_path ?? input.tool_input.notebook_path;
    if (typeof p === 'string' && p) targets.push(p);
  } else if (input.tool_name === 'Bash' && typeof input.tool_input.command === 'string') {
    // Enforced mode: the sandbox already refuses these; advisory: the parser's
    // first line, skipped (like the review gate) when the parser cannot load.
    try {
      for (const t of writeReport(input.tool_input.command).targets) targets.push(t.path);
    } catch (err) {
      if (err instanceof NotLoaded) throw err;
    }
  }
  if (targets.length === 0) return null;
  const real = (p: string): string => resolveReal(p);
  const cache = roots.codeCache ? real(roots.codeCache) : null;
  const plugin = roots.pluginDir ? real(roots.pluginDir) : null;
  const configs = roots.configFiles.map(real);
  const settings = roots.settingsFile ? real(roots.settingsFile) : null;
  const claudeUser = real(roots.claudeUserDir);
  // A hard link of a protected file is that file (store/hard-links.ts); asked only for targets with nlink > 1.
  const linkCandidates = (): string[] => [
    ...configs,
    ...(settings ? [settings] : []),
    ...(cache ? filesIn(cache) : []),
    ...filesIn(claudeUser).filter((f) => /settings[^/]*\.json$/.test(f)),
    ...['settings.json', 'settings.local.json'].map((f) => join(input.cwd, '.claude', f)),
  ];
  for (const given of targets) {
    // Symlinks resolved before `..` (store/realpath.ts): never path.resolve first.
    const resolved = real(joinUnfolded(input.cwd, expandTilde(given, roots.home)));
    const p = protectedLinkTarget(resolved, linkCandidates) ?? resolved;
    const hit = (area: ProtectedArea): ProtectedHit => ({ area, given, real: p, ...(roots.advisory ? { advisory: true } : {}) });
    if (cache && inside(p, cache)) return hit('code-cache');
    if (plugin && inside(p, plugin)) return hit('plugin');
    if (configs.some((c) => p === c)) return hit('config');
    if (settings && p === settings) return hit('settings-file');
    if (inside(p, claudeUser)) {
      const rest = p.slice(claudeUser.length + 1).split(sep)[0] ?? '';
      if (!CLAUDE_USER_WRITABLE.includes(rest)) return hit('claude-settings');
      continue;
    }
    // Any .claude/ or .orchestration/ folder, at the project root or nested.
    const parts = p.split(sep);
    if (parts.includes('.claude')) return hit('claude-settings');
    if (parts.includes('.orchestration')) return hit('orchestration');
    // Another client's project config (a trusted project's hooks run beside roz's, docs/clients.md).
    if (parts.includes('.codex') || parts.includes('.gemini')) return hit('client-config');
    // The file tools are not sandboxed: they write where sandboxed Bash may, and never into a .git/.
    if (fileTool && roots.area && !(roots.deferred ?? []).some((d) => inside(p, resolveReal(d)))) {
      const refused = fileToolRefusal(p, roots.area());
      if (refused) return hit(refused);
    }
  }
  return null;
}
