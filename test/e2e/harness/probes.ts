// Probes in one Bash call of the scripted agent: each runs a command, keeps
// its output in $TMPDIR and prints `NAME=<exit code> <last output>`, so one
// tool result says which attacks failed and how (worktree-sandbox, object-store).
import type { ParsedRequest } from './fake-api.js';

/** One probe line for the agent's command. */
export const probe = (name: string, cmd: string): string =>
  `{ ${cmd} ; } >"$TMPDIR/${name}.out" 2>&1; echo "${name}=$? $(tail -c 160 $TMPDIR/${name}.out | tr '\\n' ' ')"`;

/** The text of a request's Bash tool results. */
export const bashResultText = (req: ParsedRequest): string =>
  req.toolResults
    .filter((r) => r.toolName === 'Bash')
    .map((r) => r.text)
    .join('\n');

/** `NAME=code out` lines, by name. */
export function probes(text: string): Record<string, { code: number; out: string }> {
  const out: Record<string, { code: number; out: string }> = {};
  for (const m of text.matchAll(/^([A-Z-]+)=(\d+) ?(.*)$/gm)) out[m[1]!] = { code: Number(m[2]), out: m[3] ?? '' };
  return out;
}
