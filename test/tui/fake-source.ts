// A supervisor stand-in for component tests: a real ring of events, pending
// approvals set by the test, answers recorded.
import { newSession, type SessionState } from '../../src/core/session-state.js';
import type { DecidedApproval, HumanAnswer, PendingApproval } from '../../src/supervisor/approval-broker.js';
import type { LiveEvent } from '../../src/supervisor/live-event.js';
import { RingBuffer } from '../../src/supervisor/ring-buffer.js';
import type { ProjectIntents } from '../../src/supervisor/project-intents.js';
import type { SessionStats } from '../../src/supervisor/session-stats.js';
import type { SupervisorSnapshot } from '../../src/supervisor/view.js';
import type { SupervisorSource } from '../../src/tui/source.js';

export class FakeSource implements SupervisorSource {
  events = new RingBuffer<LiveEvent>(200);
  pending: PendingApproval[] = [];
  answers: Array<[string, HumanAnswer]> = [];
  decided: DecidedApproval[] = [];
  state: SessionState | null = newSession('s1', new Date('2026-01-01T00:00:00Z'));
  statsValue: SessionStats | null = null;
  intents: ProjectIntents | null = null;
  private listeners = new Set<() => void>();
  private seq = 0;

  subscribe(fn: () => void) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  changed() {
    this.listeners.forEach((l) => l());
  }
  snapshot(): SupervisorSnapshot {
    return {
      sessionId: 's1',
      sessions: ['s1'],
      state: this.state,
      intents: this.intents,
      pending: [...this.pending],
      decided: [...this.decided],
      config: { path: '/home/u/.roz/config.toml', problems: [] },
      lastEvent: this.events.last() ?? null,
      totalEvents: this.events.total,
      refused: 0,
    };
  }
  answer(id: string, a: HumanAnswer) {
    this.answers.push([id, a]);
    this.pending = this.pending.filter((p) => p.id !== id);
    this.changed();
    return true;
  }
  stats() {
    return this.statsValue;
  }
  selections: Array<string | null> = [];
  async selectIntent(id: string | null) {
    this.selections.push(id);
    if (this.state) this.state.governance = { ...(this.state.governance ?? {}), intent_id: id, selected_via: 'human' };
    this.changed();
    return { ok: true, message: id ? `selected ${id}` : 'cleared' };
  }
  push(e: Partial<LiveEvent> & { event: string }) {
    this.events.push({
      seq: ++this.seq,
      at: Date.UTC(2026, 0, 1, 12, 0, 0, this.seq % 1000),
      session_id: 's1',
      summary: '',
      verdict: { kind: 'none' },
      input: {},
      ...e,
    });
  }
  ask(p: Partial<PendingApproval> = {}) {
    this.pending.push({
      id: `a${this.pending.length + 1}`,
      agent_name: 'main',
      session_id: 's1',
      event: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build' },
      code: 'DESTRUCTIVE_BLOCKED',
      reason: 'rm -rf deletes files',
      human: 'deletes the tree build/',
      received_at: Date.now(),
      deadline_at: Date.now() + 20_000,
      ...p,
    });
    this.changed();
  }
}

/** Poll a frame until `cond` holds: Ink renders asynchronously. */
export async function frameUntil(lastFrame: () => string | undefined, cond: (f: string) => boolean, what: string, timeoutMs = 3_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const f = lastFrame() ?? '';
    if (cond(f)) return f;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}\n--- frame:\n${f}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
