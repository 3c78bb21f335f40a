// The project's files now, as a git tree roz built itself, for binding a
// review to what was reviewed. Taken only where a review needs it (a trigger,
// a reviewer's `roz context` and `roz decide`, a stop or gated call after an
// approval, the scope audit), never on ordinary tool calls.
//
// It takes no orders from the repository (the agent can write all of it):
//  - which files: HEAD's tree ∪ the index's entries (names only, so no
//    assume-unchanged or skip-worktree flag hides a file) ∪ a walk of the
//    work tree that honours only the `.gitignore` files in the tree — never
//    `.git/info/exclude` or `core.excludesFile`. A nested repository is
//    content: the walk goes into it, and into its `.git` but for git's
//    bookkeeping (objects, index, refs, logs): its config and hooks are files
//    the reviewer sees. Only the project's own `.git` is left out.
//  - what they hold: every file is read and hashed here, and the blob written
//    into roz's own bare repository in roz's store (`<store>/snapshots.git`),
//    never the project's `.git/objects`, where a planted loose object under
//    the right hash would stand in for the real content.
//  - nothing runs: the only git calls are store/git.ts's hardened ones, on the
//    project's repo to list names (ls-tree, ls-files), on roz's repo to diff.
// Diffs for the reviewer come from roz's repository: every changed file as text.
import { sha1 as jsSha1 } from '@noble/hashes/legacy';
import { bytesToHex } from '@noble/hashes/utils';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  renameSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Ignore } from 'ignore';
import { boundedIgnore } from './bounded-ignore.js';
import type { TreeSnapshot } from '../core/review/state.js';
import { rozFilesOffDiskText, type RozFilesOffDisk } from '../core/review/roz-files-text.js';
import { gitOut, runGit, type GitRepo } from './git.js';
import { readHeadFromFiles } from './git-head.js';
import { identityChange, repoOf, type GitIdentity } from './git-repo.js';
import { snapshotsGitDir } from './paths.js';
import { readRegularText } from './regular-file.js';
import { beginSnapshot } from './snapshot-guard.js';

type Crypto = typeof import('node:crypto');
type Zlib = typeof import('node:zlib');
// node:crypto costs a hook ~5 ms to load (core/sha256.ts): small objects are hashed in JavaScript.
const crypto = (): Crypto => process.getBuiltinModule('node:crypto') as Crypto;
const NATIVE_FROM = 256 * 1024;
const sha1hex = (raw: Buffer): string => (raw.length >= NATIVE_FROM ? crypto().createHash('sha1').update(raw).digest('hex') : bytesToHex(jsSha1(raw)));
const zlib = (): Zlib => process.getBuiltinModule('node:zlib') as Zlib;

/** A file of the snapshot: git's mode and roz's blob id. */
export interface SnapshotFile {
  mode: '100644' | '100755' | '120000';
  id: string;
}

export type SnapshotResult =
  | { ok: true; snapshot: TreeSnapshot; files: Map<string, SnapshotFile>; top: string }
  /** `none`: no git repository at or above the project (nothing to bind a review to). */
  | { ok: false; error: string; none?: true; identity?: true };

export interface SnapshotOptions {
  now?: Date;
  /** The `.git` the session started with: another one is refused. */
  expect?: GitIdentity | null;
  /** false: hash only (a judgement that needs ids, not objects). */
  write?: boolean;
}

/** Files roz snapshots at most: beyond, the snapshot fails (and says so) rather than run unbounded. */
const MAX_FILES = 200_000;
/** Bigger files are stood in for by a text naming their size and sha256: the tree still changes with them. */
const BIG_FILE = 32 * 1024 * 1024;
/** A cached hash is trusted only for a file whose ctime is this much older than the read (git's "racy" files). */
const RACY_NS = 2_000_000_000n;

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** roz's own bare repository for snapshot objects. */
export function snapshotRepo(storeDir: string): GitRepo {
  return { gitDir: snapshotsGitDir(storeDir), workTree: null };
}

