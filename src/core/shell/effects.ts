// What a command DOES, judged from the shape of any CLI rather than a list of
// known commands (issue 30). Loaded on demand (core/on-demand.ts, its own
// hook-effects.cjs): destructive.ts asks for it only when a command carries a
// word this module could act on (`effectsMayApply`), so the common Bash call
// (`npm test`, `git status`) never pays for these tables.
//
// The model, per effective command (wrappers and runners already peeled):
//  - The subcommand path of any CLI (the leading words, up to the first option,
//    file name, read verb or run verb) holding a destroying verb — delete,
//    destroy, drop, reset, purge, wipe, flush, truncate, remove/rm, uninstall,
//    terminate, deregister, revoke, disable, unset… — asks, naming the object
//    and where it lives. Package and version managers removing a dependency or
//    a local tool are not a loss (reinstallable): their remove verbs pass.
//    Local client configuration (`config`, `context`, `alias`, `plugin`) and
//    caches are recoverable: they pass.
//  - Publishing, unpublishing, yanking, deprecating and visibility changes ask:
//    what leaves the machine cannot be called back.
//  - Sync with deletion to any store asks (`--delete*`, `--remove`, gsutil `-d`).
//  - Secrets and env files emptied, overwritten or removed ask.
//  - Switching safety off (firewalls, SELinux/AppArmor, audit, sudo policy,
//    world-writable system files, kernel hardening) asks.
//  - An HTTP DELETE (curl -X DELETE, httpie DELETE) asks.
// Nothing here imports a module with state: this file is bundled on its own.
import { parseArgs } from './args.js';
import { lazyFindings } from './lazy-rules.js';
import type { SimpleCommand } from './types.js';

/** One effect: the rule id, the agent's reason, and the human's one line (object and where it lives). */
export interface Effect {
  rule: string;
  why: string;
  effect: string;
}
export { LAZY_RULES } from './lazy-rules.js';
export { LAZY_WRITERS } from './lazy-writers.js';

/** The rule ids this module reports (test/core/shell/destructive.test.ts checks each is exercised). */
export const EFFECT_RULES = [
  'cloud-delete',
  'framework-reset',
  'destroying-verb',
  'publish',
  'sync-delete',
  'secrets-file',
  'safety-off',
  'http-delete',
  'logs-delete',
  'git-submodule-deinit',
] as const;

// ---- the lexicon -------------------------------------------------------------------------

/** Destroying verbs, with the phrase the human reads. */
const VERBS: Readonly<Record<string, string>> = {
  delete: 'deletes',
  deletion: 'deletes',
  del: 'deletes',
  destroy: 'destroys',
  drop: 'drops',
  reset: 'resets',
  purge: 'purges',
  wipe: 'wipes',
  flush: 'flushes',
  flushall: 'flushes',
  flushdb: 'flushes',
  truncate: 'truncates',
  remove: 'removes',
  rm: 'removes',
  rb: 'removes the bucket',
  rmr: 'removes',
  uninstall: 'uninstalls',
  terminate: 'terminates',
  deregister: 'deregisters',
  unregister: 'unregisters',
  revoke: 'revokes',
  disable: 'disables',
  undefine: 'undefines',
  nuke: 'destroys',
  erase: 'erases',
  unset: 'unsets',
  teardown: 'tears down',
  obliterate: 'destroys',
  zap: 'wipes',
  prune: 'prunes',
};
/** Backup tools, whose `--prune` deletes backups (elsewhere it trims a listing or a cache). */
const BACKUP_TOOLS = new Set(['restic', 'rustic', 'borg', 'borgmatic', 'kopia', 'duplicacy']);
/** Programs whose name is the destroying verb: accounts, volumes, databases, a disk's blocks. */
const NAME_VERB = /^(?:user|group)del$|^del(?:user|group)$|^(?:lv|vg|pv)remove$|^drop(?:user|lang)$|^pg_drop|^blkdiscard$/;
/** A first path word that is this program's own local configuration (`helm repo remove x`). */
const LOCAL_FIRST: Readonly<Record<string, string>> = { helm: 'repo', vagrant: 'box', docker: 'context', gh: 'extension' };
/** Verbs that send something out for everyone, or call it back. */
const PUBLISH: Readonly<Record<string, string>> = {
  publish: 'publishes',
  unpublish: 'unpublishes',
  yank: 'yanks',
  deprecate: 'deprecates',
  retire: 'retires',
  unlist: 'unlists',
};
/** Verbs whose removal is of the package manager's own, reinstallable things. */
const PM_LOCAL_VERBS = new Set(['remove', 'rm', 'uninstall', 'delete', 'del', 'purge', 'prune', 'unset', 'reset', 'disable']);
/**
 * Package and version managers: `npm uninstall x`, `pip uninstall x`, `brew uninstall x`
 * remove something the project can install again. Their registry verbs still ask.
 */
