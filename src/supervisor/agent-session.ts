// One agent's view, as the screen shows it: the sessions its hook events
// named (the last is the current one: a /clear starts a new one), that
// session's state from the store and the intents of the project it works in.
// The supervisor holds one today; a fleet holds one per agent.
import type { SessionState } from '../core/session-state.js';
import { peekGovernance } from '../core/governance/state.js';
import type { SessionStore } from '../store/session-store.js';
import { ProjectIntentsReader, type ProjectIntents } from './project-intents.js';

/** The state is re-read from the store at most this often, however often the screen asks. */
const STATE_REFRESH_MS = 250;

export interface AgentView {
  sessionId: string | null;
  sessions: string[];
  state: SessionState | null;
  /** The governed project's intents, when intent governance is on. */
  intents: ProjectIntents | null;
}

export class AgentSession {
  private readonly sessions: string[] = [];
  private state: SessionState | null = null;
  private intents: ProjectIntents | null = null;
  private readonly intentsReader: ProjectIntentsReader;
  private stateReadAt = 0;

  constructor(
    private readonly store: SessionStore,
    /** Start watching a file (the intents file of the session's project); its changes come back as intentsChanged. */
    watch: (file: string) => void,
    /** Tell the screen something changed (after a selection). */
    private readonly changed: () => void,
  ) {
    this.intentsReader = new ProjectIntentsReader(watch);
  }

  /** A hook event named this session: from now on it is the current one. */
  saw(sessionId: string): void {
    if (this.sessions.at(-1) === sessionId) return;
    const i = this.sessions.indexOf(sessionId);
    if (i >= 0) this.sessions.splice(i, 1);
    this.sessions.push(sessionId);
    this.stateReadAt = 0;
  }

  get sessionId(): string | null {
    return this.sessions.at(-1) ?? null;
  }

  /** Every session this agent has had, oldest first. */
  seenSessions(): string[] {
    return [...this.sessions];
  }

  /** A watched intents file changed: re-parse it and re-read the state at the next view. */
  intentsChanged(file: string): void {
    this.intentsReader.changed(file);
    this.stateReadAt = 0;
  }

  view(): AgentView {
    const sid = this.sessionId;
    if (sid && Date.now() - this.stateReadAt >= STATE_REFRESH_MS) {
      this.stateReadAt = Date.now();
      try {
        this.state = this.store.read(sid);
        this.intents = this.intentsReader.read(this.state);
      } catch {
        /* a state file mid-rename or corrupt: keep the last good one */
      }
    }
    return { sessionId: sid, sessions: this.seenSessions(), state: this.state, intents: this.intents };
  }

  /**
   * The human selects (or, with null, clears) the current session's intent from
   * the intents view. The supervisor is trusted: the selection is written under
   * the session lock and traced with `via: "human"`.
   */
  async selectIntent(intentId: string | null): Promise<{ ok: boolean; message: string }> {
    const sid = this.sessionId;
    const state = sid ? this.store.read(sid) : null;
    const gov = state?.governance ? peekGovernance(state) : null;
    const root = gov?.project_root ?? null;
    if (!sid || !root)
      return { ok: false, message: 'no governed session yet: intents apply once Claude works in a project with .orchestration/active_intents.yaml' };
    const [{ bindSelection, clearSelection }, { loadAllOnDemand }] = await Promise.all([
      import('../engine/governance/select.js'),
      import('../core/on-demand.js'),
    ]);
    await loadAllOnDemand();
    const now = new Date();
    try {
      if (intentId === null) {
        const was = await clearSelection({ store: this.store, sessionId: sid, via: 'human', now });
        return { ok: true, message: was ? `cleared ${was}` : 'no intent was selected' };
      }
      const r = await bindSelection({
        store: this.store,
        storeRoot: this.store.root,
        root,
        intentsFrom: gov?.intents_root ?? null,
        intentId,
        sessionId: sid,
        via: 'human',
        now,
      });
      return r.ok ? { ok: true, message: `selected ${intentId}` } : { ok: false, message: r.reason };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    } finally {
      this.stateReadAt = 0;
      this.changed();
    }
  }
}
