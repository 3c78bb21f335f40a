// What the human may ask of a running fleet, from the TUI or from any of
// their terminals (the control socket): start an agent roz's registry knows
// (`roz agent add`: its worktree, its claude arguments, its first prompt),
// stop one, stop all. The fleet host (fleet-host.ts) implements it.
export interface FleetControl {
  /** An agent in roz's registry (`roz agent add`): its worktree, args, prompt. */
  startAgent(name: string): Promise<{ ok: boolean; message: string }>;
  stopAgent(name: string): Promise<{ ok: boolean; message: string }>;
  stopAll(): Promise<{ ok: boolean; message: string }>;
}
