// Public entry points of the pure shell-command analysers.
export { analyzeCommand, commandsForMatching, matchingStrings, MAX_REPARSE_DEPTH } from './commands.js';
export { classifyDestructive, classifyAnalysis, installEffects, type DestructiveFinding, type DestructiveVerdict } from './destructive.js';
export { DESTRUCTIVE_RULES, isBroadPath, type DestructiveRule, type RuleInput } from './destructive-rules.js';
export { writeTargets, writeTargetsOf, type UnknownWrite, type WriteReport, type WriteTarget } from './writes.js';
export type * from './types.js';
