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
    shortWithValue: 'uCS',
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
  xargs: {
    shortWithValue: 'adEIiLlnPs',
    longWithValue: ['--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
    argsFromStdin: true,
  },
};

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
