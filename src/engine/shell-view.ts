// Adapts core/shell's analysis to the narrow view policies use, parsing each
// command once per hook process. The shell parser loads on demand: the engine
// loads it up front for Bash calls (see core/on-demand.ts).
import { onDemand } from '../core/on-demand.js';
import type { ShellAnalysis } from '../core/shell/types.js';
import type { ShellView } from '../core/review/policy.js';

const cache = new Map<string, ShellAnalysis>();

export function analysis(command: string): ShellAnalysis {
  let a = cache.get(command);
  if (!a) {
    a = onDemand('shell').analyzeCommand(command);
    cache.set(command, a);
  }
  return a;
}

/**
 * The argv of a command line that is exactly one plain simple command: no
 * list, pipeline, subshell, substitution, redirection, assignment, wrapper,
 * background `&`, and no word whose value is only known at run time.
 */
function alone(command: string): string[] | null {
  const a = analysis(command);
  if (!a.complete || a.errors.length > 0 || a.commands.length !== 1) return null;
  const c = a.commands[0]!;
  if (c.argv.length === 0 || c.nesting.length > 0 || c.redirects.length > 0 || c.assignments.length > 0 || c.wrappers.length > 0) return null;
  if (c.depth > 0 || c.opaque !== undefined || c.argsFromStdin || c.stdin !== undefined) return null;
  if (c.dynamic.some(Boolean) || c.glob.some(Boolean)) return null;
  return c.argv;
}

export function shellView(command: string): ShellView {
  return {
    argvs: () =>
      analysis(command)
        .commands.map((c) => c.argv)
        .filter((argv) => argv.length > 0),
    normalized: () =>
      analysis(command)
        .commands.filter((c) => c.argv.length > 0)
        .map((c) => c.argv.join(' ')),
    alone: () => alone(command),
    writes: () => {
      const r = onDemand('shell').writeTargetsOf(analysis(command));
      return { targets: r.targets.map((t) => t.path), unknown: r.unknown.length > 0 };
    },
  };
}
