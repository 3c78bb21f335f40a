// "Agent" has a shape in each layer, each named for what it is (issue 32):
//  - AgentRecord (store/agent-registry.ts): the registry's entry, what `roz agent add`
//    made and `roz agent ls` reads. Persisted (snake_case on disk, read by older roz):
//    its fields keep their names; its `worktree` is the workplace's `cwd` once launched.
//  - HostedAgent (supervisor/host/fleet-host.ts): an agent the fleet host launched:
//    an AgentWorkplace with its child process, its notes and how it ended.
//  - SupervisedAgent (supervisor/supervisor.ts): what the supervisor tracks of an agent:
//    its sessions, live state, the review facts it last saw, and its AgentLaunchFacts.
//  - ScreenAgent (supervisor/attach/fleet-connection.ts, on the attach wire): a launched
//    agent as a screen lists it, one pane each: an AgentWorkplace, and whether it runs.
//  - AgentOverview (supervisor/view.ts): an agent as Supervisor.agents() gives it to every
//    client (the agents tab, the control socket): its live state and AgentLaunchFacts.
// What they share lives here. Pure: types only.
import type { EnforcementMode } from '../enforce/mode.js';
import type { ClientId } from '../clients.js';

/** Where an agent works: its name, its directory (its worktree, or the checkout it shares) and its own branch. */
export interface AgentWorkplace {
  readonly name: string;
  readonly cwd: string;
  /** Its branch (`roz/NAME`) when it has a worktree of its own; null for the first agent or a shared directory. */
  readonly branch: string | null;
}

/** One agent's launch as its launcher decided it, from its own facts (the settings file it wrote), not the agent's reports. */
export interface AgentLaunchFacts {
  enforcement: EnforcementMode;
  /** Which client it runs (Claude Code, Codex CLI, Gemini CLI): its pane and the keys that lead there say so. */
  client: ClientId;
  /** Its branch (`roz/NAME`), or agent-where.ts's label for an agent without one. */
  where: string;
}