/** Make roz's snapshot repository when it is not there yet (a diff of the branch alone may come before any snapshot). */
export function ensureRepo(gitDir: string): void {
  if (existsSync(join(gitDir, 'HEAD'))) return;
  mkdirSync(join(gitDir, 'objects'), { recursive: true, mode: 0o700 });
  mkdirSync(join(gitDir, 'refs', 'heads'), { recursive: true, mode: 0o700 });
  writeFileSync(join(gitDir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
  writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
}

function objectId(type: string, body: Buffer): { id: string; raw: Buffer } {
  const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  return { id: sha1hex(raw), raw };
}

export class ObjectWriter {
  private madeDirs = new Set<string>();
  constructor(private readonly gitDir: string | null) {}
  put(type: string, body: Buffer): string {
    const { id, raw } = objectId(type, body);
    this.write(id, raw);
    return id;
  }
  write(id: string, raw: Buffer | (() => Buffer)): void {
    if (!this.gitDir) return;
    const dir = join(this.gitDir, 'objects', id.slice(0, 2));
    const file = join(dir, id.slice(2));
    if (existsSync(file)) return;
    if (!this.madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      this.madeDirs.add(dir);
    }
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, zlib().deflateSync(typeof raw === 'function' ? raw() : raw), { mode: 0o444 });
    renameSync(tmp, file);
  }
}

/** The bytes of a regular file, opened without following a link, checked on the open descriptor. */
function readFileBytes(file: string): { body: Buffer; size: number } {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | (constants.O_NOCTTY ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${file} is no longer a regular file`);
    if (st.size > BIG_FILE) {
      const h = crypto().createHash('sha256');
      const chunk = Buffer.allocUnsafe(1024 * 1024);
      let total = 0;
      for (;;) {
        const n = readSync(fd, chunk, 0, chunk.length, null);
        if (n <= 0) break;
        h.update(chunk.subarray(0, n));
        total += n;
      }
      return { body: Buffer.from(`roz: a file of ${total} bytes, too big to snapshot; sha256 ${h.digest('hex')}\n`), size: total };
    }
    const body = Buffer.allocUnsafe(st.size);
    let n = 0;
    while (n < body.length) {
      const r = readSync(fd, body, n, body.length - n, null);
      if (r <= 0) break;
      n += r;
    }
    return { body: body.subarray(0, n), size: n };
  } finally {
    closeSync(fd);
  }
}

type StatKey = string;
const statKey = (st: import('node:fs').BigIntStats): StatKey => `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.mode}`;

/** Hashes of unchanged files from the last snapshot of this work tree (roz's store: the agent cannot write it when enforced). */
class StatCache {
  private readonly old: Record<string, [StatKey, string]>;
  readonly next: Record<string, [StatKey, string]> = {};
  constructor(private readonly file: string | null) {
    let old: Record<string, [StatKey, string]> = {};
    if (file) {
      try {
        old = JSON.parse(readRegularText(file, 256 * 1024 * 1024)) as typeof old;
      } catch {
        old = {};
      }
    }
    this.old = old && typeof old === 'object' ? old : {};
  }
  private hits = 0;
  get(rel: string, key: StatKey): string | null {
    const hit = this.old[rel];
    const id = Array.isArray(hit) && hit[0] === key && typeof hit[1] === 'string' ? hit[1] : null;
    if (id) {
      this.next[rel] = [key, id];
      this.hits++;
    }
    return id;
  }
  set(rel: string, key: StatKey, id: string, st: import('node:fs').BigIntStats, readAt: bigint): void {
    if (readAt - st.ctimeNs > RACY_NS && readAt - st.mtimeNs > RACY_NS) this.next[rel] = [key, id];
  }
  save(): void {
    if (!this.file) return;
    // Every entry a hit and none gone: the file on disk already says this.
    if (this.hits === Object.keys(this.next).length && this.hits === Object.keys(this.old).length) return;
    try {
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(this.next));
      renameSync(tmp, this.file);
    } catch {
      /* a cache: the next snapshot hashes again */
    }
  }
}

interface Rules {
  base: string;
  ig: Ignore;
}

/** Ignored by the `.gitignore` files in the tree (deepest decides, as in git), never by anything in `.git/`. */
function ignoredBy(stack: readonly Rules[], rel: string, dir: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const { base, ig } = stack[i]!;
    const sub = base ? rel.slice(base.length + 1) : rel;
    const r = ig.test(dir ? `${sub}/` : sub);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

function rulesIn(dirAbs: string, base: string): Rules | null {
  const file = join(dirAbs, '.gitignore');
  let text: string;
  try {
    if (!lstatSync(file).isFile()) return null; // git does not follow a symlinked .gitignore either
    text = readRegularText(file, 1024 * 1024);
  } catch {
    return null;
  }
  // Agent-written patterns against agent-made paths, inside the session lock: bounded time (bounded-ignore.ts).
  return { base, ig: boundedIgnore(text, { allowRelativePaths: true }) };
}

/**
 * Inside a nested repository's `.git`, what is only git's bookkeeping (objects,
 * the index, refs, logs, the sample hooks): everything else there — its
 * config, real hooks, info/attributes and exclude, any other file — is content
 * the reviewer sees, since it can name programs and change what git shows.
 */
const GIT_BOOKKEEPING =
  /^(objects\/.*|index|logs\/.*|refs\/.*|packed-refs|HEAD|ORIG_HEAD|FETCH_HEAD|MERGE_HEAD|COMMIT_EDITMSG|description|hooks\/[^/]+\.sample)$/;

/** Every file of a nested `.git` directory but its bookkeeping (no .gitignore applies there). */
function walkNestedGit(dirAbs: string, rel: string, inner: string, visit: (rel: string) => void): void {
  for (const e of readdirSync(dirAbs, { withFileTypes: true })) {
    const childInner = inner ? `${inner}/${e.name}` : e.name;
    if (childInner === 'objects' || childInner === 'logs' || childInner === 'refs') continue;
    if (e.isDirectory()) walkNestedGit(join(dirAbs, e.name), `${rel}/${e.name}`, childInner, visit);
    else if ((e.isFile() || e.isSymbolicLink()) && !GIT_BOOKKEEPING.test(childInner)) visit(`${rel}/${e.name}`);
  }
}

/**
 * Every file of the work tree `top` not ignored by its `.gitignore` files.
 * The project's own `.git` is skipped; a nested one (a directory, or a
 * gitfile) is content, but for its bookkeeping.
 */
function walk(top: string, visit: (rel: string) => void): void {
  const go = (dirAbs: string, rel: string, stack: Rules[]): void => {
    const rules = rulesIn(dirAbs, rel);
    const here = rules ? [...stack, rules] : stack;
    const entries = readdirSync(dirAbs, { withFileTypes: true });
    for (const e of entries) {
      if (e.name === '.git') {
        if (!rel) continue;
        const childRel = `${rel}/.git`;
        if (e.isDirectory()) walkNestedGit(join(dirAbs, e.name), childRel, '', visit);
        else if (e.isFile() || e.isSymbolicLink()) visit(childRel);
        continue;
      }
      if (e.name.includes('\uFFFD')) throw new Error(`a file name that is not UTF-8 in ${dirAbs}: roz cannot snapshot it`);
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!ignoredBy(here, childRel, true)) go(join(dirAbs, e.name), childRel, here);
      } else if (e.isFile() || e.isSymbolicLink()) {
        if (!ignoredBy(here, childRel, false)) visit(childRel);
      }
    }
  };
  go(top, '', []);
}

/** Whether every directory on the way to `rel` is a real directory (no link leads out of the tree). */
function plainParents(top: string, rel: string, seen: Map<string, boolean>): boolean {
  const parts = rel.split('/');
  let dir = '';
  for (let i = 0; i < parts.length - 1; i++) {
    dir = dir ? `${dir}/${parts[i]}` : parts[i]!;
    let ok = seen.get(dir);
    if (ok === undefined) {
      try {
        ok = lstatSync(join(top, dir)).isDirectory();
      } catch {
        ok = false;
      }
      seen.set(dir, ok);
    }
    if (!ok) return false;
  }
  return true;
}

const splitZ = (out: string): string[] => out.split('\0').filter(Boolean);

/** Names only: HEAD's tree and the index's entries, read as data (flags ignored). */
function namesFromGit(repo: GitRepo): { head: string | null; names: string[] } | { error: string } {
  // HEAD from its files where they are plain (one git process fewer), else from git.
  const fast = repo.workTree ? readHeadFromFiles(repo.workTree) : undefined;
  const headOut = fast === undefined ? runGit(repo, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']) : null;
  const head = fast !== undefined ? fast : headOut?.ok ? headOut.stdout.trim() || null : null;
  const names: string[] = [];
  if (head) {
    const r = runGit(repo, ['ls-tree', '-r', '-z', '--full-tree', '--name-only', head]);
    if (!r.ok) return { error: `git cannot list HEAD's files (${r.error})` };
    names.push(...splitZ(r.stdout));
  }
  const idx = runGit(repo, ['ls-files', '-z', '--cached', '--full-name']);
  if (!idx.ok) return { error: `git cannot read the index (${idx.error}); repair it (e.g. \`git reset\`) so roz can see every file` };
  names.push(...splitZ(idx.stdout));
  return { head, names };
}