const PACKAGE_MANAGERS = new Set(
  (
    'npm pnpm yarn bun pip pip3 pipx poetry uv pdm conda mamba micromamba cargo rustup gem bundle bundler composer brew port ' +
    'apt apt-get aptitude dnf yum zypper pacman apk snap flatpak nix-env nvm fnm volta pyenv rbenv asdf mise sdk go dotnet ' +
    'cpanm luarocks opam cabal stack ghcup corepack code krew'
  ).split(' '),
);
/** A package manager's path word that reaches the registry: there, its removing verbs ask. */
const REGISTRY_WORDS = new Set(['nuget', 'owner', 'owners', 'dist-tag', 'access', 'team', 'org', 'token', 'trunk', 'hex.owner']);
/** First path words naming the client's own configuration: removing from it is recoverable. */
const LOCAL_CONFIG = new Set([
  'config',
  'configure',
  'configs',
  'context',
  'contexts',
  'alias',
  'aliases',
  'completion',
  'plugin',
  'plugins',
  'extension',
  'extensions',
  'components',
  'cache',
  'caches',
  'toolchain',
  'env',
]);
/** Words that read or show: what follows them is an object name, not a verb (`docker logs remove-bot`). */
const READ_WORDS = new Set(
  'get describe show list ls view status inspect info tail cat read search find diff top logs log history explain whoami version help events watch print dump grep query'.split(
    ' ',
  ),
);
/** Words that run something of the project's: what follows is its argument (`cargo test wipe`, `npm run db:reset`). */
const RUN_WORDS = new Set(
  'run exec test x dlx start serve bench check lint fmt format build compile generate dev preview plan synth validate doctor'.split(' '),
);
/** Programs whose words are data, never a CLI's subcommands; shells and interpreters are judged by other rules. */
const NOT_A_CLI = new Set(
  (
    'echo printf cat tree du df grep egrep fgrep rg ag ls mkdir touch jq yq sed awk gawk head tail sort uniq wc cut tr find xargs test [ true false sleep date ' +
    'which whereis hash command builtin compgen apropos whatis alias type man tldr info less more diff cmp file stat readlink realpath basename dirname git make gmake just task cmake ninja ' +
    'sh bash zsh dash ksh fish python python3 node ruby perl php deno lua Rscript java tee cp mv ln chmod chown rm rmdir unlink shred dd truncate ' +
    'kill pkill killall mkfs wipefs crontab rsync ssh scp systemctl service tmux screen iptables ip6tables ebtables arptables ' +
    'iptables-legacy iptables-nft ip6tables-legacy ip6tables-nft passwd auditctl setenforce sysctl spctl journalctl chattr'
  ).split(' '),
);
/** Containers, images and networks are cattle (their data lives in volumes): docker's verbs ask only for these objects. */
const DOCKER_OBJECTS = new Set(['volume', 'stack', 'service', 'secret', 'config', 'system', 'swarm', 'machine', 'node']);
const DOCKERS = new Set(['docker', 'podman', 'nerdctl', 'finch']);
const FILE_EXT = /\.(?:[jt]sx?|mjs|cjs|py|rb|go|rs|java|md|txt|json|ya?ml|toml|sql|sh|lock|log|csv|html|css|tgz|gz|zip|gem|whl|nupkg|tar)$/i;
const WORD = /^[A-Za-z][\w.:-]*$/;

/** Options that say where the object lives: shown to the human. */
const WHERE = [
  '--host',
  '--namespace',
  '--app',
  '--project',
  '--region',
  '--zone',
  '--resource-group',
  '--profile',
  '--context',
  '--org',
  '--stack',
  '--cluster',
  '--environment',
  '--env',
];
const WHERE_SHORT: Readonly<Record<string, string>> = { n: '--namespace', a: '--app', g: '--resource-group', h: '--host' };

/** A segment of a path word that is a verb (`batch-delete-image` → delete; `apps:destroy` → destroy; `hex.publish` → publish). */
function verbIn(word: string, table: Readonly<Record<string, string>>): string | undefined {
  const lower = word.toLowerCase();
  if (Object.hasOwn(table, lower)) return lower;
  // `DeleteInstance`, `luksErase`, `publishToSonatype`; `publishToMavenLocal` stays on this machine.
  if (/Local$/.test(word)) return undefined;
  for (const seg of word.split(/[-_:.]|(?<=[a-z])(?=[A-Z])/)) {
    const s = seg.toLowerCase();
    if (Object.hasOwn(table, s)) return s;
  }
  return undefined;
}

/** The leading subcommand words: options skipped before the first word; a file, read or run word ends it. */
function subcommandPath(argv: readonly string[]): { words: string[]; index: number[]; ranOrRead: boolean } {
  const words: string[] = [];
  const index: number[] = [];
  for (let i = 1; i < argv.length && words.length < 5; i++) {
    const w = argv[i]!;
    if (w === '--') break;
    if (w.startsWith('-')) {
      if (words.length > 0) break;
      continue;
    }
    if (!WORD.test(w) || FILE_EXT.test(w)) {
      // Before the first word, a value of a leading option (`redis-cli -n 0 DEL k`).
      if (words.length === 0 && argv[i - 1]!.startsWith('-')) continue;
      break;
    }
    // `redis-cli -h prod FLUSHALL`, `aws --profile prod s3 rm`: the value of a leading option is not a subcommand.
    if (words.length === 0 && i > 1 && takesValue(argv[i - 1]!) && !FLAG_ONLY.has(argv[i - 1]!)) continue;
    words.push(w);
    index.push(i);
    const lower = w.toLowerCase();
    if (READ_WORDS.has(lower) || RUN_WORDS.has(lower) || /^(?:get|describe|list)-/.test(lower)) return { words, index, ranOrRead: true };
  }
  return { words, index, ranOrRead: false };
}

