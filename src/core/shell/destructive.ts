// Classifies a command line as destructive by running every effective command through the rule table.
import { gitSubcommandIndex, parseArgs } from './args.js';
import { analyzeCommand } from './commands.js';
import { DESTRUCTIVE_RULES, isInterpreter, nested, type DestructiveRule } from './destructive-rules.js';
import type { ShellAnalysis, SimpleCommand } from './types.js';

/** One rule that fired, on which effective command. */
export interface DestructiveFinding {
  rule: string;
  /** The effective command (wrappers peeled), or its source text when it has no argv. */
  command: string;
  why: string;
  /** The runner the command ran through (`docker exec`, `npx`, `ssh`), for the human's line. */
  via?: string;
}

export interface DestructiveVerdict {
  destructive: boolean;
  findings: DestructiveFinding[];
  /** False when part of the command could not be analysed (see ShellAnalysis.complete): fail closed. */
  complete: boolean;
}

/**
 * The rules for one command name, found the first time a command of that name
 * is judged: each command meets only the rules that can apply, and a hook
 * indexes the few names it sees instead of every name the table knows (the
 * whole index, built in every hook process, cost more than judging a command).
 */
const byName = new Map<string, readonly DestructiveRule[]>();
function rulesFor(name: string): readonly DestructiveRule[] {
  let rules = byName.get(name);
  if (rules === undefined) {
    rules = DESTRUCTIVE_RULES.filter((rule) => rule.names !== 'any' && rule.names.includes(name));
    byName.set(name, rules);
  }
  return rules;
}
const ANY: readonly DestructiveRule[] = DESTRUCTIVE_RULES.filter((rule) => rule.names === 'any');

// Rules that judge a script found inside another command (`echo '...' | sh`, `os.system('...')`).
let nestedDepth = 0;
nested.destructive = (script) => {
  if (nestedDepth > 2) return true; // scripts printing scripts printing scripts: ask
  nestedDepth++;
  try {
    return classifyDestructive(script).destructive;
  } finally {
    nestedDepth--;
  }
};

/** Is anything in this command line on the destructive list? Sees through wrappers and nesting. */
export function classifyDestructive(source: string): DestructiveVerdict {
  return classifyAnalysis(analyzeCommand(source));
}

/** classifyDestructive for an analysis the caller already has. */
export function classifyAnalysis(analysis: ShellAnalysis): DestructiveVerdict {
  const findings: DestructiveFinding[] = [];
  for (const cmd of analysis.commands) {
    for (const rule of rulesFor(ruleName(cmd))) check(rule, cmd, analysis, findings);
    for (const rule of ANY) check(rule, cmd, analysis, findings);
  }
  return { destructive: findings.length > 0, findings, complete: analysis.complete };
}

/** `mkfs.ext4` and friends share one name family; everything else matches by basename. */
function ruleName(cmd: SimpleCommand): string {
  if (rulesFor(cmd.name).length > 0) return cmd.name;
  if (cmd.name.startsWith('mkfs.')) return 'mkfs';
  // `python3.11`, `node20`, `perl5.36`: the family's rules apply.
  if (isInterpreter(cmd.name)) return cmd.name.replace(/[\d.]+$/, '') || cmd.name;
  return cmd.name;
}

function check(rule: DestructiveRule, cmd: SimpleCommand, analysis: ShellAnalysis, findings: DestructiveFinding[]): void {
  const from = cmd.name === 'git' ? gitSubcommandIndex(cmd.argv) : 1;
  if (from < 0) return;
  // `git restore --help`: git shows a manual page and runs nothing.
  if (cmd.name === 'git' && cmd.argv.includes('--help', from)) return;
  const args = parseArgs(cmd.argv, from, rule.shape);
  let rest = args.operands;
  if (rule.sub !== undefined) {
    const path = rule.sub.find((p) => p.every((word, i) => args.operands[i] === word));
    if (path === undefined) return;
    rest = args.operands.slice(path.length);
  }
  if (rule.when !== undefined && !rule.when({ cmd, args, rest, all: analysis.commands })) return;
  if (findings.some((f) => f.rule === rule.id && f.command === describe(cmd))) return;
  const via = runnerOf(cmd);
  findings.push(
    via === undefined
      ? { rule: rule.id, command: describe(cmd), why: rule.description }
      : { rule: rule.id, command: describe(cmd), why: rule.description, via },
  );
}

/** Wrappers worth naming to the human: runners into another place or program, not `env`/`nice`/a shell. */
const NAMED_RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'uvx', 'ssh', 'sudo', 'doas']);
function runnerOf(cmd: SimpleCommand): string | undefined {
  for (let i = cmd.wrappers.length - 1; i >= 0; i--) {
    const w = cmd.wrappers[i]!;
    if (w.includes(' ') || NAMED_RUNNERS.has(w)) return w;
  }
  return undefined;
}

function describe(cmd: SimpleCommand): string {
  return cmd.argv.length > 0 ? cmd.argv.join(' ') : cmd.text;
}
