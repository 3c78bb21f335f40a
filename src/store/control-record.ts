// The records that let the human's `roz queue`/`approve`/`block`/`agent stop`
// find the supervisor running for a project: one file per supervisor,
// `<store>/control/<hash of the repository's common git dir>-<pid>.json`,
// naming its pid, its control socket and its secret. Keyed like the fleet
// registry (store/agent-worktrees.ts): every worktree of one repository finds
// the same supervisors; outside git, the directory's real path is the key.
//
// The directory is 0700 and each record 0600; the sandbox roz launches
// agents with denies reading the directory (core/enforce/settings.ts), so
// an enforced agent never learns a secret. A record whose pid is gone is
// stale: it is removed when found.
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, realpathSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { controlDirOf } from '../core/fleet/control-dir.js';
import type { Enforcement } from '../core/enforce/mode.js';
import { writeFileAtomicSync } from './atomic-write.js';
import { repoOf } from './git-repo.js';
import { readOptionalText } from './regular-file.js';

export interface ControlRecord {
  version: 1;
  pid: number;
  /** The control socket (a Unix socket in a 0700 directory of its own). */
  socket: string;
  /** What every request must carry (compared in constant time). */
  secret: string;
  /** The repository key the record is filed under. */
  repo: string;
  /** Where the supervisor's first agent runs. */
  cwd: string;
  started_at: string;
  /** Whether the supervisor's launch confines its agents (approve/block are refused when advisory). */
  enforcement: Enforcement;
}

const MAX_RECORD_BYTES = 64 * 1024;

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

/** The key a project's supervisors are filed under: the repository's common git dir, else the directory itself. */
export function controlKey(cwd: string): string {
  const found = repoOf(cwd);
  return found.ok ? realOr(found.id.common_dir) : realOr(cwd);
}

const prefixOf = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 24);

/** The control directory, made private; refused when it is not a plain directory (a link planted there). */
export function ensureControlDir(store: string): string {
  const dir = controlDirOf(store);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) throw new Error(`${dir} is not a directory roz made (a link?): not using it`);
  if ((st.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  return dir;
}

/** File this supervisor's record; returns its path (remove it with removeControlRecord). */
export function writeControlRecord(store: string, rec: ControlRecord): string {
  const dir = ensureControlDir(store);
  const file = join(dir, `${prefixOf(rec.repo)}-${rec.pid}.json`);
  writeFileAtomicSync(store, file, `${JSON.stringify(rec)}\n`, { mode: 0o600, dirMode: 0o700 });
  return file;
}

export function removeControlRecord(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* already gone */
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone. EPERM: another user's process holds the pid now, so not our supervisor either.
    return false;
  }
}

function parseRecord(text: string): ControlRecord | null {
  try {
    const v = JSON.parse(text) as Partial<ControlRecord>;
    if (
      v &&
      v.version === 1 &&
      Number.isInteger(v.pid) &&
      typeof v.socket === 'string' &&
      typeof v.secret === 'string' &&
      typeof v.repo === 'string' &&
      typeof v.cwd === 'string' &&
      typeof v.started_at === 'string' &&
      v.enforcement &&
      (v.enforcement.mode === 'enforced' || v.enforcement.mode === 'advisory')
    )
      return v as ControlRecord;
  } catch {
    /* not a record */
  }
  return null;
}

export interface FoundRecord {
  file: string;
  record: ControlRecord;
}

/**
 * The live supervisors filed under `key`, oldest first. Records of dead pids
 * (and unreadable ones) are removed: a supervisor killed with SIGKILL leaves
 * its record behind. `unreadable` says why the directory could not be read
 * (an enforced agent's Bash gets EACCES/ENOENT here: that is the point).
 */
export function findControlRecords(store: string, key: string): { found: FoundRecord[]; stale: number; unreadable: string | null } {
  const dir = controlDirOf(store);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { found: [], stale: 0, unreadable: code === 'ENOENT' ? null : `${dir}: ${code ?? (err as Error).message}` };
  }
  const prefix = `${prefixOf(key)}-`;
  const found: FoundRecord[] = [];
  let stale = 0;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.json')) continue;
    const file = join(dir, name);
    let text: string | null;
    try {
      text = readOptionalText(file, MAX_RECORD_BYTES);
    } catch {
      text = null;
    }
    const record = text === null ? null : parseRecord(text);
    if (!record || record.repo !== key || !alive(record.pid)) {
      stale++;
      removeControlRecord(file);
      continue;
    }
    found.push({ file, record });
  }
  found.sort((a, b) => a.record.started_at.localeCompare(b.record.started_at));
  return { found, stale, unreadable: null };
}