function where(argv: readonly string[]): string {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    const eq = w.indexOf('=');
    const name = eq === -1 ? w : w.slice(0, eq);
    const long = name.startsWith('--') ? name : name.length === 2 && name.startsWith('-') ? WHERE_SHORT[name[1]!] : undefined;
    if (long !== undefined && WHERE.includes(long)) {
      const v = eq === -1 ? argv[i + 1] : w.slice(eq + 1);
      if (v !== undefined && !v.startsWith('-')) return `${long === '--host' ? ' on' : ' in'} ${v}`;
    }
  }
  return '';
}

/** Operands after the verb word: the object the human reads. */
function objectAfter(argv: readonly string[], at: number): string {
  const out: string[] = [];
  for (let i = at + 1; i < argv.length && out.length < 3; i++) {
    const w = argv[i]!;
    if (w.startsWith('-')) {
      if (takesValue(w) && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) i++;
      continue;
    }
    out.push(w);
  }
  return out.join(' ');
}
/** An option whose next word is its value (`--project prod`, `-n prod`), not the object. */
function takesValue(w: string): boolean {
  if (w.includes('=')) return false;
  if (w.startsWith('--')) return !FLAG_ONLY.has(w);
  return w.length === 2 && SHORT_VALUED.includes(w[1]!);
}
const SHORT_VALUED = 'naghpucsiCt';
const FLAG_ONLY = new Set(['--force', '--yes', '--all', '--recursive', '--purge', '--confirm', '--quiet', '--wait', '--cascade', '--no-wait', '--silent']);

// ---- classes -----------------------------------------------------------------------------

/** `.env`, `.env.production`, `master.key`, `*.pem`, `id_ed25519`, `credentials.json`: not templates. */
export function isSecretFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (/^\.env(?:\.|$)/.test(base)) return !/\.(?:example|sample|template|dist|defaults?|schema|tpl)(?:\.|$)/.test(base);
  return /^(?:master|production|credentials)\.key$|\.(?:pem|p12|pfx|jks|keystore)$|^id_(?:rsa|ed25519|ecdsa|dsa)$|^(?:credentials|secrets?)(?:\.(?:json|ya?ml|toml|env))?$/.test(
    base,
  );
}

const SECURITY_UNIT =
  /^(?:firewalld|ufw|nftables|iptables|ip6tables|netfilter-persistent|apparmor|auditd|fail2ban|crowdsec|falco|clamav-daemon|clamd|osqueryd|wazuh-agent|aide|sshguard|selinux)(?:\.service)?$/;
const SUDOERS = /^\/etc\/sudoers(?:\.d(?:\/|$)|$)/;
const SYSTEM_PATH = /^(?:\/etc|\/usr|\/bin|\/sbin|\/lib\w*|\/boot|\/root|\/var\/(?!tmp)|~\/\.ssh|\$HOME\/\.ssh)(?:\/|$)/;
const WORLD_WRITABLE = /^(?:0?[0-7]?[0-7][0-7][2367]|(?:[ugo]*[ao][ugo]*)\+[rwx]*w[rwx]*)$/;
const HARDENING_KEYS =
  /(?:randomize_va_space|kptr_restrict|ptrace_scope|dmesg_restrict|protected_(?:symlinks|hardlinks|fifos|regular)|unprivileged_bpf_disabled|perf_event_paranoid)=(?:0|-1)$/;
const PUBLIC_WORD = /^(?:public-read(?:-write)?|allUsers|allAuthenticatedUsers|AllUsers|AllAuthenticatedUsers)(?::.*)?$|^(?:allUsers|allAuthenticatedUsers):/;
/** Programs for which `push` publishes to a registry (git's push has rules of its own). */
const PUSH_PUBLISHES = new Set(['docker', 'podman', 'nerdctl', 'buildah', 'helm', 'oras', 'gem', 'pod', 'nuget', 'dotnet', 'crane', 'cachix']);
const UPLOADERS = new Set(['twine', 'anaconda', 'snapcraft']);

const PHRASE_SECRET: Readonly<Record<string, string>> = { empty: 'empties', overwrite: 'overwrites', delete: 'deletes' };
const secret = (how: 'empty' | 'overwrite' | 'delete', file: string, via: string): Effect => ({
  rule: 'secrets-file',
  why: 'emptying, overwriting or deleting a secrets or environment file loses credentials that are in no repository',
  effect: `${PHRASE_SECRET[how]} the secrets file ${file} (${via})`,
});
const safety = (effect: string): Effect => ({
  rule: 'safety-off',
  why: 'switches a safety control off (firewall, SELinux/AppArmor, audit, sudo policy, file permissions or kernel hardening)',
  effect,
});

