// What the run screen draws: a fleet, wherever its supervisor runs. In this
// process (local-connection.ts: an advisory launch, where answers must come
// from this window's keyboard) or in the background supervisor reached over
// its control socket (attach-client.ts: `roz run` of an enforced launch and
// `roz attach`). The screen never holds a FleetHost or a Supervisor itself,
// so closing it can leave the agents running.
import { type MergeResult, mergeMessage } from '../../core/fleet/merge-result.js';
import type { QueuedRequest } from '../../core/fleet/queue.js';
import type { HumanAnswer } from '../approval-broker.js';
import type { LiveEvent } from '../live-event.js';
import type { SessionStats } from '../session-stats.js';
import type { AgentWorkplace } from '../../core/fleet/agent.js';
import type { AgentOverview, SupervisorSnapshot } from '../view.js';

export interface Outcome {
  ok: boolean;
  message: string;
  /** A merge refused for want of an approval of this tree (never reviewed, changed since): the human may review it (`m`, then `y`). */
  review?: boolean;
}

/** One agent the fleet host launched, as a screen lists it (a pane each): where it works, and whether it runs. */
export interface ScreenAgent extends AgentWorkplace {
  /** Still running (its pty takes input). */
  running: boolean;
}

/** How a connection ended: the run is over, the human detached, or the supervisor went away. */
export type ConnectionEnd = { kind: 'ended'; code: number; stats: Array<SessionStats | null> } | { kind: 'detached' } | { kind: 'lost'; reason: string };

export interface FleetConnection {
  /** Notes of the launch, for the launcher to print once (hook transport, plugin, the mode). */
  readonly notes: string[];
  /** The supervisor changed (throttled): snapshot, queue, agents, events. */
  subscribe(fn: () => void): () => void;
  snapshot(agent: string): SupervisorSnapshot;
  readonly events: { tail(n: number, keep?: (e: LiveEvent) => boolean): LiveEvent[]; readonly total: number };
  /** The human's answer from this window's keyboard. False when the request is no longer pending here. */
  answer(id: string, answer: HumanAnswer): boolean;
  /** undefined: not known yet (a screen attached over the socket asked; the answer redraws it). */
  stats(sessionId: string): SessionStats | null | undefined;
  selectIntent(intentId: string | null, agent: string): Promise<Outcome>;
  agents(): AgentOverview[];
  queue(): QueuedRequest[];
  /** Every agent launched so far (exited ones too), in launch order. */
  list(): ScreenAgent[];
  /** An agent started or exited. */
  onAgents(fn: () => void): () => void;
  /**
   * Bytes an agent's pty wrote. The first listener first gets what each agent wrote before it (the replay, `replay`
   * true), where the connection keeps one: old output, whose terminal queries were answered long ago. `resync`: an
   * agent coming into view, its newest output replacing what the screen had of it (an attached screen gets only the agent in view).
   */
  onPty(fn: (agent: string, data: string, replay?: boolean | 'resync') => void): () => void;
  /** The human's keys to an agent. */
  write(agent: string, data: string): void;
  /** This window's terminal answering an agent's query (cursor position, device attributes): not a key. */
  reply(agent: string, data: string): void;
  /** The main pane's size: every agent's pty follows. */
  resize(cols: number, rows: number): void;
  /** Which agent this window shows (the snapshot the supervisor sends is of it). */
  view(agent: string): void;
  /** A new agent (`roz agent add`, with its first prompt when given), then started. */
  add(name: string, prompt?: string): Promise<Outcome>;
  merge(name: string): Promise<Outcome>;
  /** The human approved `head` of the agent's branch at this keyboard (its diff shown): record it, then merge. */
  humanMerge(name: string, head: string): Promise<Outcome>;
  stop(name: string): Promise<Outcome>;
  /** Leave the agents running and close this window; null where that cannot be (the supervisor runs in this process). */
  readonly detach: (() => void) | null;
  /** Resolves once: the run ended, the human detached, or the connection was lost. */
  readonly ended: Promise<ConnectionEnd>;
}

/** `roz agent merge`'s result as the agents tab shows it. */
export function mergeOutcome(r: MergeResult): Outcome {
  return mergeMessage(r);
}
