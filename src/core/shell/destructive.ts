// Classifies a command line as destructive by running every effective command through the rule table.
import { gitSubcommandIndex, parseArgs } from './args.js';
import { analyzeCommand } from './commands.js';
import { DESTRUCTIVE_RULES, isInterpreter, nested, type DestructiveRule } from './destructive-rules.js';
import { effectHint, lazyName } from './effects-hint.js';
import type { ShellAnalysis, SimpleCommand } from './types.js';
import type { WriteExtractor } from './write-rules.js';
import { installLazyWriters } from './writes.js';

/** What the on-demand effects module (effects.ts) offers; installed by core/on-demand.ts when it loads. */
export interface EffectsModule {
  judgeEffects(cmd: SimpleCommand, inert: boolean, all: readonly SimpleCommand[]): Array<{ rule: string; why: string; effect?: string }>;
  LAZY_WRITERS: Readonly<Record<string, WriteExtractor>>;
}
let effects: EffectsModule | undefined;
/** Called by core/on-demand.ts once both this module and effects.ts are loaded (they are separate hook files). */
export function installEffects(m: EffectsModule | undefined): void {
  effects = m;
  installLazyWriters(m?.LAZY_WRITERS);
}

/** One rule that fired, on which effective command. */
export interface DestructiveFinding {
  rule: string;
  /** The effective command (wrappers peeled), or its source text when it has no argv. */
  command: string;
  why: string;
  /** The runner the command ran through (`docker exec`, `npx`, `ssh`), for the human's line. */
  via?: string;
  /** The human's line when the rule knows the object and where it lives (`destroys my-app (flyctl apps destroy)`). */
  effect?: string;
}

export interface DestructiveVerdict {
  destructive: boolean;
  findings: DestructiveFinding[];
  /** False when part of the command could not be analysed (see ShellAnalysis.complete): fail closed. */
  complete: boolean;
  /** A command may have an effect only the on-demand effects module judges, and it is not loaded: load it and ask again. */
  needsEffects?: true;
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
  let needsEffects = false;
  const hinted = analysis.commands.some((c) => lazyName(c.name)) || effectHint(analysis.commands.map(lineOf).join(' '));
  for (const found of analysis.commands) {
    const cmd = alias(found);
    const quiet = inert(cmd);
    if (!quiet) for (const rule of rulesFor(ruleName(cmd))) check(rule, cmd, analysis, findings);
    for (const rule of ANY) check(rule, cmd, analysis, findings);
    if (!hinted || !mayHaveEffects(cmd)) continue;
    if (effects === undefined) {
      needsEffects = true;
      continue;
    }
    for (const e of effects.judgeEffects(cmd, quiet, analysis.commands)) {
      if (findings.some((f) => f.rule === e.rule && f.command === describe(cmd))) continue;
      const via = runnerOf(cmd);
      const f: DestructiveFinding =
        e.effect === undefined
          ? { rule: e.rule, command: describe(cmd), why: e.why }
          : { rule: e.rule, command: describe(cmd), why: `${e.effect}: ${e.why}`, effect: e.effect };
      findings.push(via === undefined ? f : { ...f, via });
    }
  }
  // Not loaded: fail closed (an ask naming why) for a caller that does not load it; shell-view loads it and asks again.
  if (needsEffects && findings.length === 0) {
    findings.push({ rule: 'effects-unloaded', command: '', why: "roz could not judge this command's effects (its effects module is not loaded)" });
  }
  return { destructive: findings.length > 0, findings, complete: analysis.complete, ...(needsEffects ? { needsEffects: true as const } : {}) };
}

function mayHaveEffects(cmd: SimpleCommand): boolean {
  return lazyName(cmd.name) || effectHint(lineOf(cmd));
}
/** A command's words for the hint: its name, arguments and redirection targets. */
function lineOf(cmd: SimpleCommand): string {
  let s = cmd.name;
  for (let i = 1; i < cmd.argv.length; i++) s += ` ${cmd.argv[i]}`;
  for (const r of cmd.redirects) s += ` ${r.target}`;
  return s;
}

/**
 * A dry run or a help page runs nothing (issue 30): `--help`, `-help`, `--dry-run[=client|server]`,
 * `--dryrun`, `--what-if`, `--preview-only`, `--simulate`; `help SUBCOMMAND` (and aws's trailing
 * `help`); `-h` after a subcommand word where it is not a host (`kubectl delete -h`, not
 * `redis-cli -h prod FLUSHALL`); `-n` only where the tool documents it as a dry run (rsync, rclone,
 * s3cmd, make, gsutil rsync, git clean/rm/push/add/mv/prune/reflog expire/worktree prune).
 * Never for the tools honoursHelp refuses: a BSD `rm -rf x --help` deletes x, then
 * fails on the file `--help`; shells and interpreters run their code whatever follows it.
 */
export function inert(cmd: SimpleCommand): boolean {
  const argv = cmd.argv;
  if (argv.length < 2) return false;
  const end = argv.indexOf('--');
  const words = end === -1 ? argv.slice(1) : argv.slice(1, end);
  return inertWords(cmd, argv, words, end) && honoursHelp(cmd.name);
}