interface TreeNode {
  files: Map<string, SnapshotFile>;
  dirs: Map<string, TreeNode>;
}

function writeTree(node: TreeNode, out: ObjectWriter): string {
  const entries: Array<{ sortKey: Buffer; bytes: Buffer }> = [];
  for (const [name, f] of node.files) {
    entries.push({ sortKey: Buffer.from(name), bytes: Buffer.concat([Buffer.from(`${f.mode} ${name}\0`), Buffer.from(f.id, 'hex')]) });
  }
  for (const [name, child] of node.dirs) {
    const id = writeTree(child, out);
    if (id === EMPTY_TREE) continue; // git keeps no empty directories
    entries.push({ sortKey: Buffer.from(`${name}/`), bytes: Buffer.concat([Buffer.from(`40000 ${name}\0`), Buffer.from(id, 'hex')]) });
  }
  entries.sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  return out.put('tree', Buffer.concat(entries.map((e) => e.bytes)));
}

/**
 * The project's files now, hashed by roz and written into roz's repository.
 * `projectRoot` is the project (CLAUDE_PROJECT_DIR); the snapshot covers the
 * git work tree holding it. `storeDir` is roz's store. Never throws.
 */
export function takeSnapshot(projectRoot: string, storeDir: string, opts: SnapshotOptions = {}): SnapshotResult {
  let guard: { end(): void } | null = null;
  try {
    const found = repoOf(projectRoot);
    if (!found.ok) {
      if ('none' in found) {
        return opts.expect
          ? { ok: false, error: `${opts.expect.top}/.git is gone`, identity: true }
          : { ok: false, error: `${projectRoot} is not in a git repository`, none: true };
      }
      return { ok: false, error: found.error, identity: true };
    }
    const id = found.id;
    if (opts.expect) {
      const why = identityChange(opts.expect, id);
      if (why) return { ok: false, error: `refused: ${why} since the session started`, identity: true };
    }
    const top = id.top;
    const listed = namesFromGit({ gitDir: id.git_dir, workTree: top });
    if ('error' in listed) return { ok: false, error: listed.error };

    const write = opts.write !== false;
    const repo = snapshotRepo(storeDir);
    if (write) {
      ensureRepo(repo.gitDir);
      // Never while the repository is pruned (snapshot-guard.ts): this snapshot may reuse objects.
      const g = beginSnapshot(repo.gitDir);
      if (!g.ok) return { ok: false, error: g.error };
      guard = g;
    }
    const out = new ObjectWriter(write ? repo.gitDir : null);
    const cacheKey = sha1hex(Buffer.from(top)).slice(0, 16);
    const cache = new StatCache(write ? join(repo.gitDir, `roz-stat-${cacheKey}.json`) : null);

    const files = new Map<string, SnapshotFile>();
    const add = (rel: string): void => {
      if (files.has(rel)) return;
      if (files.size >= MAX_FILES) throw new Error(`more than ${MAX_FILES} files under ${top}: roz does not snapshot a tree that large`);
      const abs = join(top, rel);
      let st: import('node:fs').BigIntStats;
      try {
        st = lstatSync(abs, { bigint: true });
      } catch {
        return; // deleted since listed
      }
      if (st.isSymbolicLink()) {
        files.set(rel, { mode: '120000', id: out.put('blob', Buffer.from(readlinkSync(abs, { encoding: 'buffer' }))) });
        return;
      }
      if (!st.isFile()) return;
      const mode = (st.mode & 0o100n) !== 0n ? '100755' : '100644';
      const key = statKey(st);
      const cached = cache.get(rel, key);
      if (cached && (!write || existsSync(join(repo.gitDir, 'objects', cached.slice(0, 2), cached.slice(2))))) {
        files.set(rel, { mode, id: cached });
        return;
      }
      const readAt = BigInt(Date.now()) * 1_000_000n;
      const { body } = readFileBytes(abs);
      const fileId = out.put('blob', body);
      files.set(rel, { mode, id: fileId });
      cache.set(rel, key, fileId, st, readAt);
    };

    walk(top, add);
    const parentsSeen = new Map<string, boolean>();
    for (const rel of listed.names) {
      if (files.has(rel) || rel.split('/').includes('.git')) continue; // git lists no .git path; a planted index might
      if (plainParents(top, rel, parentsSeen)) add(rel);
    }

    const root: TreeNode = { files: new Map(), dirs: new Map() };
    for (const [rel, f] of files) {
      const parts = rel.split('/');
      let node = root;
      for (const p of parts.slice(0, -1)) {
        let next = node.dirs.get(p);
        if (!next) node.dirs.set(p, (next = { files: new Map(), dirs: new Map() }));
        node = next;
      }
      const name = parts[parts.length - 1]!;
      // A path both a file and a directory (listed from HEAD, then replaced): the directory's files win.
      if (!node.dirs.has(name)) node.files.set(name, f);
    }
    const tree = writeTree(root, out);
    if (write) {
      cache.save();
      // The root freshened, as git freshens an object it would have written: the prune
      // (snapshot-prune.ts) keeps all a recent root reaches, so a snapshot not yet recorded
      // in its session keeps every object it reuses.
      try {
        const now = new Date();
        utimesSync(join(repo.gitDir, 'objects', tree.slice(0, 2), tree.slice(2)), now, now);
      } catch {
        /* the empty tree of an empty work tree is never written */
      }
    }
    return { ok: true, snapshot: { head: listed.head, tree, at: (opts.now ?? new Date()).toISOString() }, files, top };
  } catch (err) {
    return { ok: false, error: `roz could not snapshot the work tree: ${(err as Error).message}` };
  } finally {
    guard?.end();
  }
}

