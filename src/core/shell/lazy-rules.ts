// Destructive rules of programs most Bash calls never run (databases, disks, containers,
// clusters, IaC, the GitHub CLI, crontab, power): moved out of destructive-rules.ts into the
// on-demand effects module (issue 30), so the common hook does not load their tables.
// destructive.ts loads the module when a command's name is one of LAZY_NAMES (effects-hint.ts).
import { parseArgs } from './args.js';
import {
  argMatches,
  both,
  broadOperand,
  type DestructiveRule,
  either,
  flag,
  isBroadPath,
  KUBECTL_SHAPE,
  mode777,
  not,
  restHas,
  SQL_CLIENTS,
  SQL_SHAPE,
  sizeZero,
  sqlFromFile,
  sqlText,
  upstream,
} from './destructive-rules.js';
import type { SimpleCommand } from './types.js';

export const LAZY_RULES: readonly DestructiveRule[] = [
  {
    id: 'sql-drop',
    description: 'DROP/TRUNCATE, DELETE or UPDATE without WHERE, or a MongoDB drop() destroys database data',
    names: SQL_CLIENTS,
    shape: SQL_SHAPE,
    when: sqlText,
  },
  {
    id: 'sql-file',
    description: 'a SQL client running a script file or stdin executes statements nobody reviewed here (DROP/DELETE inside would destroy data)',
    names: SQL_CLIENTS,
    shape: SQL_SHAPE,
    when: sqlFromFile,
  },
  {
    id: 'mysqladmin-drop',
    description: 'mysqladmin drop deletes a whole database',
    names: ['mysqladmin'],
    when: restHas((o) => o === 'drop'),
  },
  { id: 'dropdb', description: 'dropdb deletes a whole database', names: ['dropdb'], when: not(flag('', '--help', '--version')) },
  {
    id: 'redis-flush',
    description: 'FLUSHALL/FLUSHDB wipes Redis data',
    names: ['redis-cli', 'valkey-cli', 'keydb-cli'],
    when: either(
      argMatches(/^flush(all|db)$/i),
      ({ cmd }) => cmd.stdin !== undefined && /\bflush(all|db)\b/i.test(cmd.stdin),
      ({ cmd, all }) => upstream(cmd, all).some((up) => (up.name === 'echo' || up.name === 'printf') && /\bflush(all|db)\b/i.test(up.argv.join(' '))),
    ),
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
  {
    id: 'mkfs',
    description: 'mkfs formats a filesystem',
    names: ['mkfs', 'mkfs.ext2', 'mkfs.ext3', 'mkfs.ext4', 'mkfs.xfs', 'mkfs.btrfs', 'mkfs.vfat', 'mkfs.fat', 'mkfs.ntfs', 'mke2fs', 'mkswap', 'newfs'],
  },
  { id: 'wipefs', description: 'wipefs erases filesystem signatures', names: ['wipefs'] },
  {
    id: 'partition-table',
    description: 'partition editors rewrite disk layouts',
    names: ['fdisk', 'sfdisk', 'gdisk', 'sgdisk', 'cfdisk', 'parted'],
    when: not(flag('lV', '--list', '--version', '--help')),
  },
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
    sub: [
      ['system', 'prune'],
      ['volume', 'prune'],
    ],
    when: either(({ args }) => args.operands[0] === 'volume', flag('a', '--all', '--volumes')),
  },
  {
    id: 'kubectl-delete',
    description: 'kubectl delete removes cluster resources (with -f, everything the manifests name)',
    names: ['kubectl', 'oc', 'k3s', 'microk8s.kubectl'],
    sub: [['delete']],
    shape: KUBECTL_SHAPE,
    when: not(flag('', '--help', '--dry-run=client', '--dry-run=server')),
  },
  {
    id: 'kubectl-delete',
    description: 'kubectl delete removes cluster resources (with -f, everything the manifests name)',
    names: ['kubectl', 'oc'],
    sub: [['drain'], ['replace'], ['apply']],
    shape: KUBECTL_SHAPE,
    when: either(({ args }) => args.operands[0] === 'drain', flag('', '--force', '--prune')),
  },
  {
    id: 'helm-uninstall',
    description: 'helm uninstall removes a release and its resources',
    names: ['helm'],
    sub: [['uninstall'], ['delete'], ['del'], ['un']],
  },
  {
    id: 'pulumi-destroy',
    description: 'pulumi destroy deletes every resource of a stack',
    names: ['pulumi'],
    sub: [['destroy'], ['down'], ['stack', 'rm'], ['state', 'delete']],
  },
  {
    id: 'docker-compose-down-volumes',
    description: "compose down -v deletes the project's named volumes (database data)",
    names: ['docker', 'podman', 'docker-compose', 'podman-compose'],
    when: ({ cmd, args }) => {
      const ops = args.operands;
      const down = cmd.name.endsWith('-compose') ? ops[0] === 'down' : ops[0] === 'compose' && ops.includes('down');
      return down && (args.short.has('v') || args.long.has('--volumes'));
    },
    shape: { shortWithValue: 'fp', longWithValue: ['--file', '--project-name', '--profile', '--env-file', '--project-directory'] },
  },
  {
    id: 'docker-volume-rm',
    description: 'removing volumes, or pruning all containers or images, deletes their data',
    names: ['docker', 'podman'],
    sub: [
      ['volume', 'rm'],
      ['volume', 'remove'],
      ['container', 'prune'],
      ['image', 'prune'],
    ],
    when: either(({ args }) => args.operands[0] === 'volume', flag('a', '--all')),
  },
  {
    id: 'gh-api-delete',
    description: 'a DELETE request through the GitHub API removes a remote resource',
    names: ['gh'],
    sub: [['api']],
    shape: { shortWithValue: 'XHfFpqt', longWithValue: ['--method', '--header', '--field', '--raw-field', '--jq', '--template', '--hostname', '--input'] },
    when: ({ args }) => [...(args.values.get('X') ?? []), ...(args.values.get('--method') ?? [])].some((m) => m.toUpperCase() === 'DELETE'),
  },
  {
    id: 'killall',
    description: 'killall/pkill signal every process matching a name, possibly the client itself',
    names: ['killall', 'pkill'],
    when: ({ cmd, args }) =>
      cmd.name === 'killall'
        ? !flag('lV', '--list', '--version', '--help')({ cmd, args, rest: [], all: [] })
        : cmd.argv.slice(1).some((w) => /^-(?:9|KILL|SIGKILL)$/.test(w) || w === '-f' || (/^-[a-zA-Z]*f/.test(w) && !w.startsWith('--'))),
  },
  { id: 'terraform-destroy', description: 'terraform destroy deletes managed infrastructure', names: ['terraform', 'tofu', 'terragrunt'], sub: [['destroy']] },
  {
    id: 'terraform-destroy',
    description: 'terraform destroy deletes managed infrastructure',
    names: ['terraform', 'tofu', 'terragrunt'],
    // `plan -destroy` only prints the plan: nothing is destroyed.
    sub: [['apply']],
    when: argMatches(/^--?destroy$/),
  },
  {
    id: 'docker-rm-computed',
    description: 'removing every container or image a command lists deletes them all, with their data',
    names: ['docker', 'podman', 'nerdctl'],
    sub: [['rm'], ['rmi'], ['container', 'rm'], ['image', 'rm'], ['container', 'remove'], ['image', 'remove']],
    when: ({ cmd, args, rest }) => rest.length > 0 && args.operandIndex.slice(args.operands.length - rest.length).some((i) => cmd.dynamic[i] === true),
  },
  {
    id: 'npm-unpublish',
    description: 'unpublishing removes a package version for everyone',
    names: ['npm', 'pnpm', 'yarn'],
    sub: [['unpublish'], ['npm', 'unpublish']],
  },
  {
    id: 'truncate-broad',
    description: 'truncating to zero on globs or broad paths empties many files',
    names: ['truncate'],
    shape: { shortWithValue: 'sr', longWithValue: ['--size', '--reference'] },
    when: both(sizeZero, ({ args, cmd }) => args.operandIndex.some((i) => cmd.glob[i] === true || isBroadPath(cmd.argv[i]!))),
  },
  { id: 'crontab-remove', description: 'crontab -r deletes every scheduled job', names: ['crontab'], when: flag('r') },
  {
    id: 'crontab-replace',
    description: 'crontab FILE (or /dev/null, or stdin) replaces every scheduled job',
    names: ['crontab'],
    shape: { shortWithValue: 'u', longWithValue: [] },
    when: both(not(flag('lerTV')), ({ args }) => args.operands.length > 0),
  },
  {
    id: 'gh-repo-delete',
    description: 'deletes a GitHub repository, release, or other GitHub resource',
    names: ['gh'],
    when: ({ args }) => args.operands[1] === 'delete' || args.operands[1] === 'delete-asset',
  },
  {
    id: 'cloud-storage-delete',
    description: 'recursive bucket deletion',
    names: ['aws'],
    sub: [
      ['s3', 'rm'],
      ['s3', 'rb'],
    ],
    when: flag('', '--recursive', '--force'),
  },
];

/** The lazy rules that fire on one command, as destructive.ts's check would report them. */
export function lazyFindings(cmd: SimpleCommand, all: readonly SimpleCommand[]): Array<{ rule: string; why: string }> {
  const name = cmd.name.startsWith('mkfs.') ? 'mkfs' : cmd.name;
  const out: Array<{ rule: string; why: string }> = [];
  for (const rule of LAZY_RULES) {
    if (rule.names === 'any' || !rule.names.includes(name)) continue;
    const args = parseArgs(cmd.argv, 1, rule.shape);
    let rest = args.operands;
    if (rule.sub !== undefined) {
      const path = rule.sub.find((p) => p.every((word, i) => args.operands[i] === word));
      if (path === undefined) continue;
      rest = args.operands.slice(path.length);
    }
    if (rule.when !== undefined && !rule.when({ cmd, args, rest, all })) continue;
    if (!out.some((f) => f.rule === rule.id)) out.push({ rule: rule.id, why: rule.description });
  }
  return out;
}