function inertWords(cmd: SimpleCommand, argv: readonly string[], words: readonly string[], end: number): boolean {
  for (const w of words) {
    if (
      w === '--help' ||
      w === '-help' ||
      w === '--dryrun' ||
      w === '--dry_run' ||
      w === '--what-if' ||
      w === '--whatif' ||
      w === '--preview-only' ||
      w === '--simulate'
    )
      return true;
    if (w === '--dry-run' || (w.startsWith('--dry-run=') && !/=(?:none|false|no)$/i.test(w))) return true;
  }
  if (words[0] === 'help' || (cmd.name === 'aws' && words.at(-1) === 'help')) return true;
  if (cmd.name === 'git') {
    const at = gitSubcommandIndex(argv);
    if (at < 0) return false;
    const sub = argv[at];
    if (argv[at + 1] === '-h' || sub === 'help') return true;
    const dry = new Set(['clean', 'rm', 'push', 'add', 'mv', 'prune']);
    const subDry = dry.has(sub!) || (sub === 'reflog' && argv[at + 1] === 'expire') || (sub === 'worktree' && argv[at + 1] === 'prune');
    return subDry && argv.slice(at + 1, end === -1 ? undefined : end).some((w) => /^-[a-zA-Z]*n[a-zA-Z]*$/.test(w));
  }
  const c = (words[0] ?? '').charCodeAt(0) | 32;
  const firstIsWord = c >= 97 && c <= 122;
  if (firstIsWord && words.includes('-h') && !HOST_H.includes(` ${cmd.name} `)) return true;
  const dashN = DRY_N[cmd.name];
  if (dashN !== undefined && (dashN === '' || words.includes(dashN))) return words.some((w) => /^-[a-zA-Z]*n[a-zA-Z]*$/.test(w));
  return false;
}
/** Tools whose `-n` is a dry run; a value names the subcommand it must be under (gsutil's `cp -n` is no-clobber). */
const DRY_N: Readonly<Record<string, string>> = { rsync: '', rclone: '', s3cmd: '', make: '', gmake: '', gsutil: 'rsync' };
/** Clients whose `-h` is the host, not help. */
const HOST_H =
  ' redis-cli mysql mariadb mysqladmin mysqldump psql pg_dump pg_restore dropdb createdb dropuser mongo mongosh clickhouse-client influx sqlcmd cockroach rsync ';
/**
 * Programs whose help or dry-run flag is honoured (or rejected before anything runs): any
 * subcommand CLI, not the POSIX file tools, killers, shells, interpreters or SQL clients.
 * A set and prefixes, not a regular expression: see effects-hint.ts on what a regex costs a hook.
 */
const NO_HELP =
  ' rm rmdir unlink shred dd chmod chown chgrp find truncate mv cp kill killall pkill crontab wipefs sgdisk sfdisk fdisk parted xargs ' +
  'sh bash zsh dash ksh fish deno bun eval exec ssh psql mysql mariadb sqlite3 mongosh mongo redis-cli cqlsh clickhouse-client duckdb sqlcmd ';
function honoursHelp(name: string): boolean {
  if (NO_HELP.includes(` ${name} `)) return false;
  for (const p of ['mkfs', 'python', 'node', 'ruby', 'perl', 'php', 'lua']) if (name.startsWith(p)) return false;
  return true;
}
/^(?!(?:rm|rmdir|unlink|shred|dd|chmod|chown|chgrp|find|truncate|mv|cp|kill|killall|pkill|crontab|wipefs|mkfs.*|sgdisk|sfdisk|fdisk|parted|xargs|sh|bash|zsh|dash|ksh|fish|python.*|node.*|ruby.*|perl.*|php.*|deno|bun|lua.*|eval|exec|ssh|psql|mysql|mariadb|sqlite3|mongosh|mongo|redis-cli|cqlsh|clickhouse-client|duckdb|sqlcmd)$)/;

/** Alternate binaries of known tools: `git-reset` (git-core's own) is `git reset`; `rimraf` is `rm -rf`. */
function alias(cmd: SimpleCommand): SimpleCommand {
  if (cmd.name.startsWith('git-') && cmd.name.length > 4 && cmd.name !== 'git-lfs' && cmd.name !== 'git-shell') {
    return { ...cmd, name: 'git', argv: ['git', cmd.name.slice(4), ...cmd.argv.slice(1)], dynamic: [false, ...cmd.dynamic], glob: [false, ...cmd.glob] };
  }
  if (cmd.name === 'rimraf' || cmd.name === 'del-cli') {
    const ops = cmd.argv.slice(1).filter((w) => !w.startsWith('-'));
    if (ops.length === 0) return cmd;
    return { ...cmd, name: 'rm', argv: ['rm', '-rf', ...ops], dynamic: [false, false, ...ops.map(() => false)], glob: [false, false, ...ops.map(() => false)] };
  }
  return cmd;
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
