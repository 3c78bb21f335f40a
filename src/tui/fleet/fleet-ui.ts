// What the agents tab needs from the run screen: the fleet's rows and queue,
// the agent in view, and the human's actions on it (switch, jump, add, merge,
// stop). The run screen implements it over the fleet host; tests hand in a
// small fake.
import type { QueuedRequest } from '../../core/fleet/queue.js';
import type { WorkSource } from './agent-work.js';
import type { AgentRow } from './AgentsView.js';

export interface FleetOutcome {
  ok: boolean;
  message: string;
  /** A merge refused for want of an approval of this tree: the human may review it here. */
  review?: boolean;
}

export interface FleetUi {
  rows(): AgentRow[];
  queue(): QueuedRequest[];
  /** The agent whose pty the main pane shows. */
  current(): string;
  /** Show this agent in the main pane (its pty, its requests, its session's views). */
  select(name: string): void;
  /** Go to the next agent that needs the human (core/fleet/queue.ts nextNeedingYou); null when nobody does. */
  jump(): string | null;
  /** Give the keyboard to the agent in view (its Claude pane). */
  open(): void;
  /** `roz agent add NAME [--prompt PROMPT]` with the first agent's arguments, then start it. */
  add(name: string, prompt?: string): Promise<FleetOutcome>;
  /** Whether roz's registry already has an agent of this name (`n` then starts it as recorded, asking no prompt). */
  registered?(name: string): boolean;
  /** `roz agent rm NAME` (never --discard: unmerged or uncommitted work is refused, and says so). */
  remove?(name: string): Promise<FleetOutcome>;
  /** Each agent's work (`d`, and `+N −M` in the list); absent where the screen has none (tests). */
  work?: WorkSource;
  /** The merge gate on the agent (`roz agent merge NAME`): its verdict or why it refused. */
  merge(name: string): Promise<FleetOutcome>;
  /** The human approved `head` of the agent's branch here, its diff on screen (`m`, then `y`): record it, then merge. */
  humanMerge?(name: string, head: string): Promise<FleetOutcome>;
  stop(name: string): Promise<FleetOutcome>;
}