/** Secrets and env files emptied, overwritten or removed: by redirection, which happens whatever the command. */
export function redirectEffects(cmd: SimpleCommand): Effect[] {
  const out: Effect[] = [];
  for (const r of cmd.redirects) {
    if (r.fd !== undefined && r.fd !== 1) continue;
    const target = r.target;
    if (SUDOERS.test(target) && (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>' || r.op === '&>>')) {
      out.push(safety(`rewrites the sudo policy ${target}`));
      continue;
    }
    if ((r.op === '>' || r.op === '>|' || r.op === '&>') && isSecretFile(target)) {
      const empties = cmd.argv.length === 0 || cmd.name === ':' || cmd.name === 'true' || cmd.argv.slice(1).every((w) => w === '' || /^-[neE]+$/.test(w));
      out.push(secret(empties ? 'empty' : 'overwrite', target, `> ${target}`));
    }
  }
  return out;
}

/** The program an interpreter runs as a module (`python3 -m twine upload` → twine), with its argv. */
function asProgram(cmd: SimpleCommand): { name: string; argv: readonly string[] } {
  if (/^python[\d.]*$/.test(cmd.name) && cmd.argv[1] === '-m' && cmd.argv[2] !== undefined) return { name: cmd.argv[2], argv: cmd.argv.slice(2) };
  const m = /^(gradlew|mvnw)$/.exec(cmd.name);
  return { name: m ? (m[1] === 'gradlew' ? 'gradle' : 'mvn') : cmd.name, argv: cmd.argv };
}

/** Every effect of one command that the lexicon and the classes see. `inert`: a dry run or help (nothing but redirections happen). */
export function judgeEffects(cmd: SimpleCommand, inert: boolean, all: readonly SimpleCommand[] = []): Array<Effect | { rule: string; why: string }> {
  const out: Array<Effect | { rule: string; why: string }> = redirectEffects(cmd);
  if (inert || cmd.argv.length === 0) return out;
  out.push(...lazyFindings(cmd, all));
  const { name, argv } = asProgram(cmd);
  const e =
    fileEffects(name, argv) ??
    safetyEffects(name, argv) ??
    httpDelete(name, argv) ??
    syncDelete(name, argv) ??
    publishing(name, argv) ??
    cloudOrFramework(cmd) ??
    lexicon(name, argv);
  if (e !== null) out.push(e);
  return out;
}

/** Cloud and platform CLIs whose resources live elsewhere: their delete verbs are not undoable here. */
const CLOUD_CLIS = new Set([
  'aws',
  'gcloud',
  'gsutil',
  'az',
  'doctl',
  'linode-cli',
  'hcloud',
  'oci',
  'ibmcloud',
  'scw',
  'exo',
  'vultr-cli',
  'heroku',
  'fly',
  'flyctl',
  'vercel',
  'netlify',
  'firebase',
  'wrangler',
  'supabase',
  'railway',
  'render',
  'eksctl',
  'gh',
  'glab',
  'doppler',
  'vault',
  'consul',
  'nomad',
  'aliyun',
  'tccli',
  'openstack',
  'swift',
  'rclone',
  'mc',
  's3cmd',
  'b2',
  'az',
  'kind',
  'minikube',
  'k3d',
  'terraform',
  'tofu',
  'terragrunt',
  'cdk',
  'sam',
  'serverless',
  'sls',
]);

/** `delete`, `delete-stack`, `terminate-instances`, `apps:destroy`, `rb`, `rm -r`... among the operands. */
const DELETE_VERB =
  /^(?:delete|destroy|terminate|remove|purge|deregister|wipe|nuke|uninstall)(?:[-_].*)?$|^[\w-]+:(?:destroy|delete|remove|reset|wipe|purge)$|^(?:rb|rm|del|purge|teardown|down|reset)$/;

function cloudDeleteVerb(cmd: SimpleCommand): boolean {
  const args = parseArgs(cmd.argv, 1);
  if (args.long.has('--help') || args.operands.includes('help')) return false;
  // `gh repo delete` has its own rule; `terraform destroy` too; `gh api -X DELETE` as well.
  if (cmd.name === 'gh' || cmd.name === 'terraform' || cmd.name === 'tofu' || cmd.name === 'terragrunt')
    return (args.operands[0] === 'state' && args.operands[1] === 'rm') || (args.operands[0] === 'workspace' && args.operands[1] === 'delete');
  // `rclone`, `mc`, `s3cmd` mirror trees: only their deleting verbs.
  const ops = args.operands.slice(0, 4);
  // The CLI's own extensions, components and configuration: reinstallable, on this machine.
  if (/^(?:extensions?|components|config|configure|cache|plugins?|alias|context)$/.test(ops[0] ?? '')) return false;
  if (cmd.name === 'minikube' || cmd.name === 'kind' || cmd.name === 'k3d') return ops.includes('delete');
  return ops.some((o) => DELETE_VERB.test(o)) || (cmd.name === 'rclone' && (ops[0] === 'sync' || ops[0] === 'purge'));
}

/**
 * Framework and ORM commands that drop, reset or roll back a whole database, as data: the tool
 * (the binary, or the script an interpreter runs: `php artisan`, `python manage.py`), the task
 * words that destroy, and the flags that make a push destructive. Checked against the task
 * words, so `rails db:migrate` passes and `rails db:drop` asks.
 */
const FRAMEWORK_RESETS: Readonly<Record<string, RegExp>> = {
  prisma: /^(?:migrate reset|db push --(?:force-reset|accept-data-loss))\b/,
  'drizzle-kit': /^(?:drop|push --force)\b/,
  rails: /^db:(?:drop|reset|purge|schema:load|structure:load|seed:replant|migrate:reset)\b/,
  rake: /^db:(?:drop|reset|purge|schema:load|structure:load|seed:replant|migrate:reset)\b/,
  artisan: /^(?:migrate:(?:fresh|reset|refresh)|db:wipe)\b/,
  'manage.py': /^(?:flush|reset_db)\b/,
  'django-admin': /^(?:flush|reset_db)\b/,
  knex: /^migrate:rollback .*--all\b/,
  typeorm: /^schema:drop\b/,
  'typeorm-ts-node-commonjs': /^schema:drop\b/,
  sequelize: /^db:(?:drop|migrate:undo:all|seed:undo:all)\b/,
  'sequelize-cli': /^db:(?:drop|migrate:undo:all|seed:undo:all)\b/,
  alembic: /^downgrade base\b/,
  flyway: /^clean\b/,
  liquibase: /^(?:drop-all|dropAll)\b/,
  mix: /^ecto\.(?:drop|reset)\b/,
  sqlx: /^database (?:drop|reset)\b/,
  diesel: /^database reset\b/,
  dbmate: /^drop\b/,
  atlas: /^schema clean\b/,
};
const FRAMEWORK_SCRIPTS = new Set(['artisan', 'manage.py', 'rails', 'rake']);

function frameworkReset(cmd: SimpleCommand): boolean {
  let tool = cmd.name;
  let from = 1;
  // `php artisan migrate:fresh`, `python3 manage.py flush`, `ruby bin/rails db:drop`.
  if (/^(?:php|python|ruby)[\d.]*$/.test(tool) && cmd.argv[1] !== undefined) {
    tool = cmd.argv[1].slice(cmd.argv[1].lastIndexOf('/') + 1);
    if (!FRAMEWORK_SCRIPTS.has(tool)) return false;
    from = 2;
  }
  if (!Object.hasOwn(FRAMEWORK_RESETS, tool)) return false;
  const re = FRAMEWORK_RESETS[tool]!;
  const words = cmd.argv.slice(from);
  // Help or a dry run drops nothing.
  if (words.some((w) => w === '--help' || w === '-h' || w === '--dry-run')) return false;
  return re.test(words.join(' '));
}

/** Cloud CLIs and framework resets, moved here from destructive-rules.ts (issue 30: the hook's common path does not load them). */
function cloudOrFramework(cmd: SimpleCommand): Effect | null {
  if (frameworkReset(cmd)) {
    return {
      rule: 'framework-reset',
      why: 'a framework or ORM command drops, resets or rolls back the whole database',
      effect: `drops, resets or rolls back the whole database (${cmd.argv.slice(0, 3).join(' ')})`,
    };
  }
  if (!CLOUD_CLIS.has(cmd.name) || !cloudDeleteVerb(cmd)) return null;
  const { words, index } = subcommandPath(cmd.argv);
  const at = words.findIndex((w) => DELETE_VERB.test(w) || verbIn(w, VERBS) !== undefined);
  const verb = at === -1 ? undefined : verbIn(words[at]!, VERBS);
  const path = at === -1 ? words.join(' ') : words.slice(0, at + 1).join(' ');
  const obj = at === -1 ? '' : objectAfter(cmd.argv, index[at]!);
  return {
    rule: 'cloud-delete',
    why: 'a cloud or platform CLI deleting, destroying or terminating remote resources',
    effect: `${verb === undefined ? 'tears down' : VERBS[verb]} ${obj || 'remote resources'}${where(cmd.argv)} (${cmd.name} ${path})`,
  };
}

function fileEffects(name: string, argv: readonly string[]): Effect | null {
  const a = parseArgs(argv, 1, {
    shortWithValue: name === 'truncate' ? 'sr' : name === 'cp' || name === 'install' ? 'tSm' : '',
    longWithValue: ['--size', '--reference', '--target-directory', '--mode'],
  });
  const ops = a.operands;
  switch (name) {
    case 'rm':
    case 'unlink':
    case 'srm':
    case 'trash':
    case 'trash-put': {
      const f = ops.find(isSecretFile);
      return f === undefined ? null : secret('delete', f, name);
    }
    case 'truncate': {
      const f = ops.find(isSecretFile);
      return f === undefined ? null : secret('empty', f, 'truncate');
    }
    case 'cp':
    case 'install': {
      if (a.short.has('n') || a.long.has('--no-clobber') || a.long.has('--update')) return null;
      const target = ops.at(-1);
      if (ops.length < 2 || target === undefined) return SUDOERS.test(a.values.get('t')?.[0] ?? '') ? safety('installs a sudo policy file') : null;
      if (SUDOERS.test(target)) return safety(`rewrites the sudo policy ${target}`);
      if (!isSecretFile(target)) return null;
      return secret(ops[0] === '/dev/null' ? 'empty' : 'overwrite', target, `${name} ${ops[0]} ${target}`);
    }
    case 'mv':
      return ops.length >= 2 && SUDOERS.test(ops.at(-1)!) ? safety(`rewrites the sudo policy ${ops.at(-1)!}`) : null;
    case 'tee': {
      const t = ops.find((o) => SUDOERS.test(o));
      if (t !== undefined) return safety(`rewrites the sudo policy ${t}`);
      if (a.short.has('a') || a.long.has('--append')) return null;
      const f = ops.find(isSecretFile);
      return f === undefined ? null : secret('overwrite', f, 'tee');
    }
    case 'dd': {
      const of = argv.find((w) => w.startsWith('of='))?.slice(3);
      return of !== undefined && isSecretFile(of) ? secret('overwrite', of, 'dd') : null;
    }
    case 'git': {
      // `git rm --cached .env` only untracks it; `git rm .env` deletes the file too.
      const sub = ops[0];
      if (sub === 'submodule' && ops[1] === 'deinit' && (a.short.has('f') || a.long.has('--force')))
        return {
          rule: 'git-submodule-deinit',
          why: 'git submodule deinit --force deletes submodule work trees, with their uncommitted changes',
          effect: `deletes the submodule work tree${a.long.has('--all') ? 's' : ` ${ops.slice(2).join(' ')}`} with local changes (git submodule deinit -f)`,
        };
      if (sub !== 'rm' || a.long.has('--cached')) return null;
      const f = ops.slice(1).find(isSecretFile);
      return f === undefined ? null : secret('delete', f, 'git rm');
    }
    default:
      return null;
  }
}

function safetyEffects(name: string, argv: readonly string[]): Effect | null {
  const args = argv.slice(1);
  switch (name) {
    case 'iptables':
    case 'ip6tables':
    case 'iptables-legacy':
    case 'iptables-nft':
    case 'ip6tables-legacy':
    case 'ip6tables-nft':
    case 'ebtables':
    case 'arptables': {
      const policy = args.findIndex((w) => w === '-P' || w === '--policy');
      if (policy !== -1 && args[policy + 2] === 'ACCEPT') return safety(`opens the firewall: ${name} chain ${args[policy + 1]} accepts everything`);
      if (args.some((w) => w === '--flush' || w === '--delete-chain' || (/^-[a-zA-Z]*[FX]/.test(w) && !w.startsWith('--'))))
        return safety(`deletes every firewall rule (${name} ${args.join(' ')})`);
      return null;
    }
    case 'systemctl':
    case 'service':
    case 'rc-service': {
      const verbs = new Set(['stop', 'disable', 'mask', 'kill']);
      const ops = args.filter((w) => !w.startsWith('-'));
      const verb = name === 'systemctl' ? ops[0] : ops[1];
      const units = name === 'systemctl' ? ops.slice(1) : ops.slice(0, 1);
      const unit = units.find((u) => SECURITY_UNIT.test(u));
      return verb !== undefined && verbs.has(verb) && unit !== undefined
        ? safety(`${verb === 'stop' || verb === 'kill' ? 'stops' : `${verb}s`} the security service ${unit}`)
        : null;
    }
    case 'ufw': {
      const verb = args.find((w) => !w.startsWith('-'));
      return verb === 'disable' || verb === 'reset' ? safety(`switches the firewall off (ufw ${verb})`) : null;
    }
    case 'nft': {
      const verb = args.find((w) => !w.startsWith('-'));
      return verb === 'flush' || verb === 'delete' ? safety(`deletes firewall rules (nft ${args.filter((w) => !w.startsWith('-')).join(' ')})`) : null;
    }
    case 'csrutil':
      return args.includes('disable') ? safety('switches System Integrity Protection off (csrutil disable)') : null;
    case 'setenforce':
      return args.some((w) => w === '0' || /^permissive$/i.test(w)) ? safety('puts SELinux in permissive mode (setenforce 0)') : null;
    case 'aa-teardown':
    case 'aa-disable':
    case 'aa-complain':
      return safety(`switches AppArmor confinement off (${name})`);
    case 'apparmor_parser':
      return args.some((w) => w === '-R' || w === '--remove') ? safety('unloads AppArmor profiles (apparmor_parser -R)') : null;
    case 'auditctl':
      if (args.includes('-D')) return safety('deletes every audit rule (auditctl -D)');
      return args.some((w, i) => w === '-e0' || (w === '-e' && args[i + 1] === '0')) ? safety('switches kernel auditing off (auditctl -e 0)') : null;
    case 'chmod': {
      const mode = args.find((w) => !w.startsWith('-') || /^-[rwx]+$/.test(w));
      const paths = args.filter((w) => w !== mode && !w.startsWith('-'));
      const sys = paths.find((p) => SYSTEM_PATH.test(p) || SUDOERS.test(p));
      return mode !== undefined && WORLD_WRITABLE.test(mode) && sys !== undefined
        ? safety(`makes the system file ${sys} writable by everyone (chmod ${mode})`)
        : null;
    }
    case 'sysctl': {
      const key = args.find((w) => HARDENING_KEYS.test(w));
      return key !== undefined ? safety(`switches kernel hardening off (sysctl ${key})`) : null;
    }
    case 'passwd':
      return args.some((w) => w === '-d' || w === '--delete')
        ? safety(`removes the password of ${args.filter((w) => !w.startsWith('-')).at(-1) ?? 'the user'} (passwd -d)`)
        : null;
    case 'spctl':
      return args.some((w) => /^--(?:master|global)-disable$/.test(w)) ? safety('switches Gatekeeper off (spctl)') : null;
    case 'journalctl':
      return args.some((w) => w.startsWith('--vacuum-'))
        ? {
            rule: 'logs-delete',
            why: 'deletes archived system logs (the record of what happened)',
            effect: 'deletes archived system logs (journalctl --vacuum)',
          }
        : null;
    default:
      return null;
  }
}

function httpDelete(name: string, argv: readonly string[]): Effect | null {
  if (name === 'curl' || name === 'curlie') {
    for (let i = 1; i < argv.length; i++) {
      const w = argv[i]!;
      const m = w === '-X' || w === '--request' ? argv[i + 1] : /^-X(.+)$|^--request=(.+)$/.exec(w)?.slice(1).find(Boolean);
      if (m !== undefined && m.toUpperCase() === 'DELETE') {
        const url = argv.slice(1).find((u) => /^https?:\/\/|^[\w.-]+:\d+\//.test(u)) ?? 'a URL';
        return { rule: 'http-delete', why: 'an HTTP DELETE removes the resource at that URL', effect: `sends an HTTP DELETE to ${url}` };
      }
    }
    return null;
  }
  if (name === 'http' || name === 'https' || name === 'xh' || name === 'xhs') {
    const i = argv.findIndex((w, j) => j > 0 && !w.startsWith('-'));
    if (i !== -1 && argv[i] === 'DELETE')
      return { rule: 'http-delete', why: 'an HTTP DELETE removes the resource at that URL', effect: `sends an HTTP DELETE to ${argv[i + 1] ?? 'a URL'}` };
  }
  if (name === 'wget' && argv.some((w) => /^--method=delete$/i.test(w)))
    return { rule: 'http-delete', why: 'an HTTP DELETE removes the resource at that URL', effect: 'sends an HTTP DELETE' };
  return null;
}

const FALSE_VALUE = /^(?:false|no|none|0|off)$/i;

/** `aws s3 sync --delete`, `gsutil rsync -d`, `az storage blob sync --delete-destination true`, `mc mirror --remove`. */
function syncDelete(name: string, argv: readonly string[]): Effect | null {
  const path = subcommandPathAll(argv);
  const syncAt = path.findIndex((w) => w === 'sync' || w === 'rsync' || w === 'mirror');
  if (syncAt === -1 || name === 'rsync' || name === 'rclone') return null;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    const eq = w.indexOf('=');
    const flag = eq === -1 ? w : w.slice(0, eq);
    const deletes = flag.startsWith('--delete') || flag === '--remove' || (name === 'gsutil' && /^-[a-zA-Z]*d/.test(w) && !w.startsWith('--'));
    if (!deletes) continue;
    const value = eq !== -1 ? w.slice(eq + 1) : argv[i + 1];
    if (value !== undefined && FALSE_VALUE.test(value)) continue;
    const ops = argv.slice(1).filter((o) => !o.startsWith('-') && /[:/]/.test(o));
    const dest = ops.at(-1) ?? 'the destination';
    return {
      rule: 'sync-delete',
      why: 'a sync with deletion removes every destination object missing from the source',
      effect: `deletes what ${dest} has and ${ops.at(-2) ?? 'the source'} lacks (${name} ${path.slice(0, syncAt + 1).join(' ')} ${w})`,
    };
  }
  return null;
}

/** The path words without the read/run stop (sync flags are judged wherever the path goes). */
function subcommandPathAll(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < argv.length && out.length < 4; i++) {
    const w = argv[i]!;
    if (w.startsWith('-')) continue;
    if (!WORD.test(w)) break;
    out.push(w.toLowerCase());
  }
  return out;
}

