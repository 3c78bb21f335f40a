// Data table of commands that only run another command (sudo, env, xargs...), and how to peel them.
import type { ShellAssignment, ShellWord } from './types.js';
import { splitAssignment } from './words.js';

/** How a wrapper's own options look, so the wrapped command can be found behind them. */
export interface WrapperSpec {
  /** Short option letters that take a value, attached (`-n5`) or as the next word (`-n 5`). */
  shortWithValue: string;
  /** Long options that take a value as the next word when not written `--opt=value`. */
  longWithValue: readonly string[];
  /** Short option letters meaning "do not run a command" (`command -v`, `sudo -l`): no peeling. */
  notWrapperWith?: string;
  /** Short option letters we cannot see through (`env -S` re-splits a string): fail closed. */
  opaqueWith?: string;
  /** Accepts `NAME=value` words between its options and the command. */
  assignments?: boolean;
  /** Operands between options and the command (timeout's DURATION, chroot's NEWROOT). */
  positionals?: number;
  /** Runs the command with elevated privileges. */
  sudo?: boolean;
  /** Appends arguments read from stdin. */
  argsFromStdin?: boolean;
}

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    shortWithValue: 'uCSP',
    longWithValue: ['--unset', '--chdir', '--split-string', '--block-signal', '--default-signal', '--ignore-signal'],
    opaqueWith: 'S',
    assignments: true,
  },
  command: { shortWithValue: '', longWithValue: [], notWrapperWith: 'vV' },
  exec: { shortWithValue: 'a', longWithValue: [] },
  builtin: { shortWithValue: '', longWithValue: [] },
  nohup: { shortWithValue: '', longWithValue: [] },
  time: { shortWithValue: 'fo', longWithValue: ['--format', '--output'] },
  nice: { shortWithValue: 'n', longWithValue: ['--adjustment'] },
  ionice: { shortWithValue: 'cnpPu', longWithValue: ['--class', '--classdata', '--pid', '--pgid', '--uid'] },
  setsid: { shortWithValue: '', longWithValue: [] },
  stdbuf: { shortWithValue: 'ioe', longWithValue: ['--input', '--output', '--error'] },
  timeout: { shortWithValue: 'sk', longWithValue: ['--signal', '--kill-after'], positionals: 1 },
  chroot: { shortWithValue: '', longWithValue: ['--groups', '--userspec'], positionals: 1 },
  sudo: {
    shortWithValue: 'ughpCDrtUTR',
    longWithValue: ['--user', '--group', '--host', '--prompt', '--close-from', '--chdir', '--role', '--type', '--other-user', '--command-timeout', '--chroot'],
    notWrapperWith: 'elvkKV',
    assignments: true,
    sudo: true,
  },
  doas: { shortWithValue: 'uaC', longWithValue: [], notWrapperWith: 'C', sudo: true },
  // `busybox rm -rf /` runs the applet named by its first operand.
  busybox: { shortWithValue: '', longWithValue: [] },
  // `--replace[=R]` takes its value only after `=`; BSD `-J R` is a replace string.
  xargs: {
    shortWithValue: 'adEIiJLlnPs',
    longWithValue: ['--arg-file', '--delimiter', '--eof', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
    argsFromStdin: true,
  },
  // GNU parallel reads arguments from stdin (or after `:::`, which the caller cuts off).
  parallel: {
    shortWithValue: 'jdaIESX',
    longWithValue: [
      '--jobs',
      '--delimiter',
      '--arg-file',
      '--replace',
      '--joblog',
      '--results',
      '--sshlogin',
      '--basefile',
      '--workdir',
      '--tmpdir',
      '--timeout',
      '--colsep',
      '--halt',
      '--delay',
      '--retries',
      '--tag-string',
    ],
    argsFromStdin: true,
  },
  // Process placement, limits, tracing, namespaces, privileges: each runs the rest of its argv.
  taskset: { shortWithValue: '', longWithValue: [], notWrapperWith: 'p', positionals: 1 },
  flock: { shortWithValue: 'wE', longWithValue: ['--timeout', '--wait', '--conflict-exit-code'], positionals: 1 },
  fakeroot: { shortWithValue: 'lisb', longWithValue: ['--lib', '--faked', '--fd-base'] },
  strace: {
    shortWithValue: 'eoOpPsSuXIEbaU',
    longWithValue: ['--output', '--attach', '--user', '--string-limit', '--trace', '--signal', '--expr', '--env'],
    notWrapperWith: 'p',
  },
  ltrace: { shortWithValue: 'eoOpsuxlnAaDFX', longWithValue: ['--output', '--library'], notWrapperWith: 'p' },
  unshare: {
    shortWithValue: 'SGRwt',
    longWithValue: ['--propagation', '--setuid', '--setgid', '--root', '--wd', '--map-user', '--map-group', '--load-interp', '--monotonic', '--boottime'],
  },
  nsenter: { shortWithValue: 'tSGe', longWithValue: ['--target', '--setuid', '--setgid', '--env'] },
  prlimit: { shortWithValue: 'o', longWithValue: ['--output'], notWrapperWith: 'p' },
  setpriv: {
    shortWithValue: '',
    longWithValue: [
      '--reuid',
      '--regid',
      '--ruid',
      '--rgid',
      '--euid',
      '--egid',
      '--groups',
      '--inh-caps',
      '--ambient-caps',
      '--bounding-set',
      '--securebits',
      '--pdeathsig',
      '--selinux-label',
      '--apparmor-profile',
      '--landlock-access',
      '--landlock-rule',
      '--seccomp-filter',
    ],
  },
  chrt: { shortWithValue: 'TPD', longWithValue: ['--sched-runtime', '--sched-period', '--sched-deadline'], notWrapperWith: 'p', positionals: 1 },
  numactl: { shortWithValue: 'NmCpiP', longWithValue: ['--cpunodebind', '--membind', '--physcpubind', '--preferred', '--interleave', '--cpubind'] },
  cgexec: { shortWithValue: 'g', longWithValue: [] },
  firejail: { shortWithValue: '', longWithValue: [] },
  'systemd-run': {
    shortWithValue: 'pEMHu',
    longWithValue: [
      '--unit',
      '--property',
      '--description',
      '--slice',
      '--uid',
      '--gid',
      '--setenv',
      '--working-directory',
      '--machine',
      '--host',
      '--nice',
      '--on-calendar',
      '--on-active',
    ],
  },
  runcon: { shortWithValue: 'turl', longWithValue: ['--type', '--user', '--role', '--range'] },
  caffeinate: { shortWithValue: 'tw', longWithValue: [] },
  proxychains: { shortWithValue: 'f', longWithValue: [] },
  proxychains4: { shortWithValue: 'f', longWithValue: [] },
  torsocks: { shortWithValue: 'uapP', longWithValue: ['--user', '--pass', '--address', '--port'] },
  'xvfb-run': { shortWithValue: 'nfepsw', longWithValue: ['--server-num', '--auth-file', '--error-file', '--server-args', '--xauth-protocol', '--wait'] },
  valgrind: { shortWithValue: '', longWithValue: [] },
  catchsegv: { shortWithValue: '', longWithValue: [] },
  chpst: { shortWithValue: 'uUenlLmdostcfp', longWithValue: [] },
  sg: { shortWithValue: '', longWithValue: [], positionals: 1 },
  'dbus-launch': { shortWithValue: '', longWithValue: ['--config-file'] },
  'ssh-agent': { shortWithValue: 'aEPt', longWithValue: [] },
  unbuffer: { shortWithValue: '', longWithValue: [] },
};

