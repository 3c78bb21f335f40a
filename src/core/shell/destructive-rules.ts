// The destructive-command rules, as data: which command, which subcommand, which flags/operands.
import { parseArgs, type OptionShape, type ParsedArgs } from './args.js';
import { isScratchPath } from './scratch.js';
import type { NestingFrame, SimpleCommand } from './types.js';

/** What a rule's condition sees for one effective simple command. */
export interface RuleInput {
  cmd: SimpleCommand;
  /** Options and operands, parsed from after the tool's global options (git) with the rule's shape. */
  args: ParsedArgs;
  /** Operands after the matched subcommand path (`git push origin +main` → `origin`, `+main`). */
  rest: string[];
  /** Every command of the same analysis, for rules about pipelines (`curl | sh`). */
  all: readonly SimpleCommand[];
}

export type Condition = (input: RuleInput) => boolean;

/** One destructive pattern. A command matches when its name, subcommand and condition all match. */
export interface DestructiveRule {
  id: string;
  /** Why this is dangerous, shown to the agent. */
  description: string;
  /** Effective command basenames this applies to; 'any' for rules about redirections and context. */
  names: readonly string[] | 'any';
  /** Alternative subcommand paths that must lead the operands (`[['stash', 'drop'], ['stash', 'clear']]`). */
  sub?: readonly (readonly string[])[];
  /** Options that take a value, so values are not read as operands. */
  shape?: OptionShape;
  /** Extra condition; absent means name (+ sub) is enough. */
  when?: Condition;
}

// ---- condition helpers -------------------------------------------------------------------

/** Any of the short letters or long options is present. */
export const flag =
  (letters: string, ...longs: string[]): Condition =>
  ({ args }) => {
    for (const l of letters) if (args.short.has(l)) return true;
    return longs.some((l) => args.long.has(l));
  };
export const not =
  (c: Condition): Condition =>
  (i) =>
    !c(i);
export const both =
  (...cs: Condition[]): Condition =>
  (i) =>
    cs.every((c) => c(i));
export const either =
  (...cs: Condition[]): Condition =>
  (i) =>
    cs.some((c) => c(i));
/** Some operand (after the subcommand) satisfies the predicate. */
export const restHas =
  (p: (operand: string) => boolean): Condition =>
  ({ rest }) =>
    rest.some(p);
/** Some argument word (any position after the name) matches. */
export const argMatches =
  (re: RegExp): Condition =>
  ({ cmd }) =>
    cmd.argv.some((w, i) => i > 0 && re.test(w));

/** Paths whose wholesale deletion or permission change wrecks a machine, a home or a project. */
const BROAD_PATHS = new Set([
  '/',
  '~',
  '$HOME',
  '${HOME}',
  '.',
  '..',
  '*',
  '.*',
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib64',
  '/var',
  '/boot',
  '/home',
  '/opt',
  '/root',
  '/sys',
  '/dev',
  '/proc',
  '/srv',
  '/System',
  '/Library',
  '/Users',
  '/Applications',
  '/private',
]);

/** `/`, `~/`, `./*`, `/usr/` ...: a path that names a whole tree rather than something in it. */
export function isBroadPath(path: string): boolean {
  let p = path;
  if (p.endsWith('/*')) p = p.slice(0, -2) || '/';
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  if (p.startsWith('./') && p.length > 2) p = p.slice(2);
  return p === '' || BROAD_PATHS.has(p);
}

export const broadOperand: Condition = restHas(isBroadPath);

/** Caches a tool rebuilds on its next run: deleting one loses nothing. */
const CACHE_SEGMENT = new Set([
  '.cache',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.turbo',
  '.parcel-cache',
  '.eslintcache',
  '.sass-cache',
  '.hypothesis',
  '.vite',
  '.nyc_output',
  '.jest-cache',
  '.webpack-cache',
]);

