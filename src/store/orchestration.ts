// The project's `.orchestration/` folder on disk: finding the governed
// project, loading intents and .intentignore, and writing lessons and the map.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomicSync } from './atomic-write.js';
import type { IntentsParse } from '../core/governance/intents.js';
import { parseIntentsCached } from './intents-cache.js';
import { newLessonsFile } from '../core/governance/lessons.js';
import { ignoreMatcher } from '../core/governance/scope.js';
import type { ProjectView } from '../core/governance/policy.js';

export { findProjectRoot, ORCHESTRATION, orchestrationPaths } from './project-root.js';
import { ORCHESTRATION, orchestrationPaths } from './project-root.js';
import { appendRegularFile, MiB, readOptionalText } from './regular-file.js';

function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** Intents, .intentignore and lessons: regular files only (a FIFO there must not hang a hook), bounded. */
const readOptional = (file: string): string | null => readOptionalText(file, 4 * MiB);

export interface LoadOptions {
  /** Where parses are cached across processes (intentsCacheDir of the store); none: parse in memory only. */
  cacheDir?: string;
}

/** The project's intents. Needs the intents parser loaded on a cache miss (throws NotLoaded otherwise). */
export function loadIntents(root: string, opts: LoadOptions = {}): IntentsParse {
  const text = readOptional(orchestrationPaths(root).intents);
  if (text === null) return { ok: false, problems: [{ line: 1, column: 1, reason: 'the file disappeared' }] };
  return parseIntentsCached(text, opts.cacheDir ?? null);
}

/**
 * The project at `root`. `intentsFrom`: another checkout whose intents and
 * `.intentignore` govern it (an agent's worktree is governed by the base
 * checkout's: project-root.ts AgentRoots); paths stay relative to `root`, and
 * roz's own files (the ledger, the map, lessons) stay in `root`.
 */
export function loadProject(root: string, opts: LoadOptions & { home?: string; intentsFrom?: string } = {}): ProjectView {
  const realRoot = realOr(root);
  const from = opts.intentsFrom && opts.intentsFrom !== root ? opts.intentsFrom : null;
  const paths = orchestrationPaths(from ?? root);
  return {
    root: realRoot,
    orchestration: join(realRoot, ORCHESTRATION),
    intentsFile: from ? paths.intents : `${ORCHESTRATION}/active_intents.yaml`,
    ...(from ? { intentsOrchestration: join(realOr(from), ORCHESTRATION) } : {}),
    intents: loadIntents(from ?? root, opts),
    ignored: ignoreMatcher(readOptional(paths.ignore), opts.home ?? homedir()),
  };
}

export function readLessonsFile(root: string): string {
  return readOptional(orchestrationPaths(root).lessons) ?? '';
}

/** Append one lesson line; a single O_APPEND write so parallel sessions never tear lines. Never through a link (no-follow.ts). */
export function appendLesson(root: string, line: string): void {
  const paths = orchestrationPaths(root);
  try {
    // O_EXCL: only the first of two racing hooks writes the header.
    appendRegularFile(root, paths.lessons, newLessonsFile(), { exclusive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  appendRegularFile(root, paths.lessons, `${line.replace(/\n/g, ' ')}\n`);
}

/** Atomic, not fsynced: the map is derived from the ledger and rewritten at the end of every turn that changed the ledger. */
export function writeIntentMap(root: string, text: string): void {
  writeFileAtomicSync(root, orchestrationPaths(root).map, text.endsWith('\n') ? text : `${text}\n`, { durable: false });
}
