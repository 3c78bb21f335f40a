// The agents tab's view of each agent's work (`d`, and `+N −M ↑A ↓B` in the
// list): `roz agent diff --json` run as a process of its own, from roz's own
// bundled CLI, so the hashing and git calls of store/agent-diff.ts never stall
// this screen's event loop, and this screen reads exactly what the command
// prints. Runs in the human's window (a screen attached to the background
// supervisor, or the run itself), in the directory `roz run` started in.
import { spawn } from 'node:child_process';
import { loadConfig } from '../../engine/config-loader.js';
import { listAgents } from '../../store/agent-worktrees.js';
import type { WorkDiff, WorkOrError, WorkSummary } from '../../core/fleet/work-diff.js';
import { rozCliFile } from '../../supervisor/host/background.js';

export interface WorkSource {
  /** One agent's work with its patch (`branch`: only what its branch holds, what a merge takes). */
  diff(name: string, opts?: { branch?: boolean }): Promise<WorkOrError>;
  /** Every agent's counts (no patch). */
  all(): Promise<WorkOrError[]>;
}

/** The same CLI's `roz agent rm NAME` (no --discard): the tab's `r`. */
export interface AgentRemover {
  remove(name: string): Promise<{ ok: boolean; message: string }>;
}

/** Only the numbers of a work (what the list shows). */
export function summaryOf(w: WorkOrError): WorkSummary | { error: string } {
  if ('error' in w) return { error: w.error };
  return { added: w.added, removed: w.removed, files: w.files, ahead: w.ahead, behind: w.behind };
}

function rozJson(args: string[], cwd: string, timeoutMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    let file: string;
    try {
      file = rozCliFile();
    } catch (err) {
      resolve({ code: 127, stdout: '', stderr: (err as Error).message });
      return;
    }
    const p = spawn(process.execPath, [file, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    timer.unref();
    p.stdout.on('data', (d: Buffer) => out.push(d));
    p.stderr.on('data', (d: Buffer) => err.push(d));
    p.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: 127, stdout: '', stderr: `could not run roz: ${e.message}` });
    });
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

const why = (r: { code: number; stderr: string }): string => r.stderr.replace(/^roz: /, '').trim() || `roz exited ${r.code}`;

/** The work source of a screen whose `roz run` started in `cwd`. */
export function cliWorkSource(cwd: string = process.cwd()): WorkSource & AgentRemover {
  return {
    remove: async (name) => {
      const r = await rozJson(['agent', 'rm', name], cwd, 120_000);
      return r.code === 0 ? { ok: true, message: r.stdout.trim().split('\n').join('; ') } : { ok: false, message: why(r) };
    },
    diff: async (name, opts) => {
      const r = await rozJson(['agent', 'diff', name, '--json', ...(opts?.branch ? ['--branch'] : [])], cwd, 60_000);
      if (r.code !== 0) return { agent: name, error: why(r) };
      try {
        return JSON.parse(r.stdout) as WorkDiff;
      } catch {
        return { agent: name, error: 'roz agent diff printed no JSON' };
      }
    },
    all: async () => {
      const r = await rozJson(['agent', 'diff', '--all', '--stat', '--json'], cwd, 60_000);
      try {
        return JSON.parse(r.stdout) as WorkOrError[];
      } catch {
        return [];
      }
    },
  };
}

/**
 * Whether roz's registry (of the repository `cwd` is in) has an agent of this
 * name: `n` then starts it as `roz agent add` recorded it and asks no prompt.
 * Read once per `n`; false when it cannot be read (the prompt is asked, and
 * the host still starts a recorded agent as recorded).
 */
export function registeredAgent(name: string, cwd: string = process.cwd()): boolean {
  try {
    const store = loadConfig(process.env).config.storage.path;
    return listAgents(store, cwd).agents.some((a) => a.agent.name === name);
  } catch {
    return false;
  }
}
