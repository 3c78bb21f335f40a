// What the TUI needs from a supervisor. The real Supervisor fits it; tests
// hand in a small fake.
import type { HumanAnswer } from '../supervisor/approval-broker.js';
import type { LiveEvent } from '../supervisor/live-event.js';
import type { SessionStats } from '../supervisor/session-stats.js';
import type { SupervisorSnapshot } from '../supervisor/view.js';

export interface SupervisorSource {
  subscribe(fn: () => void): () => void;
  snapshot(): SupervisorSnapshot;
  readonly events: { tail(n: number, keep?: (e: LiveEvent) => boolean): LiveEvent[]; readonly total: number };
  answer(id: string, answer: HumanAnswer): boolean;
  /** undefined: asked, not answered yet. */
  stats(sessionId: string): SessionStats | null | undefined;
  /** Select (or with null clear) the current session's intent, as the human. */
  selectIntent(intentId: string | null): Promise<{ ok: boolean; message: string }>;
}
