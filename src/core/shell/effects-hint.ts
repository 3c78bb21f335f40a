// Could the on-demand effects module (effects.ts) find anything in this command?
// A cheap look at the words, run on every command: the module loads only when
// this says yes, so `npm test` or `git status` never pays for its tables.
// Plain substring tests, not one regular expression: V8 compiles a large
// alternation on every hook start, which cost a Bash call ~4.5M instructions.
// Every word effects.ts acts on has a stem here (test/core/shell/effects.test.ts checks it).
const STEMS = (
  'delet destr drop reset purg wipe flush trunc remov uninst yank publish revok disabl deprec termin regist teardown nuke ' +
  'erase unset undefine retire unlist push upload release visib public allusers .env .key .pem .p12 .pfx .jks keystore id_ ' +
  'credential secret sudoers tables setenforce apparmor auditctl systemctl service chmod sysctl passwd spctl csrutil ufw nft ' +
  'vacuum zap sync mirror deploy obliterate unlink trash discard deinit superblock prune access archiv fresh rollback undo ' +
  'downgrade clean data-loss schema:load structure:load replant refresh'
).split(' ');
/** Words that must stand alone (or start or end a word): as substrings they are in everything. */
const SHORT = [' rm', ' -rm', ' rb ', ' del', 'del ', ' down ', ' aa-'];

/**
 * Substring tests on a whole command line (`name arg… target…`), lowercased once. Not a
 * regular expression: V8 compiles one on its first run, which for this alternation cost a
 * Bash hook ~2.7M instructions, more than judging the command; and one pass over the line,
 * not one per word (a loop in the interpreter is what a hook pays for).
 */
export function effectHint(line: string): boolean {
  const w = ` ${line.toLowerCase()} `;
  for (const s of STEMS) if (w.includes(s)) return true;
  for (const s of SHORT) if (w.includes(s)) return true;
  return false;
}

/** Programs whose destructive rules live in lazy-rules.ts (loaded with the effects module); a string, not a Set built in every hook. */
const LAZY_NAMES = ` ${
  'cfdisk chgrp chown crontab dd docker docker-compose dropdb fdisk gdisk gh halt helm init k3s keydb-cli killall killall5 kubectl ' +
  'microk8s.kubectl mke2fs mkswap mysqladmin nerdctl newfs oc parted pkill podman podman-compose poweroff pulumi reboot redis-cli ' +
  'sfdisk sgdisk shutdown telinit terraform terragrunt tofu valkey-cli wipefs ' +
  'psql mysql mariadb sqlite3 sqlite sqlcmd clickhouse-client clickhouse cockroach mongo mongosh duckdb pgcli mycli litecli usql sqlplus ' +
  'snowsql bq cqlsh trino presto vsql isql db2 turso d1'
} `;
export function lazyName(name: string): boolean {
  return LAZY_NAMES.includes(` ${name} `) || name.startsWith('mkfs');
}

/** Programs whose write extractors live in lazy-writers.ts. */
const LAZY_WRITER_NAMES =
  ' mkfifo gzip gunzip bzip2 xz dd tar unzip patch awk gawk mawk nawk gcc g++ cc c++ clang clang++ rustc split csplit xxd zip vim vi nvim ex ed emacs sqlite3 sqlite ';
export function lazyWriterName(name: string): boolean {
  return LAZY_WRITER_NAMES.includes(` ${name} `);
}
