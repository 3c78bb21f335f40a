// The intents of the project a session works in, for the intents view:
// `.orchestration/active_intents.yaml` under the session's governed project
// (for an agent in its worktree, the base checkout's: docs/fleet.md),
// re-parsed only when the file changes: when a file watcher says so
// (`watch`), or else when its mtime moved.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionState } from '../core/session-state.js';
import type { Intent } from '../core/governance/intents.js';
import { parseActiveIntents } from '../core/governance/intents-parser.js';
import { peekGovernance } from '../core/governance/state.js';

export interface ProjectIntents {
  file: string;
  intents: Intent[];
  /** Why the file does not parse (first problems), when it does not. */
  problems: string[];
}

export function selectedIntentId(state: SessionState | null): string | null {
  if (!state?.governance) return null;
  try {
    return peekGovernance(state).intent_id;
  } catch {
    return null;
  }
}

export class ProjectIntentsReader {
  private cache: { file: string; mtimeMs: number; value: ProjectIntents } | null = null;
  private readonly watched = new Set<string>();
  private readonly dirty = new Set<string>();

  /** `watch(file)` starts watching a file; the watcher calls changed(file). Without it, every read stats. */
  constructor(private readonly watch?: (file: string) => void) {}

  /** The watcher saw the file change: the next read re-parses it. */
  changed(file: string): void {
    this.dirty.add(file);
  }

  read(state: SessionState | null): ProjectIntents | null {
    let root: string | null = null;
    try {
      // An agent in its worktree: the base checkout's file, the one its hooks enforce (intents_root, set by the hook).
      const gov = state?.governance ? peekGovernance(state) : null;
      root = gov ? (gov.intents_root ?? gov.project_root) : null;
    } catch {
      root = null;
    }
    if (!root) return null;
    const file = join(root, '.orchestration', 'active_intents.yaml');
    // Watched and unchanged since: no syscall at all.
    if (this.cache?.file === file && this.watched.has(file) && !this.dirty.has(file)) return this.cache.value;
    this.dirty.delete(file);
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      if (this.cache?.file === file) this.cache = null;
      return null;
    }
    if (this.cache?.file === file && this.cache.mtimeMs === mtimeMs) return this.cache.value;
    let value: ProjectIntents;
    try {
      const parsed = parseActiveIntents(readFileSync(file, 'utf8'));
      value = parsed.ok
        ? { file, intents: parsed.intents, problems: [] }
        : { file, intents: [], problems: parsed.problems.slice(0, 3).map((p) => `${p.line}:${p.column}: ${p.reason}`) };
    } catch (err) {
      value = { file, intents: [], problems: [(err as Error).message] };
    }
    this.cache = { file, mtimeMs, value };
    if (this.watch && !this.watched.has(file)) {
      this.watched.add(file);
      this.watch(file);
    }
    return value;
  }
}