/** A project cache (`node_modules/.cache`, `src/__pycache__`, `.next/cache`), named relatively and without `..`. */
export function isCachePath(path: string): boolean {
  if (path.startsWith('/') || path.startsWith('~') || path.startsWith('$') || /[`$]/.test(path)) return false;
  const segments = path.replace(/^\.\//, '').replace(/\/+$/, '').split('/');
  if (segments.some((s) => s === '..' || s === '')) return false;
  return segments.some((s, i) => CACHE_SEGMENT.has(s) || (s === 'cache' && segments[i - 1] === '.next'));
}

/** Every operand is scratch or a cache, and there is one at least (`rm -rf 2>/dev/null` deletes nothing). */
const onlyScratch: Condition = ({ cmd, args }) => {
  if (cmd.argsFromStdin) return false;
  // `TMPDIR=/Users rm -rf $TMPDIR/x`: a command that sets TMPDIR itself must point it at a scratch area.
  const set = cmd.assignments.filter((a) => a.name === 'TMPDIR' || a.name === 'CLAUDE_CODE_TMPDIR');
  if (set.some((a) => a.dynamic || !isScratchPath(a.value))) return false;
  return args.operands.every((o) => isScratchPath(o) || isCachePath(o));
};

/** Block devices whose contents a write destroys. */
export const DISK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|mapper\/)/;

/** Statements that destroy data when fed to a SQL/NoSQL client (after comments are removed). */
const DESTRUCTIVE_SQL = new RegExp(
  [
    String.raw`\bdrop\s+(?:database|table|schema|view|index|user|role|keyspace|collection|materialized\s+view|function|procedure|trigger|sequence|owned)\b`,
    String.raw`\btruncate\b`,
    // DELETE/UPDATE without WHERE: the statement ends (or the text does) before any WHERE.
    String.raw`\bdelete\s+from\s+[\w."\`\[\]]+\s*(?:;|$)`,
    String.raw`\bupdate\s+[\w."\`\[\]]+\s+set\s+(?:(?!\bwhere\b)[^;])*(?:;|$)`,
    String.raw`\balter\s+table\s+[\w."\`\[\]]+\s+drop\b`,
    // MongoDB shell: drop(), dropDatabase(), deleteMany({}) / remove({}) with an empty filter.
    String.raw`\.drop(?:Database)?\s*\(`,
    String.raw`\.(?:deleteMany|remove)\s*\(\s*\{\s*\}`,
  ].join('|'),
  'im',
);

/** SQL with comments removed and whitespace folded, so DROP with a block or line comment before TABLE reads as written. */
export function normaliseSql(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, ' ')
    .replace(/(?:--|#)[^\n]*/g, ' ')
    .replace(/\s+/g, ' ');
}

export function isDestructiveSql(text: string): boolean {
  return DESTRUCTIVE_SQL.test(normaliseSql(text));
}

export const SQL_SHAPE: OptionShape = {
  shortWithValue: 'ceqQdhpUfuPDxiS',
  longWithValue: [
    '--command',
    '--execute',
    '--query',
    '--eval',
    '--dbname',
    '--host',
    '--port',
    '--username',
    '--user',
    '--file',
    '--sql',
    '--init',
    '--source',
    '--database',
  ],
};

export const SQL_CLIENTS = [
  'psql',
  'mysql',
  'mariadb',
  'sqlite3',
  'sqlite',
  'sqlcmd',
  'clickhouse-client',
  'clickhouse',
  'cockroach',
  'mongo',
  'mongosh',
  'duckdb',
  'pgcli',
  'mycli',
  'litecli',
  'usql',
  'sqlplus',
  'snowsql',
  'bq',
  'cqlsh',
  'trino',
  'presto',
  'vsql',
  'isql',
  'db2',
  'turso',
  'd1',
];

/** Commands that turn encoded or compressed bytes back into text: what they print nobody has read. */
const DECODERS = new Set([
  'base64',
  'base32',
  'basenc',
  'xxd',
  'openssl',
  'uudecode',
  'gunzip',
  'zcat',
  'gzip',
  'bzcat',
  'xzcat',
  'zstdcat',
  'unzstd',
  'rev',
  'tr',
]);

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'curlie', 'lwp-request', 'GET']);
const SHELL_NAMES = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'csh', 'tcsh', 'busybox']);

