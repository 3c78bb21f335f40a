// Where roz keeps things on disk, in one place.
import { join } from 'node:path';

export const sessionsDir = (root: string): string => join(root, 'sessions');
export const sessionDir = (root: string, id: string): string => join(root, 'sessions', id);
export const statePath = (root: string, id: string): string => join(root, 'sessions', id, 'state.json');
export const tracePath = (root: string, id: string): string => join(root, 'sessions', id, 'trace.jsonl');
/** roz's own bare repository of review snapshots (store/tree-snapshot.ts). */
export const snapshotsGitDir = (root: string): string => join(root, 'snapshots.git');
export const quarantineDir = (root: string): string => join(root, 'quarantine');