/** Wrappers whose `-c STRING` (or `--command=STRING`) is a shell command, like `su -c`. */
export const DASH_C_RUNNERS: ReadonlySet<string> = new Set(['su', 'runuser', 'script', 'flock', 'sg']);

/**
 * Tools whose subcommand runs the rest of the argv as a command (`uv run rm -rf x`,
 * `op run -- rm -rf x`), with how many operands sit between the subcommand and the command.
 */
export const SUBCOMMAND_RUNNERS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  uv: { run: 0 },
  poetry: { run: 0 },
  pipenv: { run: 0 },
  pdm: { run: 0 },
  hatch: { run: 0 },
  rye: { run: 0 },
  bundle: { exec: 0 },
  npm: { exec: 0 },
  pnpm: { exec: 0 },
  yarn: { exec: 0 },
  bun: { x: 0 },
  op: { run: 0 },
  doppler: { run: 0 },
  infisical: { run: 0 },
  'aws-vault': { exec: 1 },
  direnv: { exec: 1 },
  mise: { exec: 0, x: 0 },
  rtx: { exec: 0, x: 0 },
  asdf: { exec: 0 },
  nix: { develop: 0, shell: 0 },
  dotenv: {},
  dotenvx: { run: 0 },
  'env-cmd': {},
  'cross-env': {},
};

