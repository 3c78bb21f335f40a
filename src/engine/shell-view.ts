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

export function shellView(command: string): ShellView {
  return {
    argvs: () => analysis(command).commands.map((c) => c.argv).filter((argv) => argv.length > 0),
    normalized: () =>
      analysis(command)
        .commands.filter((c) => c.argv.length > 0)
        .map((c) => c.argv.join(' ')),
  };
}
