// The destructive-command rules, as data: which command, which subcommand, which flags/operands.
import type { OptionShape, ParsedArgs } from './args.js';
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
const flag =
  (letters: string, ...longs: string[]): Condition =>
  ({ args }) => {
    for (const l of letters) if (args.short.has(l)) return true;
    return longs.some((l) => args.long.has(l));
  };
const not =
  (c: Condition): Condition =>
  (i) =>
    !c(i);
const both =
  (...cs: Condition[]): Condition =>
  (i) =>
    cs.every((c) => c(i));
const either =
  (...cs: Condition[]): Condition =>
  (i) =>
    cs.some((c) => c(i));
/** Some operand (after the subcommand) satisfies the predicate. */
const restHas =
  (p: (operand: string) => boolean): Condition =>
  ({ rest }) =>
    rest.some(p);
/** Some argument word (any position after the name) matches. */
const argMatches =
  (re: RegExp): Condition =>
  ({ cmd }) =>
    cmd.argv.some((w, i) => i > 0 && re.test(w));

/** Paths whose wholesale deletion or permission change wrecks a machine, a home or a project. */
const BROAD_PATHS = new Set([
  '/', '~', '$HOME', '${HOME}', '.', '..', '*', '.*',
  '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib64', '/var', '/boot', '/home', '/opt', '/root',
  '/sys', '/dev', '/proc', '/srv', '/System', '/Library', '/Users', '/Applications', '/private',
]);

/** `/`, `~/`, `./*`, `/usr/` ...: a path that names a whole tree rather than something in it. */
export function isBroadPath(path: string): boolean {
  let p = path;
  if (p.endsWith('/*')) p = p.slice(0, -2) || '/';
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  if (p.startsWith('./') && p.length > 2) p = p.slice(2);
  return p === '' || BROAD_PATHS.has(p);
}

const broadOperand: Condition = restHas(isBroadPath);

/** Block devices whose contents a write destroys. */
const DISK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|mapper\/)/;

