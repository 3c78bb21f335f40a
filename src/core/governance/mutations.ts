// Which tool calls change files, and which files: file tools name their
// target; Bash commands go through the shell write analysis.
import type { ToolHookInput } from '../hook-input.js';
import { onDemand } from '../on-demand.js';
import { patchTools } from '../clients.js';
import type { UnknownWrite, WriteReport, WriteTarget } from '../shell/writes.js';

import { FILE_TOOLS } from '../file-tools.js';

export { FILE_TOOLS };
/** Patch tools (Codex's `apply_patch`): the text fields their patch may be in, from core/clients.ts. */
export const PATCH_TOOLS: ReadonlyMap<string, readonly string[]> = patchTools();

// The shapes come from core/shell/writes.ts; governance takes the analyser as
// a parameter so tests can substitute it.
export type { UnknownWrite, WriteTarget } from '../shell/writes.js';
export type WriteAnalysis = WriteReport;
export type WriteAnalyzer = (command: string) => WriteAnalysis;

export interface Mutation {
  tool: string;
  /** The Bash command, for Bash mutations. */
  command: string | null;
  targets: WriteTarget[];
  unknown: UnknownWrite[];
}

/** The mutation a tool call would make, or null when it changes nothing on disk. */
export function mutationOf(input: ToolHookInput, writes: WriteAnalyzer): Mutation | null {
  const tool = input.tool_name;
  if (FILE_TOOLS.has(tool)) {
    const p = input.tool_input.file_path ?? input.tool_input.notebook_path;
    if (typeof p === 'string' && p.length > 0) return { tool, command: null, targets: [{ path: p, via: tool }], unknown: [] };
    return { tool, command: null, targets: [], unknown: [{ command: tool, why: 'the call names no file_path' }] };
  }
  const patchFields = PATCH_TOOLS.get(tool);
  if (patchFields) {
    const { patchFiles, patchText } = onDemand('apply-patch');
    const files = patchFiles(patchText(input.tool_input, patchFields));
    return {
      tool,
      command: null,
      targets: files.paths.map((path) => ({ path, via: tool })),
      unknown: files.problem ? [{ command: tool, why: files.problem }] : [],
    };
  }
  if (tool === 'Bash') {
    const command = typeof input.tool_input.command === 'string' ? input.tool_input.command : '';
    const w = writes(command);
    if (!w.writes && w.targets.length === 0 && w.unknown.length === 0) return null;
    return { tool, command, targets: w.targets, unknown: w.unknown };
  }
  return null;
}

/** The MCP tool as the client names it: `mcp__<server>__select_active_intent` (plugin servers get a prefixed name). */
export function isSelectIntentTool(toolName: string): boolean {
  return /^mcp__.+__select_active_intent$/.test(toolName);
}