function publishing(name: string, argv: readonly string[]): Effect | null {
  const { words, index } = subcommandPath(argv);
  const pub = (what: string, at: string): Effect => ({
    rule: 'publish',
    why: 'publishing, unpublishing, yanking, deprecating or making public cannot be called back: everyone can already have it',
    effect: `${what} (${at})`,
  });
  const lower = words.map((w) => w.toLowerCase());
  for (let i = 0; i < lower.length; i++) {
    const v = verbIn(words[i]!, PUBLISH);
    if (v !== undefined) {
      const obj = objectAfter(argv, index[i]!);
      return pub(`${PUBLISH[v]} ${obj || 'this project'}${v === 'publish' ? ' to its registry' : ''}`, `${name} ${words.slice(0, i + 1).join(' ')}`);
    }
  }
  const first = lower[0];
  if (PUSH_PUBLISHES.has(name) && lower.includes('push')) {
    const at = lower.indexOf('push');
    return pub(`publishes ${objectAfter(argv, index[at]!) || 'an artifact'} to a registry`, `${name} ${words.slice(0, at + 1).join(' ')}`);
  }
  if (PACKAGE_MANAGERS.has(name) && lower[0] === 'access' && argv.some((w) => w === 'public' || w === 'status=public'))
    return pub('makes the package public', `${name} access`);
  if (UPLOADERS.has(name) && lower.includes('upload'))
    return pub(`uploads ${objectAfter(argv, index[lower.indexOf('upload')]!) || 'packages'} to a public index`, `${name} upload`);
  if (name === 'mvn' && lower.includes('deploy')) return pub('uploads the build to the remote Maven repository', 'mvn deploy');
  if (name === 'gh' || name === 'glab') {
    if ((first === 'release' && (lower[1] === 'create' || lower[1] === 'upload')) || (first === 'repo' && lower[1] === 'archive'))
      return pub(`${lower[1] === 'archive' ? 'archives' : 'publishes'} ${objectAfter(argv, index[1]!) || 'a release'}`, `${name} ${first} ${lower[1]}`);
    const vis = argv.findIndex((w) => w === '--visibility' || w.startsWith('--visibility='));
    if (vis !== -1) {
      const v = argv[vis]!.includes('=') ? argv[vis]!.split('=')[1] : argv[vis + 1];
      if (v === 'public' || v === 'internal') return pub(`makes the repository ${v}`, `${name} repo edit --visibility`);
    }
    if ((first === 'repo' || first === 'gist') && lower[1] === 'create' && argv.includes('--public'))
      return pub(`creates a public ${first}`, `${name} ${first} create --public`);
  }
  const open = argv.find((w, i) => i > 0 && PUBLIC_WORD.test(w.replace(/^--?[\w-]+=/, '')));
  if (open !== undefined && !NOT_A_CLI.has(name)) return pub(`makes a store public (${open})`, `${name} ${words.join(' ')}`);
  const access = argv.findIndex((w) => w === '--public-access' || w.startsWith('--public-access='));
  if (access !== -1) {
    const v = argv[access]!.includes('=') ? argv[access]!.split('=')[1] : argv[access + 1];
    if (v !== undefined && !FALSE_VALUE.test(v) && v !== 'off')
      return pub(`opens the container to anonymous reads (--public-access ${v})`, `${name} ${words.join(' ')}`);
  }
  return null;
}

