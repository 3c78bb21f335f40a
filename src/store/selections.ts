// Intent selections made outside a hook (the MCP server, the CLI) that do not
// know their session: kept per project until the next hook of a session in
// that project adopts it. Claiming is an atomic rename, so one session wins.
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from './atomic-write.js';
import { nameHash } from '../core/name-hash.js';
import { readRegularText } from './regular-file.js';

export interface PendingSelection {
  intent_id: string;
  project_root: string;
  at: string;
  via: 'mcp' | 'cli';
}

/** A selection older than this is not adopted: it was meant for a session long gone. */
export const PENDING_TTL_MS = 15 * 60_000;

const dir = (storeRoot: string): string => join(storeRoot, 'governance', 'pending');
// Every governed PreToolUse looks here; the file holds its project root, checked on claim.
const fileFor = (storeRoot: string, projectRoot: string): string => join(dir(storeRoot), `${nameHash(projectRoot)}.json`);

export function putPendingSelection(storeRoot: string, sel: PendingSelection): string {
  mkdirSync(dir(storeRoot), { recursive: true, mode: 0o700 });
  const file = fileFor(storeRoot, sel.project_root);
  writeFileAtomicSync(storeRoot, file, `${JSON.stringify(sel)}\n`, { mode: 0o600 });
  return file;
}

/** Take the project's pending selection for `sessionId`, if there is a fresh one. */
export function takePendingSelection(storeRoot: string, projectRoot: string, sessionId: string, now: Date): PendingSelection | null {
  const file = fileFor(storeRoot, projectRoot);
  const claimed = `${file}.${sessionId}.${process.pid}.claimed`;
  try {
    renameSync(file, claimed);
  } catch {
    return null;
  }
  try {
    const sel = JSON.parse(readRegularText(claimed, 64 * 1024)) as PendingSelection;
    if (typeof sel.intent_id !== 'string' || sel.project_root !== projectRoot) return null;
    if (now.getTime() - Date.parse(sel.at) > PENDING_TTL_MS) return null;
    return sel;
  } catch {
    return null;
  } finally {
    rmSync(claimed, { force: true });
  }
}