/** Shells and language runtimes, versioned names included (`python3.11`, `node20`, `pypy3`). */
export function isInterpreter(name: string): boolean {
  return SHELL_NAMES.has(name) || /^(?:python|pypy|perl|ruby|node|nodejs|php|lua|luajit|tclsh|Rscript|deno|bun|osascript|pwsh|powershell)[\d.]*$/.test(name);
}
const INTERPRETER_NAMES = [
  ...SHELL_NAMES,
  'python',
  'python2',
  'python3',
  'pypy',
  'pypy3',
  'perl',
  'ruby',
  'node',
  'nodejs',
  'php',
  'lua',
  'luajit',
  'tclsh',
  'Rscript',
  'deno',
  'bun',
  'osascript',
  'pwsh',
  'powershell',
];

/** The pipeline element frame a command sits in directly (innermost), if any. */
function pipelineFrame(cmd: SimpleCommand): NestingFrame | undefined {
  for (let i = cmd.nesting.length - 1; i >= 0; i--) {
    const f = cmd.nesting[i]!;
    if (f.kind === 'pipeline') return f;
  }
  return undefined;
}

/** Commands in earlier elements of the same pipeline. */
export function upstream(cmd: SimpleCommand, all: readonly SimpleCommand[]): SimpleCommand[] {
  const frame = pipelineFrame(cmd);
  if (frame === undefined || frame.index === undefined || frame.index === 0) return [];
  const index = frame.index;
  return all.filter((other) => other.nesting.some((f) => f.kind === 'pipeline' && f.id === frame.id && (f.index ?? 0) < index));
}

/** The text a SQL client would execute: -c/-e/--command/--execute values, operands, stdin, piped echo. */
export const sqlText: Condition = ({ cmd, args, all }) => {
  const texts: string[] = [];
  for (const key of ['c', 'e', 'q', 'Q', 'x', '--command', '--execute', '--query', '--eval', '--sql']) texts.push(...(args.values.get(key) ?? []));
  texts.push(...args.operands);
  if (cmd.stdin !== undefined) texts.push(cmd.stdin);
  for (const up of upstream(cmd, all)) if (up.name === 'echo' || up.name === 'printf') texts.push(up.argv.slice(1).join(' '));
  return texts.some(isDestructiveSql);
};

/** A SQL client reading a script roz cannot see: `-f file`, `< file`, `cat file |`, `source file`. */
export const sqlFromFile: Condition = ({ cmd, args, all }) => {
  if (args.values.has('f') || args.values.has('--file') || args.values.has('i') || args.values.has('--init') || args.values.has('--source')) return true;
  if (cmd.redirects.some((r) => r.op === '<' && r.target !== '/dev/null')) return true;
  if (args.operands.some((o) => /^\s*(?:\\i|\\ir|source|\.read)\s/i.test(o))) return true;
  return upstream(cmd, all).some((up) => up.name === 'cat' || up.name === 'zcat' || up.name === 'gunzip' || DOWNLOADERS.has(up.name));
};

/** An interpreter reading its program from stdin (`sh`, `sh -s`, `python3 -`, `bash -- -`). */
function readsProgramFromStdin(args: ParsedArgs): boolean {
  if (args.short.has('c') || args.short.has('e') || args.long.has('--eval')) return false;
  return args.short.has('s') || args.operands.length === 0 || args.operands[0] === '-';
}

