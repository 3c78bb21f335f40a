// Reading git objects without taking the repository's word for them. An
// agent can write `.git/objects` of the repository it works in, and a loose
// object whose content does not match its name is read back by git as if it
// did (git does not re-hash what it reads). So every object roz bases a merge
// on is read here through the hardened runner (`cat-file --batch`) and hashed
// again ("<type> <size>\0<content>", sha1): a mismatch is refused.
import { createHash } from 'node:crypto';
import { runGitBytes, type GitRepo } from './git.js';

export interface GitObject {
  type: 'blob' | 'tree' | 'commit' | 'tag';
  body: Buffer;
}

export interface TreeEntry {
  mode: string;
  name: string;
  id: string;
}

export class ObjectError extends Error {
  override name = 'ObjectError';
}

const OID = /^[0-9a-f]{40}$/;

export function objectHash(type: string, body: Buffer): string {
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]))
    .digest('hex');
}

/** Objects by id, each hashed again here; throws ObjectError on a missing or forged one. */
export function readObjects(repo: GitRepo, ids: readonly string[]): Map<string, GitObject> {
  const out = new Map<string, GitObject>();
  const want = [...new Set(ids)];
  for (const id of want) if (!OID.test(id)) throw new ObjectError(`not an object id: ${id}`);
  // In slices: one git process per slice, bounded output.
  for (let i = 0; i < want.length; i += 10_000) {
    const slice = want.slice(i, i + 10_000);
    const r = runGitBytes(repo, ['cat-file', '--batch'], { input: `${slice.join('\n')}\n` });
    if (!r.ok) throw new ObjectError(`git cannot read objects: ${r.error}`);
    const buf = r.stdout;
    let at = 0;
    for (const id of slice) {
      const nl = buf.indexOf(10, at);
      if (nl < 0) throw new ObjectError('git cat-file ended early');
      const head = buf.subarray(at, nl).toString('latin1').split(' ');
      if (head[1] === 'missing' || head.length !== 3) throw new ObjectError(`object ${id} is missing`);
      const [got, type, sizeText] = head as [string, string, string];
      const size = Number(sizeText);
      if (got !== id || !Number.isInteger(size)) throw new ObjectError(`git cat-file answered ${head.join(' ')} for ${id}`);
      const body = buf.subarray(nl + 1, nl + 1 + size);
      at = nl + 1 + size + 1;
      if (type !== 'blob' && type !== 'tree' && type !== 'commit' && type !== 'tag') throw new ObjectError(`object ${id} has an unknown type ${type}`);
      const real = objectHash(type, body);
      if (real !== id)
        throw new ObjectError(`object ${id} is forged: its content hashes to ${real} (a loose object planted in the repository); roz will not merge on it`);
      out.set(id, { type, body: Buffer.from(body) });
    }
  }
  return out;
}

export function parseTree(body: Buffer): TreeEntry[] {
  const out: TreeEntry[] = [];
  let at = 0;
  while (at < body.length) {
    const sp = body.indexOf(32, at);
    const nul = body.indexOf(0, sp);
    if (sp < 0 || nul < 0 || nul + 21 > body.length) throw new ObjectError('a malformed tree object');
    out.push({
      mode: body.subarray(at, sp).toString('latin1'),
      name: body.subarray(sp + 1, nul).toString('utf8'),
      id: body.subarray(nul + 1, nul + 21).toString('hex'),
    });
    at = nul + 21;
  }
  return out;
}

export function treeBody(entries: readonly TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) =>
    Buffer.compare(Buffer.from(a.mode === '40000' ? `${a.name}/` : a.name), Buffer.from(b.mode === '40000' ? `${b.name}/` : b.name)),
  );
  return Buffer.concat(sorted.map((e) => Buffer.concat([Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.id, 'hex')])));
}

/** The tree of a commit, the commit read and hashed again. */
export function commitTree(repo: GitRepo, commit: string): string {
  const obj = readObjects(repo, [commit]).get(commit)!;
  if (obj.type !== 'commit') throw new ObjectError(`${commit} is a ${obj.type}, not a commit`);
  const m = /^tree ([0-9a-f]{40})$/m.exec(obj.body.toString('utf8'));
  if (!m) throw new ObjectError(`commit ${commit} names no tree`);
  return m[1]!;
}

/**
 * Every object reachable from `tree` (its subtrees and blobs; gitlinks are
 * only names), each read and hashed again. Level by level: one git process a
 * level. Returns the trees read (for lookups) and how many objects were checked.
 */
export function verifyTree(repo: GitRepo, tree: string): { trees: Map<string, TreeEntry[]>; checked: number } {
  const trees = new Map<string, TreeEntry[]>();
  const seen = new Set<string>();
  let level = [tree];
  let checked = 0;
  while (level.length > 0) {
    const objs = readObjects(repo, level);
    checked += objs.size;
    const next: string[] = [];
    for (const [id, obj] of objs) {
      if (obj.type !== 'tree') continue;
      const entries = parseTree(obj.body);
      trees.set(id, entries);
      for (const e of entries) {
        if (e.mode === '160000' || seen.has(e.id)) continue; // a gitlink names a commit of another repository
        seen.add(e.id);
        next.push(e.id);
      }
    }
    for (const id of level) {
      const o = objs.get(id);
      if (o && o.type !== 'tree' && o.type !== 'blob') throw new ObjectError(`${id} is a ${o.type} inside a tree`);
    }
    level = next;
  }
  if (!trees.has(tree)) throw new ObjectError(`${tree} is not a tree`);
  return { trees, checked };
}

/** The entry at `path` ("a/b/c") in `tree`, read through `read` (a tree's entries by id). */
export function entryAt(read: (id: string) => TreeEntry[], tree: string, path: string): TreeEntry | null {
  const parts = path.split('/');
  let cur = tree;
  for (let i = 0; i < parts.length; i++) {
    const e = read(cur).find((x) => x.name === parts[i]);
    if (!e) return null;
    if (i === parts.length - 1) return e;
    if (e.mode !== '40000') return null;
    cur = e.id;
  }
  return null;
}

/**
 * The id `tree` would have with the entry at `path` replaced by `entry` (or
 * removed when null), hashing only; `put` receives each new tree object
 * (to write it somewhere) when given.
 */
export function treeWith(
  read: (id: string) => TreeEntry[],
  tree: string | null,
  path: string,
  entry: { mode: string; id: string } | null,
  put?: (id: string, body: Buffer) => void,
): string | null {
  const [head, ...rest] = path.split('/');
  const entries = tree ? read(tree).filter((e) => e.name !== head) : [];
  const old = tree ? read(tree).find((e) => e.name === head) : undefined;
  let replacement: TreeEntry | null = null;
  if (rest.length === 0) {
    if (entry) replacement = { mode: entry.mode, name: head!, id: entry.id };
  } else {
    const sub = treeWith(read, old && old.mode === '40000' ? old.id : null, rest.join('/'), entry, put);
    if (sub) replacement = { mode: '40000', name: head!, id: sub };
  }
  if (replacement) entries.push(replacement);
  if (entries.length === 0) return null; // git keeps no empty trees below the root
  const body = treeBody(entries);
  const id = objectHash('tree', body);
  put?.(id, body);
  return id;
}