/** Options for every diff roz shows or reads: no external diff, no textconv, every file as text. */
const DIFF_ARGS = ['--no-ext-diff', '--no-textconv', '--text', '--no-renames', '--ignore-submodules=none', '-U3'];

/** Paths that differ between two of roz's snapshot trees, or null when git cannot say. */
export function changedBetween(storeDir: string, from: string, to: string): string[] | null {
  const out = gitOut(snapshotRepo(storeDir), ['diff', '--name-only', '-z', ...DIFF_ARGS, from, to, '--']);
  return out === null ? null : [...new Set(splitZ(out))].sort();
}

/** The diff between two of roz's snapshot trees, for the reviewer: every changed file as text. */
export function diffBetween(storeDir: string, from: string, to: string): { ok: true; diff: string } | { ok: false; error: string } {
  const r = runGit(snapshotRepo(storeDir), ['diff', '--no-color', ...DIFF_ARGS, from, to, '--']);
  return r.ok ? { ok: true, diff: r.stdout } : { ok: false, error: r.error };
}

/** One line per commit made since `base` (oldest first) in the project's repository, or an error. */
export function commitsSince(projectRoot: string, base: string, expect?: GitIdentity | null): { ok: true; lines: string[] } | { ok: false; error: string } {
  if (!/^[0-9a-f]{40,64}$/.test(base)) return { ok: false, error: `not a commit id: ${base}` };
  const found = repoOf(projectRoot);
  if (!found.ok) return { ok: false, error: 'error' in found ? found.error : `${projectRoot} is not in a git repository` };
  const why = expect ? identityChange(expect, found.id) : null;
  if (why) return { ok: false, error: `refused: ${why} since the session started` };
  const r = runGit({ gitDir: found.id.git_dir, workTree: null }, [
    'log',
    '--no-decorate',
    '--no-notes',
    '--no-show-signature',
    '--format=%h %s',
    '--reverse',
    `${base}..HEAD`,
    '--',
  ]);
  return r.ok ? { ok: true, lines: r.stdout.split('\n').filter(Boolean) } : { ok: false, error: r.error };
}