/** Decoders that decode (`base64 -d`, `xxd -r`, `openssl enc -d`, `gzip -d`); an encoder feeding a shell is odd, but harmless. */
function decodes(cmd: SimpleCommand): boolean {
  const a = cmd.argv.slice(1);
  switch (cmd.name) {
    case 'base64':
    case 'base32':
    case 'basenc':
      return a.some((w) => w === '-d' || w === '-D' || w === '--decode' || /^-[a-zA-Z]*d/.test(w));
    case 'xxd':
      return a.some((w) => /^-[a-z]*r/.test(w));
    case 'openssl':
      return a.some((w) => w === '-d' || w === 'base64');
    case 'gzip':
      return a.some((w) => /^-[a-z]*d/.test(w) || w === '--decompress');
    default:
      return true;
  }
}

/** A shell or interpreter that executes code nobody reviewed: downloaded, decoded, or given as an expansion. */
const runsDownloadedScript: Condition = ({ cmd, args, all }) => {
  const name = cmd.name;
  const unseen = /\b(?:curl|wget|fetch|base64|base32|xxd|openssl|gunzip|zcat)\b/;
  // `sh -c "$(curl ...)"`, `bash <(curl ...)`, `eval "$(wget -O- ...)"`, `source <(curl ...)`
  if (cmd.argv.some((w, i) => i > 0 && cmd.dynamic[i] === true && unseen.test(w))) return true;
  // `bash <<< "$(curl ...)"`: the analyser marks the shell opaque and keeps the here-string.
  if (cmd.opaque !== undefined && cmd.stdin !== undefined && unseen.test(cmd.stdin)) return true;
  if (!isInterpreter(name) || !readsProgramFromStdin(args)) return false;
  return upstream(cmd, all).some((up) => DOWNLOADERS.has(up.name) || (DECODERS.has(up.name) && decodes(up)) || (up.argv.length > 0 && up.dynamic[0] === true));
};

/** `echo 'rm -rf x' | sh`: the printed text is a script; judge it like one. */
const runsPrintedDestructiveScript: Condition = ({ cmd, args, all }) => {
  if (!SHELL_NAMES.has(cmd.name) || !readsProgramFromStdin(args)) return false;
  return upstream(cmd, all).some((up) => (up.name === 'echo' || up.name === 'printf') && printedIsDestructive(up));
};

/** Set by destructive.ts: classifies a nested script (kept as a hook to avoid an import cycle). */
export const nested: { destructive: (script: string) => boolean } = { destructive: () => false };

function printedIsDestructive(up: SimpleCommand): boolean {
  const words = up.argv.slice(1).filter((w) => !/^-[neE]+$/.test(w));
  const text = (up.name === 'printf' ? words.join(' ').replace(/\\n/g, '\n') : words.join(' ')).trim();
  return text.length > 0 && nested.destructive(text);
}

