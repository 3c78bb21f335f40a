// One agent's live state in the fleet, as one named type with one pure
// transition. It is fed by hook events (which say exactly when an agent needs a
// human) and by the child's exit — never by reading the agent's screen.
export type AgentStatus =
  | { kind: 'starting' }
  | { kind: 'working' }
  /** A roz approval request waits for the human: the oldest one is `what`. */
  | { kind: 'waiting'; what: string; pending: number }
  /** The client's own dialog (its permission or idle prompt) waits in the agent's pane. */
  | { kind: 'client-prompt'; message: string }
  | { kind: 'idle' }
  | { kind: 'reviewing' }
  | { kind: 'approved' }
  | { kind: 'issues' }
  | { kind: 'breaker' }
  /** How the last turn ended when no review outcome says more: the human blocked a request, roz refused a tool call, or it just finished. */
  | { kind: 'blocked' }
  | { kind: 'refused' }
  | { kind: 'finished' }
  /** `stopped`: the human stopped it (`roz agent stop`); its worktree, branch and session stay for `start`. */
  | { kind: 'exited'; code: number | null; signal: string | null; stopped?: boolean };

export type ReviewMark = 'none' | 'reviewing' | 'approved' | 'issues' | 'breaker';

export interface PendingRef {
  id: string;
  summary: string;
  since: number;
}

export interface AgentLive {
  status: AgentStatus;
  /** roz requests waiting for the human, oldest first. */
  pending: PendingRef[];
  review: ReviewMark;
  /** The client's own open prompt, if a Notification said so and nothing happened since. */
  clientPrompt: string | null;
  /** Between a prompt and the stop that ends its turn. */
  busy: boolean;
  /** What happened in the current (or last) turn: a human block, a roz refusal. Reset by the next prompt. */
  turn: { blockedByYou: boolean; refusedByRoz: boolean; ended: boolean };
  exit: { code: number | null; signal: string | null; stopped?: boolean } | null;
}

export type AgentEvent =
  /** SessionStart: the client is up and, unless a prompt follows, waits for input (no longer `starting`). */
  | { kind: 'session-start' }
  | { kind: 'prompt' }
  | { kind: 'tool' }
  | { kind: 'ask'; id: string; summary: string; at: number }
  /** `blocked`: the human refused it (not a timeout, not a pane answer). */
  | { kind: 'answered'; id: string; blocked?: boolean }
  /** roz's hook refused a tool call (deny) in this turn. */
  | { kind: 'refused' }
  | { kind: 'notification'; type: string; message: string }
  | { kind: 'reviewer-start' }
  | { kind: 'decision'; outcome: 'COMPLETE' | 'ISSUES' }
  /** A Stop the hook let through (`allow`) or blocked (`block`); `tripped` when the breaker opened. */
  | { kind: 'stop'; verdict: 'allow' | 'block'; tripped?: boolean }
  | { kind: 'review-armed' }
  | { kind: 'exit'; code: number | null; signal: string | null; stopped?: boolean };

export function initialAgent(): AgentLive {
  return {
    status: { kind: 'starting' },
    pending: [],
    review: 'none',
    clientPrompt: null,
    busy: false,
    turn: { blockedByYou: false, refusedByRoz: false, ended: false },
    exit: null,
  };
}