/** Statements that destroy data when fed to a SQL/NoSQL client. */
const DESTRUCTIVE_SQL =
  /\b(?:drop\s+(?:database|table|schema)\b|truncate\b|delete\s+from\s+[\w."`]+\s*(?:;|$))|dropDatabase\s*\(/im;

const SQL_CLIENTS = ['psql', 'mysql', 'mariadb', 'sqlite3', 'sqlite', 'sqlcmd', 'clickhouse-client', 'cockroach', 'mongo', 'mongosh'];

/** Commands that print their arguments, feeding a pipeline. */
const PRINTERS = new Set(['echo', 'printf', 'cat']);

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https']);
const INTERPRETERS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish', 'python', 'python2', 'python3', 'perl', 'ruby', 'node', 'php']);

/** The pipeline element frame a command sits in directly (innermost), if any. */
function pipelineFrame(cmd: SimpleCommand): NestingFrame | undefined {
  for (let i = cmd.nesting.length - 1; i >= 0; i--) {
    const f = cmd.nesting[i]!;
    if (f.kind === 'pipeline') return f;
  }
  return undefined;
}

/** Commands in earlier elements of the same pipeline. */
function upstream(cmd: SimpleCommand, all: readonly SimpleCommand[]): SimpleCommand[] {
  const frame = pipelineFrame(cmd);
  if (frame === undefined || frame.index === undefined || frame.index === 0) return [];
  const index = frame.index;
  return all.filter((other) => other.nesting.some((f) => f.kind === 'pipeline' && f.id === frame.id && (f.index ?? 0) < index));
}

/** The text a SQL client would execute: -c/-e/--command/--execute values, operands, stdin, piped echo. */
const sqlText: Condition = ({ cmd, args, all }) => {
  const texts: string[] = [];
  for (const key of ['c', 'e', 'q', 'Q', '--command', '--execute', '--query', '--eval']) texts.push(...(args.values.get(key) ?? []));
  texts.push(...args.operands);
  if (cmd.stdin !== undefined) texts.push(cmd.stdin);
  for (const up of upstream(cmd, all)) if (PRINTERS.has(up.name)) texts.push(up.argv.slice(1).join(' '));
  return texts.some((t) => DESTRUCTIVE_SQL.test(t));
};

/** A shell or interpreter that executes its stdin, or a script obtained from a download. */
const runsDownloadedScript: Condition = ({ cmd, args, all }) => {
  if (cmd.name === 'eval' || INTERPRETERS.has(cmd.name)) {
    // `sh -c "$(curl ...)"`, `bash <(curl ...)`, `eval "$(wget -O- ...)"`
    if (cmd.argv.some((w, i) => i > 0 && cmd.dynamic[i] === true && /\b(?:curl|wget)\b/.test(w))) return true;
  }
  if (!INTERPRETERS.has(cmd.name)) return false;
  const readsStdin = args.short.has('s') || args.operands.length === 0 || args.operands[0] === '-';
  return readsStdin && upstream(cmd, all).some((up) => DOWNLOADERS.has(up.name));
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
const killsEverything: Condition = ({ cmd }) => {
  const a = cmd.argv.slice(1);
  let i = 0;
  if (a[0] === '-s' || a[0] === '-n') i = 2;
  else if (a[0] !== undefined && a[0].startsWith('-') && a[0] !== '--' && a.length > 1) i = 1;
  return a.slice(i).some((w) => w === '-1');
};

const writesDiskDevice: Condition = ({ cmd }) =>
  cmd.redirects.some((r) => (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>' || r.op === '&>>' || r.op === '<>') && DISK_DEVICE.test(r.target));

const inFindExec: Condition = ({ cmd }) => cmd.nesting.some((f) => f.kind === 'find-exec');

const mode777: Condition = ({ args }) => args.operands.some((o) => /^0?777$|^(?:a|ugo)?\+rwx$/.test(o));

const sizeZero: Condition = ({ args }) => [...(args.values.get('s') ?? []), ...(args.values.get('--size') ?? [])].some((v) => /^0+[KMG]?$/.test(v));

// ---- the table ----------------------------------------------------------------------------

export const DESTRUCTIVE_RULES: readonly DestructiveRule[] = [
  {
    id: 'rm-recursive-force',
    description: 'rm -rf deletes whole trees without asking',
    names: ['rm'],
    when: both(flag('rR', '--recursive'), flag('f', '--force')),
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
    when: either(flag('f', '--force', '--force-with-lease', '--mirror'), restHas((o) => o.startsWith('+'))),
  },
  {
    id: 'git-push-delete',
    description: 'pushing a deletion removes a remote branch or tag',
    names: ['git'],
    sub: [['push']],
    when: either(flag('d', '--delete', '--prune'), restHas((o) => o.startsWith(':') && o.length > 1)),
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
    sub: [['stash', 'drop'], ['stash', 'clear']],
  },
  {
    id: 'sql-drop',
    description: 'DROP/TRUNCATE/unfiltered DELETE destroys database data',
    names: SQL_CLIENTS,
    shape: { shortWithValue: 'ceqQdhpUfuPD', longWithValue: ['--command', '--execute', '--query', '--eval', '--dbname', '--host', '--port', '--username', '--user', '--file'] },
    when: sqlText,
  },
  { id: 'dropdb', description: 'dropdb deletes a whole database', names: ['dropdb'], when: not(flag('', '--help', '--version')) },
  {
    id: 'redis-flush',
    description: 'FLUSHALL/FLUSHDB wipes Redis data',
    names: ['redis-cli', 'valkey-cli', 'keydb-cli'],
    when: either(argMatches(/^flush(all|db)$/i), ({ cmd }) => cmd.stdin !== undefined && /\bflush(all|db)\b/i.test(cmd.stdin)),
  },
  {
    id: 'chmod-recursive-777',
    description: 'chmod -R 777 makes a whole tree world-writable',
    names: ['chmod'],
    when: both(flag('R', '--recursive'), mode777),
  },
  {
    id: 'chmod-recursive-broad',
    description: 'recursive permission/ownership change of a system, home or project root',
    names: ['chmod', 'chown', 'chgrp'],
    when: both(flag('R', '--recursive'), broadOperand),
  },
  {
    id: 'dd-to-device',
    description: 'dd onto a device overwrites it',
    names: ['dd'],
    when: argMatches(/^of=\/dev\/(?!null$|zero$|stdout$|stderr$|tty$|fd\/)/),
  },
  { id: 'mkfs', description: 'mkfs formats a filesystem', names: ['mkfs', 'mkfs.ext2', 'mkfs.ext3', 'mkfs.ext4', 'mkfs.xfs', 'mkfs.btrfs', 'mkfs.vfat', 'mkfs.fat', 'mkfs.ntfs', 'mke2fs', 'mkswap', 'newfs'] },
  { id: 'shred', description: 'shred irrecoverably overwrites files', names: ['shred'] },
  { id: 'wipefs', description: 'wipefs erases filesystem signatures', names: ['wipefs'] },
  {
    id: 'partition-table',
    description: 'partition editors rewrite disk layouts',
    names: ['fdisk', 'sfdisk', 'gdisk', 'sgdisk', 'cfdisk', 'parted'],
    when: not(flag('lV', '--list', '--version', '--help')),
  },
  { id: 'write-to-disk-device', description: 'redirecting into a block device overwrites it', names: 'any', when: writesDiskDevice },
  {
    id: 'pipe-to-shell',
    description: 'running a downloaded script executes code nobody reviewed',
    names: [...INTERPRETERS, 'eval'],
    when: runsDownloadedScript,
  },
  { id: 'fork-bomb', description: 'a function spawning itself concurrently exhausts the machine', names: 'any', when: callsOwnFunctionConcurrently },
  { id: 'kill-all', description: 'kill -1 signals every process the user owns', names: ['kill'], when: killsEverything },
  { id: 'killall5', description: 'killall5 signals every process', names: ['killall5'] },
  {
    id: 'system-power',
    description: 'shutting down or rebooting the machine',
    names: ['shutdown', 'reboot', 'halt', 'poweroff'],
    when: not(flag('c', '--help')),
  },
  { id: 'system-power', description: 'shutting down or rebooting the machine', names: ['systemctl'], sub: [['poweroff'], ['reboot'], ['halt'], ['kexec']] },
  { id: 'system-power', description: 'shutting down or rebooting the machine', names: ['init', 'telinit'], when: restHas((o) => o === '0' || o === '6') },
  {
    id: 'docker-prune',
    description: 'pruning all images/volumes deletes data and caches',
    names: ['docker', 'podman'],
    sub: [['system', 'prune'], ['volume', 'prune']],
    when: either(({ args }) => args.operands[0] === 'volume', flag('a', '--all', '--volumes')),
  },
  {
    id: 'kubectl-delete',
    description: 'deleting namespaces or all resources tears down a cluster',
    names: ['kubectl', 'oc'],
    sub: [['delete']],
    shape: { shortWithValue: 'nlfo', longWithValue: ['--namespace', '--selector', '--filename', '--context', '--output'] },
    when: either(flag('A', '--all', '--all-namespaces'), restHas((o) => /^(?:ns|namespaces?|all)(?:\/|$)/.test(o) || o.split(',').includes('all'))),
  },
  { id: 'terraform-destroy', description: 'terraform destroy deletes managed infrastructure', names: ['terraform', 'tofu', 'terragrunt'], sub: [['destroy']] },
  { id: 'terraform-destroy', description: 'terraform destroy deletes managed infrastructure', names: ['terraform', 'tofu', 'terragrunt'], sub: [['apply'], ['plan']], when: argMatches(/^--?destroy$/) },
  { id: 'npm-unpublish', description: 'unpublishing removes a package version for everyone', names: ['npm', 'pnpm', 'yarn'], sub: [['unpublish'], ['npm', 'unpublish']] },
  {
    id: 'truncate-broad',
    description: 'truncating to zero on globs or broad paths empties many files',
    names: ['truncate'],
    shape: { shortWithValue: 'sr', longWithValue: ['--size', '--reference'] },
    when: both(sizeZero, ({ args, cmd }) => args.operandIndex.some((i) => cmd.glob[i] === true || isBroadPath(cmd.argv[i]!))),
  },
  { id: 'mv-to-dev-null', description: 'moving files to /dev/null destroys them', names: ['mv'], when: restHas((o) => o === '/dev/null') },
  { id: 'crontab-remove', description: 'crontab -r deletes every scheduled job', names: ['crontab'], when: flag('r') },
  { id: 'gh-repo-delete', description: 'deletes a GitHub repository', names: ['gh'], sub: [['repo', 'delete']] },
  {
    id: 'cloud-storage-delete',
    description: 'recursive bucket deletion',
    names: ['aws'],
    sub: [['s3', 'rm'], ['s3', 'rb']],
    when: flag('', '--recursive', '--force'),
  },
];
