// The facts core/enforce/worktree-sandbox.ts plans from, read from the file
// system without running git (git would read the repository's config, which
// the agent may have written): is the project a linked worktree, which is its
// admin dir, shared dir and branch, what lies in the shared dir, and where
// the other checkouts are. Null when the project is not a linked worktree.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { siblingsOff, type LinkedWorktree } from '../core/enforce/worktree-sandbox.js';
import { repoOf } from './git-repo.js';
import { resolveReal } from './realpath.js';
import { readRegularText } from './regular-file.js';

const MAX_TEXT = 64 * 1024;

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Every file and directory under `dir`, relative to it (refs and reflogs are small trees). */
function filesUnder(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(join(dir, prefix), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    out.push(rel);
    if (e.isDirectory()) out.push(...filesUnder(dir, rel));
  }
  return out;
}

function readText(path: string): string | null {
  try {
    return readRegularText(path, MAX_TEXT).trim();
  } catch {
    return null;
  }
}

export function linkedWorktreeOf(cwd: string): LinkedWorktree | null {
  const repo = repoOf(cwd);
  if (!repo.ok) return null;
  const id = repo.id;
  if (id.dot_git.kind !== 'file' || id.common_dir === id.git_dir) return null;
  const worktree = resolveReal(id.top);
  const gitDir = resolveReal(id.git_dir);
  const commonDir = resolveReal(id.common_dir);
  const head = readText(join(gitDir, 'HEAD'));
  const m = head ? /^ref:\s*(refs\/heads\/\S+)$/.exec(head) : null;
  const worktreeIds = names(join(commonDir, 'worktrees'));
  const others: string[] = [];
  // The main checkout: the common dir's parent when it is a `.git` directory (not bare).
  if (commonDir.endsWith('/.git')) others.push(dirname(commonDir));
  for (const wid of worktreeIds) {
    const g = readText(join(commonDir, 'worktrees', wid, 'gitdir'));
    if (!g) continue;
    const top = dirname(isAbsolute(g) ? g : resolve(commonDir, 'worktrees', wid, g));
    const real = resolveReal(top);
    if (real !== worktree) others.push(real);
  }
  return {
    worktree,
    gitDir,
    commonDir,
    branch: m ? m[1]! : null,
    commonEntries: names(commonDir),
    looseRefs: filesUnder(commonDir, 'refs'),
    reflogs: filesUnder(join(commonDir, 'logs')),
    worktreeIds,
    otherWorktrees: [...new Set(others)].filter((o) => relative(o, worktree) !== ''),
  };
}

/**
 * An empty `packed-refs` in the common dir when there is none, so the sandbox
 * can deny an existing file: a missing one stays creatable from the agent's
 * Bash on both clients (observed), and git reads it under every ref without a
 * loose file. Empty is what git itself takes as "nothing packed". Returns
 * whether it was missing (the facts must then be read again).
 */
export function ensurePackedRefs(w: LinkedWorktree): boolean {
  if (w.commonEntries.includes('packed-refs')) return false;
  try {
    writeFileSync(join(w.commonDir, 'packed-refs'), '', { flag: 'wx', mode: 0o644 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return true; // made by another launch since it was read: read again
  }
}

/** Ref names in packed-refs (`<sha> <name>` lines; `#` header and `^` peeled lines skipped). */
function packedRefs(commonDir: string): Map<string, string> {
  const out = new Map<string, string>();
  let text: string;
  try {
    text = readRegularText(join(commonDir, 'packed-refs'), 64 * 1024 * 1024);
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{40}(?:[0-9a-f]{24})?) (refs\/\S+)$/.exec(line);
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

/**
 * A ref that exists only in packed-refs has no file the sandbox can deny,
 * and a loose file of its name (which git prefers) is creatable wherever
 * the directory is writable. Where that directory lies on the way to the
 * agent's own ref (`refs/heads/main` beside `refs/heads/roz/`), write the
 * loose file with the packed value (the same ref to git); elsewhere make the
 * directory exist, so the sibling rule denies it whole. Returns whether
 * anything was written (the facts must then be read again).
 */
export function loosenPackedRefs(w: LinkedWorktree): boolean {
  const loose = new Set(w.looseRefs);
  let changed = false;
  for (const [name, sha] of packedRefs(w.commonDir)) {
    if (loose.has(name) || name === w.branch) continue;
    const [denied] = siblingsOff([name], w.branch);
    if (!denied) continue;
    const path = join(w.commonDir, denied);
    if (denied === name) {
      mkdirSync(dirname(path), { recursive: true });
      try {
        writeFileSync(path, `${sha}\n`, { flag: 'wx' });
        changed = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    } else if (!existsSync(path)) {
      mkdirSync(path, { recursive: true });
      changed = true;
    }
  }
  return changed;
}
