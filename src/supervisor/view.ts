// What a screen sees of the supervisor: the snapshot of the agent in view and
// each agent of the fleet. The in-process screen reads them from the
// Supervisor; an attached one gets them over the attach socket
// (attach-protocol.ts): one shape for both, apart from the class that makes them.
import type { SessionState } from '../core/session-state.js';
import type { ClientId } from '../core/clients.js';
import type { AgentLaunchFacts } from '../core/fleet/agent.js';
import type { AgentLive } from '../core/fleet/agent-state.js';
import type { DecidedApproval, PendingApproval } from './approval-broker.js';
import type { LiveEvent } from './live-event.js';
import type { ProjectIntents } from './project-intents.js';

export interface SupervisorSnapshot {
  sessionId: string | null;
  sessions: string[];
  state: SessionState | null;
  /** The governed project's intents, when intent governance is on. */
  intents: ProjectIntents | null;
  pending: PendingApproval[];
  /** Where roz's config comes from and what is wrong with it, as last loaded (reloaded on change). */
  config: { path: string; problems: string[] };
  /** Requests already decided (by whom, when, after how long, why), oldest first. */
  decided: DecidedApproval[];
  lastEvent: LiveEvent | null;
  totalEvents: number;
  refused: number;
  /** Set when the snapshot is one agent's (`snapshot(agent)`): which one, and the fleet around it. */
  fleet?: FleetView;
  /** The client the agent in view runs (its launch's word); absent before its launch (Claude Code's words then). */
  client?: ClientId;
}

/** The fleet as seen from the agent in view: the status line names it and says who waits elsewhere. */
export interface FleetView {
  agent: string;
  agents: number;
  /** Requests of other agents waiting for the human, and whose they are (oldest first). */
  waitingElsewhere: number;
  elsewhere: string[];
}

/** One agent as `agents()` gives it to every client (the TUI's tab, the control socket): its live state and launch facts (core/fleet/agent.ts). */
export interface AgentOverview {
  name: string;
  live: AgentLive;
  sessionId: string | null;
  /** From its launch; null before it (or for an agent added without a launch, as in tests and the bench). */
  enforcement: AgentLaunchFacts['enforcement'] | null;
  where: AgentLaunchFacts['where'] | null;
}