/**
 * roz's own files (`.orchestration/`) that a commit since `base` changed to
 * bytes that are not the file on disk (issue 29). roz's hooks write the
 * ledger, and the human the intents, `.intentignore` and lessons, as files;
 * an agent cannot write them (its sandbox), but it can commit any bytes under
 * their names by git plumbing, and the human's next `git checkout`, `stash`
 * or `reset --hard` would put those bytes on disk. A file is flagged when
 * HEAD holds it otherwise than the disk does (absent on one side included);
 * the ledger and the lessons (appended to by roz) when HEAD holds a line that
 * is neither on disk nor at `base` (lines appended after a commit are not a
 * difference); the intent map never (derived, rewritten by roz at a stop).
 */
export function rozFilesOffDisk(projectRoot: string, base: string, expect?: GitIdentity | null): { ok: true; files: string[] } | { ok: false; error: string } {
  if (!/^[0-9a-f]{40,64}$/.test(base)) return { ok: false, error: `not a commit id: ${base}` };
  const found = repoOf(projectRoot);
  if (!found.ok) return { ok: false, error: 'error' in found ? found.error : `${projectRoot} is not in a git repository` };
  const why = expect ? identityChange(expect, found.id) : null;
  if (why) return { ok: false, error: `refused: ${why} since the session started` };
  const git: GitRepo = { gitDir: found.id.git_dir, workTree: null };
  const names = runGit(git, ['diff', '--name-only', '-z', '--no-renames', '--ignore-submodules=none', base, 'HEAD', '--', '.orchestration']);
  if (!names.ok) return { ok: false, error: names.error };
  const blob = (rev: string): string | null => {
    const r = runGit(git, ['cat-file', 'blob', rev], { maxBuffer: 1024 * 1024 * 1024 });
    return r.ok ? r.stdout : null;
  };
  const disk = (path: string): string | null => {
    try {
      return readRegularText(join(found.id.top, path), 1024 * 1024 * 1024);
    } catch {
      return null;
    }
  };
  const lines = (t: string | null): string[] => (t ?? '').split('\n').filter((l) => l.trim() !== '');
  const out: string[] = [];
  for (const path of splitZ(names.stdout)) {
    // The map is roz's view of the ledger, rewritten at every stop that changed it and read by nothing roz decides on.
    if (path === '.orchestration/intent_map.md') continue;
    const head = blob(`HEAD:${path}`);
    const onDisk = disk(path);
    // Appended to by roz (the ledger, the lessons): a committed line the disk and the base lack is what counts.
    if (path === '.orchestration/agent_trace.jsonl' || path === '.orchestration/CLAUDE.md') {
      const known = new Set([...lines(onDisk), ...lines(blob(`${base}:${path}`))]);
      if (lines(head).some((l) => !known.has(l))) out.push(path);
    } else if (head !== onDisk) out.push(path);
  }
  return { ok: true, files: out.sort() };
}

/** rozFilesOffDisk as the review gate takes it: the files with what to say, or null (none, or git could not say). */
export function rozFilesOffDiskFound(projectRoot: string, base: string, expect?: GitIdentity | null): RozFilesOffDisk | null {
  const r = rozFilesOffDisk(projectRoot, base, expect);
  return r.ok && r.files.length > 0 ? rozFilesOffDiskText(r.files, base) : null;
}