/** A destroying verb in the subcommand path of any CLI, or a destroying flag of one without subcommands. */
function lexicon(name: string, argv: readonly string[]): Effect | null {
  if (NOT_A_CLI.has(name) || /^(?:mkfs|python|node|ruby|perl|php)/.test(name)) return null;
  if (NAME_VERB.test(name)) {
    const obj = argv
      .slice(1)
      .filter((w) => !w.startsWith('-'))
      .join(' ');
    return {
      rule: 'destroying-verb',
      why: `${name} deletes what it names (an account, a volume, a database or a disk's contents)`,
      effect: `${name} deletes ${obj || 'its target'}`,
    };
  }
  const { words, index, ranOrRead } = subcommandPath(argv);
  const lower = words.map((w) => w.toLowerCase());
  if (lower.length > 0 && (LOCAL_CONFIG.has(lower[0]!) || LOCAL_FIRST[name] === lower[0])) return null;
  if (lower.some((w) => /(?:^|[-_:.])caches?(?:$|[-_:.])/.test(w))) return null;
  const pm = PACKAGE_MANAGERS.has(name);
  const registry = pm && lower.some((w) => REGISTRY_WORDS.has(w));
  if (DOCKERS.has(name) && !DOCKER_OBJECTS.has(lower[0] ?? '')) return null;
  const say = (verb: string, at: number, atWord: number): Effect => {
    const obj = objectAfter(argv, atWord);
    return {
      rule: 'destroying-verb',
      why: `a subcommand that ${VERBS[verb] ?? 'destroys'} what the CLI manages (${name} ${words.slice(0, at + 1).join(' ')}): not undoable from here`,
      effect: `${VERBS[verb] ?? 'destroys'} ${obj || (verb.startsWith('flush') ? 'all its data' : 'what it manages')}${where(argv)} (${name} ${words.slice(0, at + 1).join(' ')})`,
    };
  };
  for (let i = 0; i < lower.length; i++) {
    const v = verbIn(words[i]!, VERBS);
    if (v === undefined) continue;
    if (pm && !registry && PM_LOCAL_VERBS.has(v)) return null;
    if ((v === 'rb' || v === 'prune') && lower[i] !== 'rb') continue;
    return say(v, i, index[i]!);
  }
  // A destroying flag: `kafka-topics --delete`, `nomad job stop -purge`, `cargo owner --remove`; not after a
  // run or read word (`terraform plan -destroy` prints a plan).
  if ((pm && !registry) || ranOrRead) return null;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === '--') break;
    const m =
      /^--?(delete|purge|drop|destroy|wipe|remove|truncate|zap-all|erase|prune|zero-superblock)$/.exec(w) ??
      (lower.includes('down') ? /^--(delete|destroy|purge)-[\w-]+$/.exec(w) : null);
    if (m === null || (m[1] === 'prune' && !BACKUP_TOOLS.has(name))) continue;
    const verb = m[1] === 'zap-all' || m[1] === 'zero-superblock' ? 'zap' : m[1]!;
    return {
      rule: 'destroying-verb',
      why: `a ${w} flag makes ${name} destroy what it manages: not undoable from here`,
      effect: `${VERBS[verb] ?? 'destroys'} ${objectAfter(argv, i) || 'its target'}${where(argv)} (${name} ${w})`,
    };
  }
  return null;
}