/** A tool whose subcommand runs another program (`docker exec C CMD`, `npx PKG`, `kubectl exec POD -- CMD`). */
export interface ProgramRunner {
  /** Subcommand path after the tool's global options; empty when the tool itself runs the program (`npx`). */
  path: readonly string[];
  /** Options (global and the subcommand's) that take a value as the next word. */
  shortWithValue: string;
  longWithValue: readonly string[];
  /** Operands before the program (the container, the pod, the service, the image). */
  positionals: number;
}

const CONTAINER_VALUE_LONG = [
  '--host',
  '--context',
  '--config',
  '--log-level',
  '--file',
  '--project-name',
  '--profile',
  '--env-file',
  '--project-directory',
  '--env',
  '--user',
  '--workdir',
  '--detach-keys',
  '--name',
  '--volume',
  '--mount',
  '--publish',
  '--network',
  '--net',
  '--entrypoint',
  '--label',
  '--label-file',
  '--platform',
  '--pull',
  '--restart',
  '--memory',
  '--cpus',
  '--hostname',
  '--add-host',
  '--device',
  '--dns',
  '--link',
  '--log-driver',
  '--log-opt',
  '--shm-size',
  '--tmpfs',
  '--ulimit',
  '--volumes-from',
  '--cap-add',
  '--cap-drop',
  '--security-opt',
  '--gpus',
  '--ipc',
  '--pid',
  '--runtime',
  '--cidfile',
  '--expose',
  '--group-add',
  '--health-cmd',
  '--index',
  '--stop-signal',
  '--userns',
];
const container = (path: string[], positionals = 1): ProgramRunner => ({
  path,
  shortWithValue: 'HcfpeluvwmaU',
  longWithValue: CONTAINER_VALUE_LONG,
  positionals,
});
const CONTAINER_RUNNERS: ProgramRunner[] = [
  container(['exec']),
  container(['run']),
  container(['container', 'exec']),
  container(['container', 'run']),
  container(['compose', 'exec']),
  container(['compose', 'run']),
];
const COMPOSE_RUNNERS: ProgramRunner[] = [container(['exec']), container(['run'])];
const KUBE_EXEC: ProgramRunner = {
  path: ['exec'],
  shortWithValue: 'ncf',
  longWithValue: ['--namespace', '--container', '--filename', '--context', '--kubeconfig', '--cluster', '--user', '--pod-running-timeout'],
  positionals: 1,
};
const PACKAGE_RUNNER = (path: string[], long: string[] = []): ProgramRunner => ({
  path,
  shortWithValue: 'p',
  longWithValue: ['--package', '--spec', '--from', '--with', '--python', '--index-url', '--registry', ...long],
  positionals: 0,
});

/**
 * Tools that run another program, by subcommand: the program is judged as if run bare, and the
 * human's line says through what (`drops the database app through docker exec`).
 */
export const PROGRAM_RUNNERS: Readonly<Record<string, readonly ProgramRunner[]>> = {
  docker: CONTAINER_RUNNERS,
  podman: CONTAINER_RUNNERS,
  nerdctl: CONTAINER_RUNNERS,
  finch: CONTAINER_RUNNERS,
  'docker-compose': COMPOSE_RUNNERS,
  'podman-compose': COMPOSE_RUNNERS,
  kubectl: [KUBE_EXEC],
  oc: [KUBE_EXEC],
  kubecolor: [KUBE_EXEC],
  npx: [PACKAGE_RUNNER([])],
  bunx: [PACKAGE_RUNNER([])],
  pnpx: [PACKAGE_RUNNER([])],
  uvx: [PACKAGE_RUNNER([])],
  pnpm: [PACKAGE_RUNNER(['dlx'])],
  yarn: [PACKAGE_RUNNER(['dlx'])],
  npm: [PACKAGE_RUNNER(['x'])],
  pipx: [PACKAGE_RUNNER(['run'])],
  heroku: [{ path: ['run'], shortWithValue: 'asea', longWithValue: ['--app', '--size', '--env', '--remote', '--type'], positionals: 0 }],
  railway: [{ path: ['run'], shortWithValue: 'se', longWithValue: ['--service', '--environment'], positionals: 0 }],
};

