// The fleet in this very process: the run screen drawing a FleetHost it
// started itself. Used where answers must come from this window's keyboard
// only (an advisory launch: an unconfined agent could reach the control
// socket), so the supervisor lives and dies with the window.
import { FleetHost, type FleetRequest } from './fleet-host.js';
import { type ConnectionEnd, type FleetConnection, mergeOutcome, type Outcome, type ScreenAgent } from '../attach/fleet-connection.js';

export class LocalConnection implements FleetConnection {
  readonly ended: Promise<ConnectionEnd>;
  readonly detach = null;

  private constructor(readonly host: FleetHost) {
    this.ended = host.allExited.then(async () => {
      const r = await host.finish();
      return { kind: 'ended', code: r.code, stats: r.sessions.map((s) => r.supervisor.stats(s)) };
    });
  }

  static async start(req: FleetRequest): Promise<LocalConnection> {
    return new LocalConnection(await FleetHost.start(req));
  }

  get notes(): string[] {
    return this.host.notes;
  }

  private get sup() {
    return this.host.supervisor;
  }

  subscribe(fn: () => void): () => void {
    return this.sup.subscribe(fn);
  }
  snapshot(agent: string) {
    return this.sup.snapshot(agent);
  }
  get events() {
    return this.sup.events;
  }
  answer(id: string, a: Parameters<FleetConnection['answer']>[1]): boolean {
    return this.sup.answer(id, a);
  }
  stats(sessionId: string) {
    return this.sup.stats(sessionId);
  }
  selectIntent(intentId: string | null, agent: string): Promise<Outcome> {
    return this.sup.selectIntent(intentId, agent);
  }
  agents() {
    return this.sup.agents();
  }
  queue() {
    return this.sup.queue();
  }
  list(): ScreenAgent[] {
    return this.host.connected();
  }
  onAgents(fn: () => void): () => void {
    return this.host.onChange(fn);
  }
  onPty(fn: (agent: string, data: string) => void): () => void {
    return this.host.onPty(fn);
  }
  write(agent: string, data: string): void {
    this.host.write(agent, data);
  }
  /** One window, no replay: its terminal's answers go to the agent as they always did. */
  reply(agent: string, data: string): void {
    this.host.write(agent, data);
  }
  resize(cols: number, rows: number): void {
    this.host.resize(cols, rows);
  }
  view(_agent: string): void {}
  add(name: string, prompt?: string): Promise<Outcome> {
    return this.host.addAgent(name, prompt);
  }
  async merge(name: string): Promise<Outcome> {
    return mergeOutcome(await this.host.mergeAgent(name));
  }
  humanMerge(name: string, head: string): Promise<Outcome> {
    return this.host.humanMerge(name, head);
  }
  stop(name: string): Promise<Outcome> {
    return this.host.stopAgent(name);
  }
}
