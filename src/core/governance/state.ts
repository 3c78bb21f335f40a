// The typed shape of `SessionState.governance`, and a reader that repairs
// whatever an older or hand-edited document left there.
import type { SessionState } from '../session-state.js';
import { auditOf, type AuditState } from './audit-state.js';

/** How the session came to work on its intent; `human`: at the `roz run` keyboard (the supervisor, trusted). */
export type SelectionSource = 'mcp' | 'cli' | 'hook' | 'adopted' | 'human';

export interface FileFingerprint {
  sha256: string;
  at: string;
  /** Why roz knows this content: the agent read it, or wrote it. */
  via: 'read' | 'write';
}

export interface GovernanceState {
  intent_id: string | null;
  selected_at: string | null;
  selected_via: SelectionSource | null;
  /** Content hash of each file (real absolute path) as the agent last saw it. */
  files: Record<string, FileFingerprint>;
  /** Successful mutations recorded in the ledger. */
  mutations: number;
  /** Model id of the session when the client told us (SessionStart `model`). */
  model_id: string | null;
  /**
   * The governed project this session works in, once seen: a later hook whose
   * cwd drifted outside it (`cd /tmp`) is still governed by it.
   */
  project_root: string | null;
  /** Where project_root's intents are read from when not from itself: an agent's base checkout (issue 25). */
  intents_root: string | null;
  /** The after-the-fact scope audit's base and bookkeeping (core/governance/audit.ts). */
  audit: AuditState | null;
  /** This session appended to the ledger since intent_map.md was last brought up to it (done at Stop). */
  map_stale: boolean;
}

export function emptyGovernance(): GovernanceState {
  return {
    intent_id: null,
    selected_at: null,
    selected_via: null,
    files: {},
    mutations: 0,
    model_id: null,
    project_root: null,
    intents_root: null,
    audit: null,
    map_stale: false,
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** The session's governance state, created or repaired in place (the engine persists it). */
export function governanceOf(state: SessionState): GovernanceState {
  const raw = (state.governance ?? {}) as Record<string, unknown>;
  const files: Record<string, FileFingerprint> = {};
  if (raw.files && typeof raw.files === 'object' && !Array.isArray(raw.files)) {
    for (const [path, fp] of Object.entries(raw.files as Record<string, unknown>)) {
      const f = fp as Partial<FileFingerprint> | null;
      if (f && typeof f.sha256 === 'string' && typeof f.at === 'string') {
        files[path] = { sha256: f.sha256, at: f.at, via: f.via === 'write' ? 'write' : 'read' };
      }
    }
  }
  const via = raw.selected_via;
  const gov: GovernanceState = {
    intent_id: str(raw.intent_id),
    selected_at: str(raw.selected_at),
    selected_via: via === 'mcp' || via === 'cli' || via === 'hook' || via === 'adopted' || via === 'human' ? via : null,
    files,
    mutations: typeof raw.mutations === 'number' && raw.mutations >= 0 ? raw.mutations : 0,
    model_id: str(raw.model_id),
    project_root: str(raw.project_root),
    intents_root: str(raw.intents_root),
    audit: auditOf(raw.audit),
    map_stale: raw.map_stale === true,
  };
  state.governance = gov as unknown as Record<string, unknown>;
  return gov;
}

/** Read-only view for the CLI: never writes into the state it is given. */
export function peekGovernance(state: SessionState): GovernanceState {
  return governanceOf(structuredClone(state));
}

export function selectIntent(gov: GovernanceState, intentId: string, via: SelectionSource, now: Date): void {
  gov.intent_id = intentId;
  gov.selected_at = now.toISOString();
  gov.selected_via = via;
}

/** No intent selected any more: mutations need a new selection. */
export function clearIntent(gov: GovernanceState, via: SelectionSource, now: Date): void {
  gov.intent_id = null;
  gov.selected_at = now.toISOString();
  gov.selected_via = via;
}

// Bounded so a long session that reads thousands of files keeps a small document.
const MAX_FILES = 2000;

export function rememberFile(gov: GovernanceState, path: string, sha256: string, via: FileFingerprint['via'], now: Date): void {
  delete gov.files[path];
  gov.files[path] = { sha256, at: now.toISOString(), via };
  const keys = Object.keys(gov.files);
  for (let i = 0; i < keys.length - MAX_FILES; i++) delete gov.files[keys[i]!];
}
