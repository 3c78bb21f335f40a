// `roz queue`, `roz approve`, `roz block`, `roz agent stop`: the human's
// commands to the supervisor running for this project, from any terminal of
// theirs, over its control socket (supervisor/control/control-server.ts). Inside an
// enforced agent's sandbox none of this works: the record is unreadable and
// Unix sockets are refused (docs/fleet.md).
import { resolve } from 'node:path';
import type { FoundRecord } from '../../store/control-record.js';
import { liveSupervisors, sendControl, type SendResult } from '../../supervisor/control/control-client.js';
import type { ControlReply, LiveAgent, QueueEntry } from '../../supervisor/control/control-protocol.js';
import { c, cliContext, printJson, table } from '../context.js';

/** Exit codes: 0 done, 3 no supervisor runs here, 4 no such request (or already answered), 5 refused by the supervisor, 1 anything else. */
export const NO_SUPERVISOR = 3;
export const NOT_WAITING = 4;
export const REFUSED = 5;

const say = (s: string): void => void process.stderr.write(`roz: ${s}\n`);

/** The live supervisors of the project at the cwd; null (and said why) when there is none. */
async function supervisors(): Promise<FoundRecord[] | null> {
  const ctx = cliContext();
  const store = resolve(process.cwd(), ctx.config.storage.path);
  const { live, unreadable } = await liveSupervisors(store, process.cwd());
  if (live.length > 0) return live;
  say(
    unreadable
      ? `cannot read roz's control records (${unreadable}); only the human's own terminal can reach the supervisor`
      : `no roz supervisor is running for this project (start one with \`roz run claude\`)`,
  );
  return null;
}

function replyOf(r: SendResult): ControlReply {
  return r.reached ? r.reply : { ok: false, code: 'failed', message: r.error };
}

function exitFor(reply: ControlReply): number {
  if (reply.ok) return 0;
  if (reply.code === 'unknown' || reply.code === 'answered') return NOT_WAITING;
  if (reply.code === 'advisory' || reply.code === 'auth' || reply.code === 'unavailable') return REFUSED;
  return 1;
}

const ago = (iso: string): string => {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 60 ? `${s}s ago` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s ago`;
};

export async function queueCommand(opts: { json?: boolean }): Promise<number> {
  const sups = await supervisors();
  if (!sups) return NO_SUPERVISOR;
  const all: QueueEntry[] = [];
  for (const s of sups) {
    const reply = replyOf(await sendControl(s, { op: 'queue' }));
    if (!reply.ok) {
      say(`supervisor ${s.record.pid}: ${reply.message}`);
      return exitFor(reply);
    }
    all.push(...(reply.queue ?? []));
  }
  all.sort((a, b) => a.since.localeCompare(b.since));
  if (opts.json) {
    printJson(all);
    return 0;
  }
  if (all.length === 0) {
    process.stdout.write('nothing is waiting for you\n');
    return 0;
  }
  process.stdout.write(`${table([['ID', 'AGENT', 'TOOL', 'SINCE', 'WHAT'], ...all.map((q) => [q.id, q.agent, q.tool, ago(q.since), q.summary])])}\n`);
  process.stdout.write(c.dim('answer with: roz approve ID   or   roz block ID [REASON]\n'));
  return 0;
}

/** Ask every supervisor in turn until one knows the request. */
async function answer(id: string, op: { op: 'approve'; id: string } | { op: 'block'; id: string; reason: string }): Promise<number> {
  const sups = await supervisors();
  if (!sups) return NO_SUPERVISOR;
  let best: ControlReply | null = null;
  for (const s of sups) {
    const reply = replyOf(await sendControl(s, op));
    if (reply.ok) {
      process.stdout.write(`${reply.message}\n`);
      return 0;
    }
    // "already answered" says more than "unknown"; a refusal says more than either.
    const rank = (r: ControlReply): number => (r.ok ? 9 : r.code === 'unknown' ? 0 : r.code === 'answered' ? 1 : 2);
    if (!best || rank(reply) > rank(best)) best = reply;
  }
  say(best && !best.ok ? best.message : `no request ${id} is waiting`);
  return best ? exitFor(best) : NOT_WAITING;
}

export function approveCommand(id: string): Promise<number> {
  return answer(id, { op: 'approve', id });
}

export function blockCommand(id: string, reason: string[]): Promise<number> {
  return answer(id, { op: 'block', id, reason: reason.join(' ') });
}

export async function agentStopCommand(name: string | undefined, opts: { all?: boolean }): Promise<number> {
  if (!name && !opts.all) {
    say('name an agent to stop, or --all (roz agent ls lists them)');
    return 2;
  }
  if (name && opts.all) {
    say('either an agent name or --all, not both');
    return 2;
  }
  const sups = await supervisors();
  if (!sups) return NO_SUPERVISOR;
  let last: ControlReply | null = null;
  for (const s of sups) {
    const reply = replyOf(await sendControl(s, name ? { op: 'stop', name } : { op: 'stop-all' }));
    if (reply.ok) process.stdout.write(`${reply.message}\n`);
    else say(`supervisor ${s.record.pid}: ${reply.message}`);
    if (name && reply.ok) return 0;
    last = !last || last.ok ? reply : last;
  }
  return last ? exitFor(last) : 1;
}

/** What the running supervisors say about each agent (live state, pending, where that supervisor runs); null when none runs. */
export async function liveAgents(): Promise<Map<string, LiveAgent & { cwd: string }> | null> {
  const ctx = cliContext();
  const store = resolve(process.cwd(), ctx.config.storage.path);
  const { live } = await liveSupervisors(store, process.cwd());
  if (live.length === 0) return null;
  const out = new Map<string, LiveAgent & { cwd: string }>();
  for (const s of live) {
    const reply = replyOf(await sendControl(s, { op: 'agents' }));
    if (reply.ok) for (const a of reply.agents ?? []) if (!out.has(a.name)) out.set(a.name, { ...a, cwd: s.record.cwd });
  }
  return out;
}

/** `roz agent start NAME`: the running roz run starts it (resumed when it had a conversation in its worktree). */
export async function agentStartCommand(name: string): Promise<number> {
  const reply = await askToStart(name);
  if (!reply) {
    say(`no roz run is running in this project: start one (roz run claude), then roz agent start ${name} or n in its agents tab`);
    return NO_SUPERVISOR;
  }
  if (!reply.ok) {
    say(reply.message);
    return exitFor(reply);
  }
  process.stdout.write(`${reply.message}\n`);
  return 0;
}

/** Ask the running supervisor to start an agent `roz agent add` just created; null when none runs. */
export async function askToStart(name: string): Promise<ControlReply | null> {
  const ctx = cliContext();
  const store = resolve(process.cwd(), ctx.config.storage.path);
  const { live } = await liveSupervisors(store, process.cwd());
  if (live.length === 0) return null;
  return replyOf(await sendControl(live[0]!, { op: 'start', name }));
}