/** The next state after one event. Never mutates its argument. */
export function nextAgent(prev: AgentLive, ev: AgentEvent): AgentLive {
  if (prev.exit) return prev; // an exited agent stays exited: late events change nothing
  const s: AgentLive = { ...prev, pending: [...prev.pending], turn: { ...prev.turn } };
  switch (ev.kind) {
    case 'session-start':
      // Nothing else changes (a SessionStart after /compact comes mid-turn): the status is computed again below.
      break;
    case 'prompt':
      s.busy = true;
      s.clientPrompt = null;
      s.turn = { blockedByYou: false, refusedByRoz: false, ended: false };
      break;
    case 'tool':
      s.busy = true;
      s.clientPrompt = null; // the client's dialog was answered: a tool ran
      break;
    case 'ask':
      if (!s.pending.some((p) => p.id === ev.id)) s.pending.push({ id: ev.id, summary: ev.summary, since: ev.at });
      break;
    case 'answered':
      s.pending = s.pending.filter((p) => p.id !== ev.id);
      if (ev.blocked) s.turn.blockedByYou = true;
      break;
    case 'refused':
      s.turn.refusedByRoz = true;
      break;
    case 'notification':
      // permission_prompt: the client's own dialog; idle_prompt: it waits for input.
      if (ev.type === 'idle_prompt') {
        s.busy = false;
        s.clientPrompt = null;
      } else s.clientPrompt = ev.message || 'the client asks in its own pane';
      break;
    case 'reviewer-start':
      s.review = 'reviewing';
      break;
    case 'decision':
      s.review = ev.outcome === 'COMPLETE' ? 'approved' : 'issues';
      break;
    case 'review-armed':
      if (s.review !== 'reviewing') s.review = 'none';
      break;
    case 'stop':
      s.clientPrompt = null;
      if (ev.tripped) s.review = 'breaker';
      if (ev.verdict === 'allow') {
        s.busy = false;
        s.turn.ended = true;
      }
      break;
    case 'exit':
      s.exit = { code: ev.code, signal: ev.signal, ...(ev.stopped ? { stopped: true } : {}) };
      s.pending = [];
      s.clientPrompt = null;
      s.busy = false;
      break;
  }
  s.status = statusOf(s);
  return s;
}

/** The one state the human sees: what needs them first, then what the agent is doing. */
export function statusOf(s: AgentLive): AgentStatus {
  if (s.exit) return { kind: 'exited', code: s.exit.code, signal: s.exit.signal, ...(s.exit.stopped ? { stopped: true } : {}) };
  const oldest = s.pending[0];
  if (oldest) return { kind: 'waiting', what: oldest.summary, pending: s.pending.length };
  if (s.clientPrompt !== null) return { kind: 'client-prompt', message: s.clientPrompt };
  if (s.review === 'reviewing') return { kind: 'reviewing' };
  if (s.busy) return { kind: 'working' };
  if (s.review === 'breaker') return { kind: 'breaker' };
  if (s.review === 'issues') return { kind: 'issues' };
  if (s.turn.blockedByYou) return { kind: 'blocked' };
  if (s.turn.refusedByRoz) return { kind: 'refused' };
  if (s.review === 'approved') return { kind: 'approved' };
  if (s.turn.ended) return { kind: 'finished' };
  return { kind: 'idle' };
}

/** Does this agent need the human now (a roz request or the client's own prompt)? */
export function needsHuman(status: AgentStatus): boolean {
  return status.kind === 'waiting' || status.kind === 'client-prompt';
}

/** A short label for lists and `roz agent ls`. */
export function statusLabel(status: AgentStatus): string {
  switch (status.kind) {
    case 'waiting':
      return status.pending > 1 ? `waiting for you (${status.pending})` : 'waiting for you';
    case 'client-prompt':
      return 'waiting on its own prompt';
    case 'issues':
      return 'ISSUES open';
    case 'breaker':
      return 'breaker tripped';
    case 'blocked':
      return 'blocked by you';
    case 'refused':
      return 'refused by roz';
    case 'exited':
      // Stopped by the human: not a crash, whatever signal ended it.
      if (status.stopped) return 'stopped';
      return status.signal ? `exited (${status.signal})` : `exited (${status.code ?? '?'})`;
    default:
      return status.kind;
  }
}

/**
 * The one line a window says when the human detaches it (`D`): how many agents
 * go on without it, how many of them wait for the human, and how to come back.
 */
export function detachLine(statuses: readonly AgentStatus[]): string {
  const running = statuses.filter((s) => s.kind !== 'exited');
  const waiting = running.filter(needsHuman).length;
  const n = running.length;
  const who = n === 0 ? 'no agent runs' : `${n} agent${n === 1 ? ' goes' : 's go'} on in the background`;
  return `roz: ${who}${waiting > 0 ? ` (${waiting} waiting)` : ''} — \`roz attach\` to come back`;
}
