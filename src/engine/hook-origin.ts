// Was this `roz hook <event>` started by the client, or by the agent from its
// Bash tool? Only the client's hooks may change a session. In enforced mode
// the OS guarantees that (the sandboxed Bash cannot write the store). In
// advisory mode this is a heuristic over facts the agent does not control
// cheaply, observed with both pinned clients on Linux (docs/integrity.md):
//  - the client runs a hook as `/bin/sh -c '<the hooks.json command>'`, in a
//    session of its own (the shell is the session leader), with the event on
//    a socket as stdin;
//  - its Bash tool runs `bash -c 'source …/shell-snapshots/snapshot-… && eval …'`,
//    so a `roz hook` typed there has that shell (or, after `exec`, the client
//    itself) as its parent, and a pipe, a file or /dev/null as stdin.
// Codex CLI 0.169 (docs/clients.md) starts a command hook the same way: a
// shell in a session of its own (dash execs the one command, so the hook's
// parent is the codex binary itself), the event on a pipe; its shell tool runs
// `/bin/bash -lc …` inside its bubblewrap sandbox with /dev/null as stdin.
// Gemini CLI 0.61's command hooks pass the same checks (gemini-exec.e2e.test.ts).
// It catches piping or redirecting an event into `roz hook` from Bash, `sh -c`
// wrappers, `exec roz hook … < file`. It does not catch a process that
// recreates the client's spawn exactly (exec, setsid, /bin/sh -c with the
// hook command and a socketpair on stdin: a few lines of python). Where /proc
// is missing (macOS) it cannot tell and lets the hook run.
import { fstatSync, readFileSync } from 'node:fs';

export type HookOrigin = { trusted: true } | { trusted: false; why: string };

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);

/**
 * How every hooks.json command starts: node without NODE_EXTRA_CA_CERTS (it
 * costs each node process the parse of the whole CA bundle, 38 ms here, and a
 * hook opens no TLS connection), the user's value handed over for the
 * processes the hook starts (plugin/bin/roz puts it back).
 */
// The user's value first: dash and bash apply prefix assignments in order (the
// second sees the first), so the other order handed over an empty value.
export const HOOK_COMMAND_PREFIX = 'ROZ_NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS= ';

/** Fields after the command name in /proc/<pid>/stat: [state, ppid, pgrp, session, ...]. */
function statFields(pid: number | 'self'): string[] {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return s.slice(s.lastIndexOf(')') + 2).split(' ');
}

export function hookOrigin(cliName: string): HookOrigin {
  let stdin;
  try {
    stdin = fstatSync(0);
  } catch {
    return { trusted: false, why: 'it has no input' };
  }
  // The client hands the event over a socket (a pipe on other clients is accepted too).
  if (!stdin.isSocket() && !stdin.isFIFO())
    return { trusted: false, why: `its input is ${stdin.isFile() ? 'a file' : 'a terminal or device'}, not the client's` };
  const ppid = process.ppid;
  let argv: string[];
  let parentStat: string[];
  try {
    argv = readFileSync(`/proc/${ppid}/cmdline`, 'utf8').split('\0');
    parentStat = statFields(ppid);
  } catch {
    return { trusted: true }; // no /proc: cannot tell
  }
  const parentSession = parentStat[3];
  const exe = (argv[0] ?? '').slice((argv[0] ?? '').lastIndexOf('/') + 1);
  if (!SHELLS.has(exe)) return { trusted: true };
  const script = argv[argv.indexOf('-c') + 1] ?? '';
  if (script.includes('/shell-snapshots/snapshot-')) return { trusted: false, why: "it was run from the agent's Bash tool" };
  // The shell must run exactly one `… hook <event>` command, as hooks.json has it, in a session of its own.
  const plain = (script.startsWith(HOOK_COMMAND_PREFIX) ? script.slice(HOOK_COMMAND_PREFIX.length) : script).replaceAll('${CLAUDE_PLUGIN_ROOT}', '');
  const single = !/[;&|<>`$()\n]/.test(plain) && new RegExp(`\\bhook\\s+${cliName}\\s*$`).test(plain);
  if (!argv.includes('-c') || !single) return { trusted: false, why: "it was run through a shell command other than the client's hook command" };
  // The client starts that shell in a session of its own; a launcher that
  // waits on it (/usr/bin/time in the bench) may lead the session instead, but
  // never a shell (the agent's Bash tool shell leads its own session).
  const grandparent = Number(parentStat[1]);
  if (parentSession !== String(ppid) && parentSession !== String(grandparent))
    return { trusted: false, why: 'its shell was not started by the client (not in a session of its own)' };
  let gpExe = '';
  try {
    gpExe = readFileSync(`/proc/${grandparent}/cmdline`, 'utf8').split('\0')[0] ?? '';
  } catch {
    /* gone: the client would not be */
  }
  if (SHELLS.has(gpExe.slice(gpExe.lastIndexOf('/') + 1))) return { trusted: false, why: 'it was run through a shell inside another shell' };
  return { trusted: true };
}
