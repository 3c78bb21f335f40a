// Adapts core/shell's analysis to the narrow view policies use, parsing each
// command once per hook process. The shell parser loads on demand: the engine
// loads it up front for Bash calls (see core/on-demand.ts).
// The protected-path check, the review gate, the destructive guard and
// governance all read the same command: each of them asking the parser again
// cost a Bash hook three parses and two write analyses (npm run bench).
import { onDemand } from '../core/on-demand.js';
import type { DestructiveVerdict, ShellAnalysis, WriteReport } from '../core/shell/index.js';
import type { ShellView } from '../core/review/policy.js';

/**
 * One memo per question, keyed by the command text; results are never mutated
 * by their readers. Bounded: the supervisor runs the engine in-process for
 * every http hook of a run, and must not keep every command it ever saw.
 */
const MEMO_ENTRIES = 64;
function memo<T>(compute: (command: string) => T): (command: string) => T {
  const cache = new Map<string, T>();
  return (command) => {
    let v = cache.get(command);
    if (v === undefined) {
      v = compute(command);
      if (cache.size >= MEMO_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(command, v);
    }
    return v;
  };
}

export const analysis: (command: string) => ShellAnalysis = memo((command) => onDemand('shell').analyzeCommand(command));

/** What the command writes, as core/shell/writes.ts reads it (the caller resolves paths). */
export const writeReport: (command: string) => WriteReport = memo((command) => {
  const r = onDemand('shell').writeTargetsOf(analysis(command));
  if (r.needsEffects !== true) return r;
  // A rarely run writer (lazy-writers.ts, issue 30): load the effects module and read again.
  onDemand('effects');
  return onDemand('shell').writeTargetsOf(analysis(command));
});

/** The destructive-command guard's verdict (core/shell/destructive.ts). */
export const destructiveVerdict: (command: string) => DestructiveVerdict = memo((command) => {
  const v = onDemand('shell').classifyAnalysis(analysis(command));
  if (v.needsEffects !== true) return v;
  // A word the effects module acts on (issue 30): load it (NotLoaded makes the engine load it
  // and run the call again; core/on-demand.ts installs it into the classifier) and judge again.
  onDemand('effects');
  return onDemand('shell').classifyAnalysis(analysis(command));
});

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
      const r = writeReport(command);
      return { targets: r.targets.map((t) => t.path), unknown: r.unknown.length > 0 };
    },
  };
}
