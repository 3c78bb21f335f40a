// What the control server asks of the fleet host (the part of the supervisor
// that starts and stops agents' clients). The control server only relays the
// human's command; the host decides how. Absent in a run that cannot start or
// stop agents: the control server then says so.

export interface FleetControl {
  /** Start an agent in roz's registry (`roz agent add`). */
  startAgent(name: string): Promise<{ ok: boolean; message: string }>;
  stopAgent(name: string): Promise<{ ok: boolean; message: string }>;
  /** Every agent, and the supervisor with them. */
  stopAll(): Promise<{ ok: boolean; message: string }>;
}
