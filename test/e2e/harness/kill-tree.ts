// Kills a process and everything it started. A process-group kill is not
// enough: the client runs each Bash command in a group of its own, so those
// would survive a timed-out test. Descendants are found through /proc (Linux)
// before anything is killed, since orphans get re-parented away from the tree.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** The parent of `pid` (undefined once it is gone). */
export function parentOf(pid: number): number | undefined {
  try {
    // /proc/PID/stat: "pid (comm) state ppid ..."; comm may contain spaces and parens.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isFinite(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** Every process id /proc lists now (none where there is no /proc). */
function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
}

export function descendantsOf(root: number): number[] {
  const pids = allPids();
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const ppid = parentOf(pid);
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

const tryKill = (pid: number): void => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
};

const trySignal = (pid: number, sig: NodeJS.Signals): void => {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
};

/**
 * SIGKILL `pid`, its process group and every descendant (and their groups).
 * The tree is frozen with SIGSTOP first, rescanning until no new process shows
 * up, so nothing forked mid-scan escapes.
 */
export function killTree(pid: number): void {
  const seen = new Set<number>([pid]);
  trySignal(pid, 'SIGSTOP');
  for (let round = 0; round < 10; round++) {
    const fresh = descendantsOf(pid).filter((p) => !seen.has(p));
    if (fresh.length === 0) break;
    for (const p of fresh) {
      seen.add(p);
      trySignal(p, 'SIGSTOP');
    }
  }
  for (const p of seen) {
    tryKill(-p);
    tryKill(p);
  }
}

/**
 * SIGKILL every process (and what it started) working in `dir` or naming it on
 * its command line: what a test left behind outside its own tree, such as the
 * background supervisor `roz run` starts (re-parented away from the test's
 * pty) and the clients under it.
 */
export function killProcessesIn(dir: string): void {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  for (const pid of allPids()) {
    if (pid === process.pid) continue;
    let cwd = '';
    let argv = '';
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // gone, or not ours to read
    }
    if (cwd === dir || cwd.startsWith(prefix) || argv.includes(prefix)) killTree(pid);
  }
}