/** `prisma@5.2.0` → `prisma`, `@scope/tool@1` → `tool`: the binary a package runner starts. */
export function packageBinary(word: string): string {
  const at = word.lastIndexOf('@');
  const bare = at > 0 ? word.slice(0, at) : word;
  return bare.startsWith('@') ? bare.slice(bare.indexOf('/') + 1) : bare;
}

/**
 * A command we do not know whose name says it wraps another (`mywrapper rm -rf x`,
 * `with-lock rm -rf x`): its first operand is taken as the command it runs.
 */
export function looksLikeWrapper(name: string): boolean {
  // `1A=2 git reset --hard`: not an assignment, so bash runs a command by that name; judge what follows.
  return /wrap|^with[-_]|^run[-_]?with|^retry$|^(?:exec|run)[-_]|=/i.test(name);
}

/** `watch [opts] cmd...`: not a plain wrapper (it re-joins its operands for `sh -c`), but its options peel alike. */
export const WATCH: WrapperSpec = { shortWithValue: 'nq', longWithValue: ['--interval', '--equexit'] };

/** What peeling one wrapper found. */
export interface Peeled {
  /** Index in the word list where the wrapped command starts. */
  start: number;
  assignments: ShellAssignment[];
  /** Why the wrapped command cannot be determined, when it cannot. */
  opaque?: string;
}

/**
 * Skip the wrapper's options starting at words[at+1]. Returns undefined when the wrapper runs
 * nothing (`env` alone, `command -v x`, `sudo -l`), in which case it is the effective command.
 */
export function peelWrapper(spec: WrapperSpec, name: string, words: readonly ShellWord[], at: number): Peeled | undefined {
  const assignments: ShellAssignment[] = [];
  let i = at + 1;
  let opaque: string | undefined;
  // Optional-value short options (xargs -i/-e/-l) only take an attached value, never the next word.
  const attachedOnly = name === 'xargs' ? 'iel' : '';
  while (i < words.length) {
    const word = words[i]!;
    const v = word.value;
    if (v === '--') {
      i++;
      break;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const opt = eq === -1 ? v : v.slice(0, eq);
      if (opt === '--split-string') opaque = `${name} --split-string re-splits its argument`;
      i += eq === -1 && spec.longWithValue.includes(opt) ? 2 : 1;
      continue;
    }
    if (v.length > 1 && v.startsWith('-') && !word.dynamic) {
      if (name === 'nice' && /^-\d+$/.test(v)) {
        i++;
        continue;
      }
      let consumedNext = false;
      for (let c = 1; c < v.length; c++) {
        const letter = v[c]!;
        if (spec.notWrapperWith?.includes(letter)) return undefined;
        if (spec.opaqueWith?.includes(letter)) opaque = `${name} -${letter} cannot be analysed statically`;
        if (spec.shortWithValue.includes(letter)) {
          // The rest of the cluster is the value; otherwise the next word is.
          if (c === v.length - 1 && !attachedOnly.includes(letter)) consumedNext = true;
          break;
        }
      }
      i += consumedNext ? 2 : 1;
      continue;
    }
    if (v === '-' && name === 'env') {
      i++;
      continue;
    }
    if (spec.assignments) {
      const assignment = splitAssignment(v);
      if (assignment !== undefined) {
        assignments.push({ name: assignment.name, value: assignment.value, dynamic: word.dynamic });
        i++;
        continue;
      }
    }
    break;
  }
  i += spec.positionals ?? 0;
  if (i >= words.length) return opaque === undefined ? undefined : { start: words.length, assignments, opaque };
  return opaque === undefined ? { start: i, assignments } : { start: i, assignments, opaque };
}
