// After a killed supervisor or a reboot (issue 31, part 4): the agents roz's
// registry says were running under a supervisor that is gone. `roz run` and
// `roz attach` list them and offer to resume them (all, some, or none) before
// the screen takes the terminal; elsewhere (`roz exec`) roz says what it found
// and how to resume. A resume is the fleet host's `startAgent` (asked over the
// control socket, as `roz agent start` asks): the client's `--resume` with the
// agent's last session, never its first prompt again. An agent whose worktree
// or branch vanished is reported and left stopped.
import { createInterface } from 'node:readline/promises';
import { interruptedAgents, updateRegistry } from '../../store/agent-registry.js';
import { listAgents } from '../../store/agent-worktrees.js';
import type { FoundRecord } from '../../store/control-record.js';

export interface InterruptedAgent {
  name: string;
  branch: string | null;
  /** The session a resume continues (the registry's), or null: it then starts with its recorded prompt. */
  session: string | null;
  /** Why it cannot be resumed (its worktree or branch is gone), or null. */
  problem: string | null;
}

export interface Interrupted {
  /** The registry they are recorded in. */
  registryKey: string;
  agents: InterruptedAgent[];
}

/** The agents of this project's registry that were running under a supervisor not among `livePids`; null when none (or no registry to read). */
export function findInterrupted(store: string, cwd: string, livePids: ReadonlySet<number>): Interrupted | null {
  let listed: ReturnType<typeof listAgents>;
  try {
    listed = listAgents(store, cwd);
  } catch {
    return null; // a registry roz cannot read: `roz agent ls` says why
  }
  const byName = new Map(listed.agents.map((l) => [l.agent.name, l]));
  const reg = { version: 1 as const, repo: listed.key, agents: Object.fromEntries(listed.agents.map((l) => [l.agent.name, l.agent])) };
  const agents = interruptedAgents(reg, livePids).map((a) => ({
    name: a.name,
    branch: a.branch,
    session: a.running?.session ?? a.last_session ?? null,
    problem: byName.get(a.name)?.problem ?? null,
  }));
  return agents.length ? { registryKey: listed.key, agents } : null;
}

/** What was found, one line an agent. */
export function describeInterrupted(found: Interrupted): string[] {
  const n = found.agents.length;
  return [
    `${n} agent${n === 1 ? ' was' : 's were'} running when their supervisor stopped (it was killed, or the machine restarted):`,
    ...found.agents.map(
      (a) =>
        `  ${a.name}${a.branch ? `  ${a.branch}` : ''}  ${
          a.problem
            ? `cannot be resumed: ${a.problem}`
            : a.session
              ? `its conversation ${a.session} can be resumed`
              : 'no conversation recorded (it would start with its prompt)'
        }`,
    ),
  ];
}

/** Off a terminal: what was found and how to resume it. */
export function interruptedNote(who: string, found: Interrupted): string {
  return [
    ...describeInterrupted(found).map((l) => `${who}: ${l}`),
    `${who}: resume them with \`roz run\` (it offers to), or \`roz agent start NAME\` while a roz run runs here`,
  ].join('\n');
}

/**
 * Ask the human on the terminal (before the screen starts): resume all, pick, or leave them stopped.
 * Returns the names to resume. Agents that cannot be resumed, and those left stopped, lose their
 * running mark (they read stopped and are not offered again).
 */
export async function askResume(who: string, store: string, found: Interrupted): Promise<string[]> {
  const out = process.stderr;
  for (const l of describeInterrupted(found)) out.write(`${who}: ${l}\n`);
  const resumable = found.agents.filter((a) => !a.problem);
  let chosen: string[] = [];
  if (resumable.length) {
    const rl = createInterface({ input: process.stdin, output: out, terminal: true });
    try {
      const all = (await rl.question(`${who}: resume ${resumable.map((a) => a.name).join(', ')}? [A]ll / [p]ick / [n]one (leave them stopped): `))
        .trim()
        .toLowerCase();
      if (all === '' || all === 'a' || all === 'all' || all === 'y' || all === 'yes') chosen = resumable.map((a) => a.name);
      else if (all === 'p' || all === 'pick')
        for (const a of resumable) {
          const yes = (await rl.question(`${who}:   resume ${a.name}? [y/N] `)).trim().toLowerCase();
          if (yes === 'y' || yes === 'yes') chosen.push(a.name);
        }
    } finally {
      rl.close();
    }
  }
  const left = found.agents.filter((a) => !chosen.includes(a.name)).map((a) => a.name);
  if (left.length) {
    await updateRegistry(store, found.registryKey, (reg) => {
      for (const name of left) if (reg.agents[name]) delete reg.agents[name].running;
    }).catch((err: Error) => out.write(`${who}: could not record ${left.join(', ')} as stopped: ${err.message}\n`));
    out.write(`${who}: left stopped: ${left.join(', ')} (roz agent start NAME resumes one later)\n`);
  }
  return chosen;
}

/** Ask the supervisor to resume each chosen agent (its `startAgent`: `--resume` with its last session); say what it answered. */
export async function resumeChosen(who: string, rec: FoundRecord, names: readonly string[]): Promise<void> {
  const { sendControl } = await import('../../supervisor/control/control-client.js');
  for (const name of names) {
    const r = await sendControl(rec, { op: 'start', name });
    process.stderr.write(`${who}: ${r.reached ? r.reply.message : `could not ask the supervisor to resume ${name}: ${r.error}`}\n`);
  }
}
