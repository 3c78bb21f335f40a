// The fleet's one approval queue: every agent's waiting requests in arrival
// order, each naming its agent, and which agent to jump to next.
import { type AgentStatus, needsHuman } from './agent-state.js';

export interface QueuedRequest {
  id: string;
  agent: string;
  tool: string;
  summary: string;
  /** When the request arrived (ms since the epoch). */
  since: number;
}

/** All agents' requests, oldest first; ties keep the agents' order. */
export function fleetQueue(byAgent: ReadonlyArray<{ agent: string; requests: ReadonlyArray<Omit<QueuedRequest, 'agent'>> }>): QueuedRequest[] {
  const all: Array<QueuedRequest & { rank: number }> = [];
  byAgent.forEach(({ agent, requests }, rank) => {
    for (const r of requests) all.push({ ...r, agent, rank });
  });
  all.sort((a, b) => a.since - b.since || a.rank - b.rank);
  return all.map(({ rank: _rank, ...r }) => r);
}

/**
 * The agent the "next" key jumps to: the next one after `current` (in list
 * order, wrapping) that needs the human, preferring the one whose request is
 * oldest. Null when nobody needs the human.
 */
export function nextNeedingYou(agents: ReadonlyArray<{ name: string; status: AgentStatus; oldestSince?: number }>, current: string | null): string | null {
  const needing = agents.filter((a) => needsHuman(a.status));
  if (needing.length === 0) return null;
  const others = needing.filter((a) => a.name !== current);
  const pool = others.length > 0 ? others : needing;
  // The oldest roz request first: that is the one whose hook deadline is nearest.
  const withSince = pool.filter((a) => a.oldestSince !== undefined);
  if (withSince.length > 0) return withSince.reduce((a, b) => ((b.oldestSince ?? 0) < (a.oldestSince ?? 0) ? b : a)).name;
  const at = agents.findIndex((a) => a.name === current);
  for (let i = 1; i <= agents.length; i++) {
    const a = agents[(at + i) % agents.length];
    if (a && pool.includes(a)) return a.name;
  }
  return pool[0]?.name ?? null;
}

/** A request id the human typed (`roz approve ID`): an exact id, or a unique prefix of one. */
export function resolveRequestId(queue: ReadonlyArray<QueuedRequest>, typed: string): { ok: true; id: string } | { ok: false; error: string } {
  const t = typed.trim();
  if (t === '') return { ok: false, error: 'no request id given (see `roz queue`)' };
  const exact = queue.find((q) => q.id === t);
  if (exact) return { ok: true, id: exact.id };
  const matches = queue.filter((q) => q.id.startsWith(t));
  if (matches.length === 1 && matches[0]) return { ok: true, id: matches[0].id };
  if (matches.length === 0) return { ok: false, error: `no pending request ${t} (see \`roz queue\`)` };
  return { ok: false, error: `${t} matches ${matches.length} requests: ${matches.map((m) => m.id).join(', ')}` };
}
