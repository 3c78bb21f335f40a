// The intents of the project a session works in, for the intents view:
// `.orchestration/active_intents.yaml` under the session's governed project,
// re-parsed only when the file changes.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionState } from '../core/review/state.js';
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

  read(state: SessionState | null): ProjectIntents | null {
    let root: string | null = null;
    try {
      root = state?.governance ? peekGovernance(state).project_root : null;
    } catch {
      root = null;
    }
    if (!root) return null;
    const file = join(root, '.orchestration', 'active_intents.yaml');
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
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
    return value;
  }
}
