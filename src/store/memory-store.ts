// An in-memory SessionStore for tests of the engine without a file system.
import { newSession, type SessionState } from '../core/session-state.js';
import { statsSummary, type StatsSummary } from '../core/stats.js';
import type { SessionStore, SessionSummary, TraceRecord, UpdateInfo } from './session-store.js';

export class MemorySessionStore implements SessionStore {
  readonly root = ':memory:';
  private readonly states = new Map<string, SessionState>();
  private readonly traces = new Map<string, TraceRecord[]>();
  private queue: Promise<unknown> = Promise.resolve();

  update<T>(sessionId: string, now: Date, fn: (state: SessionState, info: UpdateInfo) => { value: T; trace: TraceRecord[]; persist?: boolean }): Promise<T> {
    // Serialise like the file lock does.
    const run = this.queue.then(() => {
      const state = structuredClone(this.states.get(sessionId) ?? newSession(sessionId, now));
      const out = fn(state, {});
      if (out.persist !== false) {
        state.updated_at = now.toISOString();
        this.states.set(sessionId, state);
      }
      this.appendTrace(sessionId, out.trace);
      return out.value;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  read(sessionId: string): SessionState | null {
    const s = this.states.get(sessionId);
    return s ? structuredClone(s) : null;
  }

  appendTrace(sessionId: string, records: TraceRecord[]): void {
    const list = this.traces.get(sessionId) ?? [];
    list.push(...records.map((r) => structuredClone(r)));
    this.traces.set(sessionId, list);
  }

  readTrace(sessionId: string): TraceRecord[] {
    return structuredClone(this.traces.get(sessionId) ?? []);
  }

  ids(): string[] {
    return [...this.states.keys()];
  }

  list(): SessionSummary[] {
    return [...this.states.values()]
      .map((s) => ({ session_id: s.session_id, created_at: s.created_at, updated_at: s.updated_at }))
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  summaries(): StatsSummary[] {
    return [...this.states.values()].map(statsSummary);
  }

  remove(sessionId: string): void {
    this.states.delete(sessionId);
    this.traces.delete(sessionId);
  }
}
