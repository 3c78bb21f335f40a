// The mutation class of a change. The rule: a change to an existing .ts/.js/.py
// file that keeps its set of top-level declaration names is AST_REFACTOR (it
// reworks bodies, not the file's surface); creating or deleting a file, adding,
// removing or renaming a top-level declaration, any change roz cannot see the
// before-content of (Bash), and any change to other file types is INTENT_EVOLUTION.
import type { MutationClass } from './trace-record.js';
import { topLevelSymbols } from './symbols.js';

export function classifyFileChange(path: string, before: string | null, after: string | null): MutationClass {
  if (before === null || after === null) return 'INTENT_EVOLUTION';
  const a = topLevelSymbols(path, before);
  const b = topLevelSymbols(path, after);
  if (!a || !b) return 'INTENT_EVOLUTION';
  const names = (s: typeof a): string => [...new Set(s.map((x) => x.name))].sort().join('\0');
  return names(a) === names(b) ? 'AST_REFACTOR' : 'INTENT_EVOLUTION';
}

/** A record is AST_REFACTOR only when every file in it is. */
export function classifyRecord(classes: readonly MutationClass[]): MutationClass {
  return classes.length > 0 && classes.every((c) => c === 'AST_REFACTOR') ? 'AST_REFACTOR' : 'INTENT_EVOLUTION';
}