/** Paths a download writes: `curl -o f`, `curl -O URL`, `wget [-O f] URL`, `curl URL > f`, `curl URL | tee f`. */
function downloadedPaths(all: readonly SimpleCommand[]): Set<string> {
  const out = new Set<string>();
  const addName = (url: string): void => {
    const m = /^[a-z]+:\/\/[^/]+\/(?:.*\/)?([^/?#]+)/i.exec(url);
    if (m) out.add(m[1]!);
  };
  for (const cmd of all) {
    const fromDownload = DOWNLOADERS.has(cmd.name);
    const piped = upstream(cmd, all).some((up) => DOWNLOADERS.has(up.name));
    if (fromDownload) {
      const a = parseArgs(cmd.argv, 1, {
        shortWithValue: cmd.name === 'wget' ? 'OPaoeiUtTwQlAR' : 'oHdXuAeTrwxzKbcEmDF',
        longWithValue: ['--output', '--output-document', '--directory-prefix', '--header', '--data', '--request', '--user', '--output-dir'],
      });
      for (const v of [...(a.values.get('o') ?? []), ...(a.values.get('--output') ?? []), ...(a.values.get('--output-document') ?? [])]) out.add(v);
      if (cmd.name === 'wget') for (const v of a.values.get('O') ?? []) out.add(v);
      const remoteName = cmd.name === 'wget' ? !a.values.has('O') : a.short.has('O') || a.long.has('--remote-name');
      if (remoteName) for (const o of a.operands) addName(o);
    }
    if (fromDownload || piped) {
      for (const r of cmd.redirects) if (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>') out.add(r.target);
      if (piped && cmd.name === 'tee') for (const o of cmd.argv.slice(1)) if (!o.startsWith('-')) out.add(o);
    }
  }
  return out;
}

const samePath = (a: string, b: string): boolean => a.replace(/^\.\//, '') === b.replace(/^\.\//, '');

/** A script fetched earlier in the same command line, then run (`curl -o i.sh URL && bash i.sh`, `./i.sh`). */
const runsFetchedFile: Condition = ({ cmd, all }) => {
  if (cmd.argv.length === 0) return false;
  const fetched = downloadedPaths(all);
  if (fetched.size === 0) return false;
  const candidates: string[] = [];
  if (isInterpreter(cmd.name) || cmd.name === 'source' || cmd.name === '.') {
    const first = cmd.argv.slice(1).find((w) => !w.startsWith('-'));
    if (first !== undefined) candidates.push(first);
  } else if (cmd.argv[0]!.includes('/')) candidates.push(cmd.argv[0]!);
  return candidates.some((c) => [...fetched].some((f) => samePath(c, f) || c.endsWith(`/${f.replace(/^\.\//, '')}`)));
};

/** Shell commands inside inline interpreter code: `python -c "os.system('rm -rf x')"`, `node -e "execSync('...')"`. */
const inlineShellIsDestructive: Condition = ({ cmd }) => {
  if (!isInterpreter(cmd.name) || SHELL_NAMES.has(cmd.name)) return false;
  // `node -e "rm -rf /"`: code that reads as a destructive shell command is asked about either way.
  for (let i = 1; i < cmd.argv.length - 1; i++) if (/^-[a-zA-Z]*[ceErp]$|^--eval$/.test(cmd.argv[i]!) && nested.destructive(cmd.argv[i + 1]!)) return true;
  const code = cmd.argv.slice(1).join(' ');
  const re =
    /\b(?:system|popen|exec|execSync|spawnSync|check_output|check_call|getoutput|getstatusoutput|call|run|Popen|shell_exec|passthru|qx)\s*\(\s*(['"`])(.+?)\1/g;
  for (let m = re.exec(code); m !== null; m = re.exec(code)) if (nested.destructive(m[2]!)) return true;
  // Backticks in perl/ruby/php run a shell.
  if (/^(?:perl|ruby|php)/.test(cmd.name)) for (const m of code.matchAll(/`([^`]+)`/g)) if (nested.destructive(m[1]!)) return true;
  return false;
};

/** Recursive deletion APIs in inline interpreter code. */
const inlineRecursiveDelete: Condition = ({ cmd }) => {
  if (!isInterpreter(cmd.name) || SHELL_NAMES.has(cmd.name)) return false;
  const code = cmd.argv.slice(1).join(' ');
  return /\bshutil\.rmtree\b|\brmtree\s*\(|\b(?:rmSync|rm|rmdirSync|rmdir)\s*\([^)]*recursive\s*:\s*true|\bFileUtils\.rm_r[f]?\b|\bFileUtils\.remove_dir\b|\bremove_tree\b|\bfs\.remove(?:Sync)?\s*\(|\brimraf\b/.test(
    code,
  );
};

/** Fork bomb: a function calling itself in a pipeline or in the background. */
const callsOwnFunctionConcurrently: Condition = ({ cmd }) => {
  for (let i = cmd.nesting.length - 1; i >= 0; i--) {
    const f = cmd.nesting[i]!;
    if (f.kind !== 'function') continue;
    if (f.name !== cmd.argv[0]) return false;
    return cmd.nesting.slice(i + 1).some((g) => g.kind === 'pipeline' || g.kind === 'background');
  }
  return false;
};

/** `kill -9 -1` / `kill -s KILL -1` / `kill -- -1`: every process the user may signal. */
export const killsEverything: Condition = ({ cmd }) => {
  const a = cmd.argv.slice(1);
  let i = 0;
  if (a[0] === '-s' || a[0] === '-n') i = 2;
  else if (a[0] !== undefined && a[0].startsWith('-') && a[0] !== '--' && a.length > 1) i = 1;
  return a.slice(i).some((w) => w === '-1');
};

const writesDiskDevice: Condition = ({ cmd }) =>
  cmd.redirects.some((r) => (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>' || r.op === '&>>' || r.op === '<>') && DISK_DEVICE.test(r.target));

const inFindExec: Condition = ({ cmd }) => cmd.nesting.some((f) => f.kind === 'find-exec');

export const mode777: Condition = ({ args }) => args.operands.some((o) => /^0?777$|^(?:a|ugo)?\+rwx$/.test(o));

export const sizeZero: Condition = ({ args }) => [...(args.values.get('s') ?? []), ...(args.values.get('--size') ?? [])].some((v) => /^0+[KMG]?$/.test(v));

export const KUBECTL_SHAPE: OptionShape = {
  shortWithValue: 'nlfocks',
  longWithValue: [
    '--namespace',
    '--selector',
    '--filename',
    '--context',
    '--output',
    '--kubeconfig',
    '--cluster',
    '--server',
    '--user',
    '--grace-period',
    '--timeout',
  ],
};

/** Opaque reasons that mean a shell or interpreter runs text nobody has read (not just an unknown write). */
const SHELL_TEXT =
  /runs a script whose text|eval of a string|runs a command that is not known|command lines it reads from stdin|command text read from stdin|remote command that is not known|nested too deeply|-S cannot be analysed|--split-string re-splits/;
const MAX_OPAQUE_DEPTH = 8;
const isShellText = (why: string): boolean => SHELL_TEXT.test(why);
/**
 * Text from stdin, a variable, or nesting too deep. Text a local command prints (`eval "$(ssh-agent -s)"`,
 * `bash -c "$(cat task.sh)"`) runs like a project script (allowed and audited); downloads and
 * decoders printing it are pipe-to-shell.
 */
const unreadText = (cmd: SimpleCommand): boolean =>
  /stdin|nested too deeply|split/.test(cmd.opaque ?? '') || cmd.argv.some((w, i) => i > 0 && cmd.dynamic[i] === true && /\$[{A-Za-z_]/.test(w));

/** Values some git checkout options take as the next word (`--track direct`, `--unified 3`): not paths. */
const CHECKOUT_OPTION_VALUE: Readonly<Record<string, RegExp>> = {
  '--recurse-submodules': /^(?:checkout|on-demand|yes|no)$/,
  '--track': /^(?:direct|inherit)$/,
  '--unified': /^\d+$/,
  '--inter-hunk-context': /^\d+$/,
};

/** How many operands `git checkout` has (the subcommand included), not counting such option values. */
function checkoutOperands(argv: readonly string[], args: ParsedArgs): number {
  let n = args.operands.length;
  for (const i of args.operandIndex) {
    const re = CHECKOUT_OPTION_VALUE[argv[i - 1] ?? ''];
    if (re !== undefined && re.test(argv[i]!)) n--;
  }
  return n;
}

// ---- the table ----------------------------------------------------------------------------

export const DESTRUCTIVE_RULES: readonly DestructiveRule[] = [
  {
    id: 'rm-recursive-force',
    description: 'rm -rf deletes whole trees without asking',
    names: ['rm'],
    when: both(flag('rR', '--recursive'), flag('f', '--force'), not(onlyScratch)),
  },
  {
    id: 'rm-broad-target',
    description: 'rm of /, ~, ., .. or * deletes far more than one file',
    names: ['rm'],
    when: broadOperand,
  },
  {
    id: 'xargs-rm',
    description: 'rm/shred/unlink fed a file list from stdin deletes files nobody reviewed',
    names: ['rm', 'shred', 'unlink', 'rmdir'],
    when: ({ cmd }) => cmd.argsFromStdin,
  },
  {
    id: 'find-delete',
    description: 'find -delete removes every match',
    names: ['find'],
    when: ({ cmd }) => cmd.findDelete,
  },
  {
    id: 'find-exec-rm',
    description: 'find -exec rm removes every match',
    names: ['rm', 'shred', 'unlink', 'rmdir'],
    when: inFindExec,
  },
  {
    id: 'git-push-force',
    description: 'force-pushing rewrites shared history',
    names: ['git'],
    sub: [['push']],
    // `--force-with-lease` (alone or with --force/+ref) still checks the remote: the safe force.
    when: both(
      either(
        flag('f', '--force', '--mirror'),
        restHas((o) => o.startsWith('+')),
      ),
      not(flag('', '--force-with-lease')),
    ),
  },
  {
    id: 'git-push-delete',
    description: 'pushing a deletion removes a remote branch or tag',
    names: ['git'],
    sub: [['push']],
    when: either(
      flag('d', '--delete', '--prune'),
      restHas((o) => o.startsWith(':') && o.length > 1),
    ),
  },
  {
    id: 'git-reset-hard',
    description: 'git reset --hard discards uncommitted work',
    names: ['git'],
    sub: [['reset']],
    when: flag('', '--hard', '--merge'),
  },
  {
    id: 'git-clean-force',
    description: 'git clean -f deletes untracked files',
    names: ['git'],
    sub: [['clean']],
    when: both(flag('f', '--force'), not(flag('n', '--dry-run'))),
  },
  {
    id: 'git-discard-all',
    description: 'checking out/restoring the whole tree discards every uncommitted change',
    names: ['git'],
    sub: [['checkout'], ['restore']],
    shape: { shortWithValue: 'sbBcC', longWithValue: ['--source', '--conflict', '--pathspec-from-file', '--orphan'] },
    when: either(
      both(({ args }) => args.operands[0] === 'checkout', flag('f', '--force')),
      both(
        restHas((o) => o === '.' || o === ':/' || o === '*' || o === './' || o === ':(top)' || o === '/'),
        // `git restore --staged .` only unstages.
        either(({ args }) => args.operands[0] === 'checkout', not(flag('S', '--staged')), flag('W', '--worktree')),
      ),
    ),
  },
  {
    id: 'git-discard-changes',
    description: 'restoring or checking out files over the work tree discards their uncommitted changes',
    names: ['git'],
    sub: [['checkout'], ['restore'], ['switch']],
    shape: { shortWithValue: 'sbBcC', longWithValue: ['--source', '--conflict', '--pathspec-from-file', '--orphan'] },
    when: ({ cmd, args }) => {
      const sub = args.operands[0];
      if (sub === 'restore')
        return (
          !((args.short.has('S') || args.long.has('--staged')) && !(args.short.has('W') || args.long.has('--worktree'))) &&
          (args.operands.length > 1 || args.long.has('--pathspec-from-file'))
        );
      if (sub === 'switch') return args.short.has('f') || args.long.has('--discard-changes') || args.long.has('--force');
      // checkout: `git checkout [tree-ish] -- paths`, `git checkout REV path...`, or --pathspec-from-file.
      const creates = args.short.has('b') || args.short.has('B') || args.long.has('--orphan');
      return (
        (cmd.argv.includes('--') && cmd.argv.indexOf('--') < cmd.argv.length - 1) ||
        (!creates && checkoutOperands(cmd.argv, args) > 2) ||
        args.long.has('--pathspec-from-file') ||
        args.short.has('f') ||
        args.long.has('--force')
      );
    },
  },
  {
    id: 'git-worktree-remove-force',
    description: 'git worktree remove --force deletes a work tree with uncommitted changes',
    names: ['git'],
    sub: [
      ['worktree', 'remove'],
      ['worktree', 'rm'],
    ],
    when: flag('f', '--force'),
  },
  {
    id: 'git-update-ref-delete',
    description: 'git update-ref -d deletes a ref (branch or tag) without checks',
    names: ['git'],
    sub: [['update-ref']],
    when: flag('d', '--delete'),
  },
  {
    id: 'git-reflog-expire',
    description: 'expiring or deleting reflog entries removes the record needed to recover lost commits',
    names: ['git'],
    sub: [['reflog', 'expire'], ['reflog', 'delete'], ['prune'], ['gc']],
    when: ({ args }) =>
      args.operands[0] !== 'gc' || [...(args.values.get('--prune') ?? [])].some((v) => v === 'now' || v === 'all') || args.long.has('--prune=now'),
    shape: { shortWithValue: '', longWithValue: [] },
  },
  {
    id: 'git-filter-history',
    description: 'rewriting all history (filter-branch/filter-repo) replaces every commit',
    names: ['git'],
    sub: [['filter-branch'], ['filter-repo']],
  },
  {
    id: 'git-branch-force-delete',
    description: 'git branch -D deletes a branch even if unmerged',
    names: ['git'],
    sub: [['branch']],
    when: either(flag('D'), both(flag('d', '--delete'), flag('f', '--force'))),
  },
  {
    id: 'git-stash-drop',
    description: 'dropping stashes loses the work saved in them',
    names: ['git'],
    sub: [
      ['stash', 'drop'],
      ['stash', 'clear'],
    ],
  },
  { id: 'shred', description: 'shred irrecoverably overwrites files', names: ['shred'] },
  { id: 'write-to-disk-device', description: 'redirecting into a block device overwrites it', names: 'any', when: writesDiskDevice },
  {
    id: 'pipe-to-shell',
    description: 'a shell or interpreter fed a download, decoded bytes or a computed string executes code nobody reviewed',
    names: [...INTERPRETER_NAMES, 'eval', 'source', '.'],
    when: runsDownloadedScript,
  },
  {
    id: 'printed-script',
    description: 'a shell fed a printed script runs it, and that script is destructive',
    names: [...SHELL_NAMES],
    when: runsPrintedDestructiveScript,
  },
  {
    id: 'run-downloaded-file',
    description: 'running a script downloaded earlier in the same command executes code nobody reviewed',
    names: 'any',
    when: runsFetchedFile,
  },
  {
    id: 'inline-code-shell',
    description: 'inline interpreter code runs a destructive shell command',
    names: INTERPRETER_NAMES,
    when: inlineShellIsDestructive,
  },
  {
    id: 'inline-code-rmtree',
    description: 'inline interpreter code deletes a directory tree',
    names: INTERPRETER_NAMES,
    when: inlineRecursiveDelete,
  },
  {
    // A first line only: the wall is the sandbox (no Unix sockets, the control records unreadable; docs/fleet.md).
    id: 'roz-answer',
    description: "answering roz's approval queue (roz approve/block) is for the human at their own terminal, never for an agent",
    names: ['roz'],
    sub: [['approve'], ['block']],
  },
  { id: 'fork-bomb', description: 'a function spawning itself concurrently exhausts the machine', names: 'any', when: callsOwnFunctionConcurrently },
  { id: 'kill-all', description: 'kill -1 signals every process the user owns', names: ['kill'], when: killsEverything },
  {
    id: 'rsync-delete',
    description: 'rsync --delete removes destination files missing from the source (or --remove-source-files the sources)',
    names: ['rsync'],
    when: ({ args }) => [...args.long].some((l) => l === '--del' || l.startsWith('--delete') || l === '--remove-source-files' || l === '--remove-sent-files'),
  },
  {
    id: 'unseen-script',
    description: 'a shell runs command text roz cannot read (from stdin, a variable or a substitution)',
    names: 'any',
    when: ({ cmd }) => cmd.opaque !== undefined && cmd.depth <= MAX_OPAQUE_DEPTH && isShellText(cmd.opaque) && unreadText(cmd),
  },
  { id: 'mv-to-dev-null', description: 'moving files to /dev/null destroys them', names: ['mv'], when: restHas((o) => o === '/dev/null') },
];
