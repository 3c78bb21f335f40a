// The agent's git objects, taken into the repository only once roz has
// hashed them (issue 29; docs/security.md, "The shared git directory").
//
// Under roz's launch an agent cannot write the repository's `objects/`: a
// writable object directory lets it unlink any object and write other content
// under the same name, which every later `git show`/`checkout`/`stash` of the
// human then reads as committed (git does not re-hash what it reads). Its git
// writes new objects into a staging store of its own instead,
// `<git dir>/roz-objects` (its worktree's admin dir, or the main checkout's
// `.git`), reading the repository's objects through alternates (the `git`
// shim on its PATH, plugin/git-shim/git, routes them). This module moves
// them into the repository's objects, from a trusted process (a hook, the
// supervisor, the merge gate), after checking each:
//  - a loose object is inflated and hashed again ("<type> <size>\0<body>");
//    one whose content does not hash to its name is forged: it goes to
//    `<store>/quarantine/objects/` and never reaches the repository. A good
//    one is deflated anew by roz and linked in under its name; an object the
//    repository already holds is never replaced (link fails, ours is dropped);
//  - a pack is fed to `git index-pack --stdin` through the hardened runner,
//    which computes every object's name from its content (the agent's `.idx`
//    is never read) and refuses a pack whose object collides with a
//    different existing one.
// Whatever is taken in is removed from the staging store; the agent's git
// then finds it through the alternate.
import {
  closeSync,
  constants,
  existsSync,
  rmdirSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { objectHash } from './git-objects.js';
import { runGitBytes } from './git.js';
import { randomUuid } from './random-uuid.js';
import { quarantineDir } from './paths.js';
import { readOptionalText, readRegularFile } from './regular-file.js';
import { stagingPlace, type StagingPlace } from './staging-place.js';
import type { GitIdentity } from '../core/git-identity.js';

/** A loose object larger than this (compressed) is left where it is, and said (the repository would not need it from roz). */
const MAX_LOOSE_BYTES = 256 * 1024 * 1024;
const MAX_INFLATED = 1024 * 1024 * 1024;
const FANOUT = /^[0-9a-f]{2}$/;
const REST = /^[0-9a-f]{38}$/;
const PACK = /^(pack-[0-9a-f]{40,64})\.pack$/;
const PACK_SIDE_FILES = ['.idx', '.rev', '.bitmap', '.keep', '.promisor', '.mtimes'];

export interface IntakeTarget {
  /** The staging store: `<git dir>/roz-objects`. */
  staging: string;
  /** The repository's own objects directory: `<common dir>/objects`. */
  objects: string;
  /** The repository's git directory to run `index-pack` in (the common dir). */
  commonDir: string;
  /** Where forged objects are kept: `<store>/quarantine/objects`. */
  quarantine: string;
}

export interface IntakeResult {
  /** Objects taken into the repository (new there, or already there). */
  taken: number;
  packs: number;
  /** Objects refused: their content does not hash to their name. */
  forged: { id: string; real: string | null; kept: string | null }[];
  /** What could not be done, said, nothing lost (left in staging for next time). */
  problems: string[];
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A regular file opened for reading, never through a link and never waiting on a FIFO; null when it is not one. */
function openRegular(path: string): number | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  return null;
}

/** A regular file's bytes, not through a link, at most `max` of them; null when it is not one, or larger. */
function readRegular(path: string, max: number): Buffer | null {
  try {
    return readRegularFile(path, max, { noFollow: true });
  } catch {
    return null;
  }
}

/**
 * A directory the agent can write, opened without following a link, and a
 * path through which to reach what is in it: `/proc/self/fd/N` where the OS
 * has it, so that a folder swapped for a link after the open (to the
 * repository's own objects/, say) cannot turn roz's unlink of a taken-in
 * object into the removal of the repository's. Elsewhere (no /proc), the
 * path itself, checked at the open only.
 */
interface HeldDir {
  fd: number;
  path: string;
}
const PROC_FD = process.platform === 'linux';

function holdDir(path: string): HeldDir | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  return { fd, path: PROC_FD ? `/proc/self/fd/${fd}` : path };
}

function release(d: HeldDir): void {
  closeSync(d.fd);
}

/** "<type> <size>\0<body>" of a loose object, or why it is not one. */
export function parseLoose(raw: Buffer): { type: string; body: Buffer } | { error: string } {
  let data: Buffer;
  try {
    data = inflateSync(raw, { maxOutputLength: MAX_INFLATED });
  } catch (err) {
    return { error: `not a zlib stream (${(err as Error).message})` };
  }
  const nul = data.indexOf(0);
  if (nul < 0 || nul > 32) return { error: 'no object header' };
  const m = /^(blob|tree|commit|tag) (\d+)$/.exec(data.subarray(0, nul).toString('latin1'));
  if (!m) return { error: 'a malformed object header' };
  const body = data.subarray(nul + 1);
  if (Number(m[2]) !== body.length) return { error: `its header says ${m[2]} bytes, it holds ${body.length}` };
  return { type: m[1]!, body };
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* gone already (another hook took it in) */
  }
}

/** Write a verified object into the repository under its name, never over one that is there. */
function linkInto(objects: string, id: string, type: string, body: Buffer): void {
  const dir = join(objects, id.slice(0, 2));
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `tmp_obj_roz_${randomUuid()}`);
  // Deflated anew by roz: the agent's bytes are never what the repository keeps.
  writeFileSync(tmp, deflateSync(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]), { level: 1 }), { mode: 0o444, flag: 'wx' });
  try {
    linkSync(tmp, join(dir, id.slice(2)));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkQuiet(tmp);
  }
}

function quarantine(t: IntakeTarget, from: string, id: string): string | null {
  try {
    mkdirSync(t.quarantine, { recursive: true, mode: 0o700 });
    const to = join(t.quarantine, `${id}-${Date.now()}-${randomUuid().slice(0, 8)}`);
    renameSync(from, to);
    return to;
  } catch {
    // Not kept, but never taken in: the staged file goes.
    unlinkQuiet(from);
    return null;
  }
}

function takeLoose(t: IntakeTarget, staging: HeldDir, out: IntakeResult): void {
  for (const fan of names(staging.path)) {
    if (!FANOUT.test(fan)) continue;
    const dir = holdDir(join(staging.path, fan));
    if (!dir) {
      out.problems.push(`${join(t.staging, fan)} is not a directory (a link?); left alone`);
      continue;
    }
    try {
      for (const rest of names(dir.path)) {
        if (!REST.test(rest)) continue; // git's own tmp_obj_* files, still being written
        const id = fan + rest;
        const path = join(dir.path, rest);
        const raw = readRegular(path, MAX_LOOSE_BYTES);
        if (!raw) {
          out.problems.push(`${id}: not a regular file of at most ${MAX_LOOSE_BYTES} bytes; left in ${t.staging}`);
          continue;
        }
        const parsed = parseLoose(raw);
        const real = 'error' in parsed ? null : objectHash(parsed.type, parsed.body);
        if ('error' in parsed || real !== id) {
          out.forged.push({ id, real, kept: quarantine(t, path, id) });
          continue;
        }
        try {
          linkInto(t.objects, id, parsed.type, parsed.body);
        } catch (err) {
          out.problems.push(`${id}: cannot write it into ${t.objects} (${(err as Error).message}); left in staging`);
          continue;
        }
        out.taken++;
        unlinkQuiet(path);
      }
    } finally {
      release(dir);
    }
    // An emptied fan-out folder goes too (git makes it again when it needs it): "nothing waits" stays one readdir.
    try {
      rmdirSync(join(staging.path, fan));
    } catch {
      /* not empty (a file left, or one being written), or no longer a directory */
    }
  }
}

function takePacks(t: IntakeTarget, staging: HeldDir, out: IntakeResult): void {
  const held = holdDir(join(staging.path, 'pack'));
  if (!held) return;
  try {
    takePacksIn(t, held.path, out);
  } finally {
    release(held);
  }
}

function takePacksIn(t: IntakeTarget, dir: string, out: IntakeResult): void {
  const present = new Set(names(dir));
  for (const name of present) {
    const m = PACK.exec(name);
    // git renames the .idx into place last: a pack without one is still being written.
    if (!m || !present.has(`${m[1]}.idx`)) continue;
    const fd = openRegular(join(dir, name));
    if (fd === null) {
      out.problems.push(`${name}: not a regular file; left in ${join(t.staging, 'pack')}`);
      continue;
    }
    // index-pack names every object by hashing it, and writes its own copy of what it read into the
    // repository's pack/: a pack the agent changes meanwhile yields what was read or a refusal.
    let r: ReturnType<typeof runGitBytes>;
    try {
      r = runGitBytes({ gitDir: t.commonDir, workTree: null }, ['index-pack', '--stdin'], { stdinFd: fd, timeoutMs: 300_000 });
    } finally {
      closeSync(fd);
    }
    if (!r.ok) {
      out.problems.push(`${name}: git index-pack refused it (${r.error}); kept in quarantine, not taken in`);
      const kept = quarantine(t, join(dir, name), m[1]!);
      out.forged.push({ id: m[1]!, real: null, kept });
      for (const side of PACK_SIDE_FILES) unlinkQuiet(join(dir, `${m[1]}${side}`));
      continue;
    }
    out.packs++;
    unlinkQuiet(join(dir, name));
    for (const side of PACK_SIDE_FILES) unlinkQuiet(join(dir, `${m[1]}${side}`));
  }
}

/** Take every finished staged object into the repository; never throws. */
export function intakeStaged(t: IntakeTarget): IntakeResult {
  const out: IntakeResult = { taken: 0, packs: 0, forged: [], problems: [] };
  const staging = holdDir(t.staging);
  if (!staging) {
    out.problems.push(`${t.staging} is not a directory (a link?); nothing taken from it`);
    return out;
  }
  try {
    takeLoose(t, staging, out);
    takePacks(t, staging, out);
  } catch (err) {
    out.problems.push(`object intake stopped: ${(err as Error).message}`);
  } finally {
    release(staging);
  }
  return out;
}

/** What the human reads about a forged object (the trace and the hook's systemMessage). */
export function forgedMessage(f: IntakeResult['forged'][number]): string {
  const kept = f.kept ? ` (kept in ${f.kept})` : '';
  if (f.id.startsWith('pack-'))
    return `roz: refused the git pack ${f.id} written by the agent (git index-pack could not read it); nothing of it reached the repository${kept}`;
  const what = f.real ? `its content hashes to ${f.real}` : 'it is not a well-formed object';
  return `roz: refused git object ${f.id} written by the agent (${what}); it never reached the repository${kept}`;
}

/** Take what waits in the staging store of `dir`'s repository into it; null when there is none. Never throws. */
export function intakeAt(dir: string, storeRoot: string, expect?: GitIdentity | null): IntakeResult | null {
  let place: StagingPlace | null;
  try {
    place = stagingPlace(dir, expect);
  } catch {
    return null;
  }
  return place ? intakePlace(place, storeRoot) : null;
}

/** Take what waits in a staging store known beforehand (the launch's: supervisor/launch/exit-intake.ts); null when it is gone. Never throws. */
export function intakePlace(place: StagingPlace, storeRoot: string): IntakeResult | null {
  if (!existsSync(place.staging)) return null;
  return intakeStaged({ staging: place.staging, objects: place.objects, commonDir: place.commonDir, quarantine: join(quarantineDir(storeRoot), 'objects') });
}

/** Operation state of the main checkout that the human's next git command continues (docs/security.md). */
const IN_PROGRESS: { path: string; what: string; todo?: string; resume: string }[] = [
  { path: 'rebase-merge', what: 'a rebase', todo: 'rebase-merge/git-rebase-todo', resume: 'git rebase --continue' },
  { path: 'rebase-apply', what: 'a rebase (apply)', resume: 'git rebase --continue' },
  { path: 'sequencer', what: 'a cherry-pick or revert', todo: 'sequencer/todo', resume: 'git cherry-pick --continue' },
  { path: 'MERGE_HEAD', what: 'a merge', resume: 'git commit' },
];

/**
 * What a stop says of an operation the agent left in progress in the main
 * checkout (engine/object-intake-hook.ts): the human's next git command
 * continues it outside every sandbox, so name the `exec` lines a todo would
 * run. The agent works in the human's checkout by design; this is what it
 * leaves there.
 */
export function operationLeft(dir: string, gitDir: string): string | null {
  for (const op of IN_PROGRESS) {
    if (!existsSync(join(gitDir, op.path))) continue;
    const todo = op.todo ? (readOptionalText(join(gitDir, op.todo), 256 * 1024) ?? '') : '';
    const execs = todo
      .split('\n')
      .filter((l) => /^\s*(x|exec)\s/.test(l))
      .map((l) => l.trim());
    const runs = execs.length
      ? ` Its todo runs ${execs.length} command${execs.length === 1 ? '' : 's'} outside the sandbox when continued: ${execs.slice(0, 3).join('; ').slice(0, 300)}${execs.length > 3 ? '; …' : ''}.`
      : '';
    return `roz: the agent left ${op.what} in progress in ${dir}; \`${op.resume}\` continues it as you, outside the sandbox.${runs} Read ${join(gitDir, op.todo ?? op.path)} first, or abort it.`;
  }
  return null;
}

/** What the human reads and what the trace records of one intake. */
export interface IntakeReport {
  warnings: string[];
  trace: (ts: string, sessionId: string) => { ts: string; event: string; session_id: string; [k: string]: unknown }[];
}

/** The hook's report of an intake: what the human reads and what the trace records. */
export function hookIntake(dir: string, storeRoot: string, expect: GitIdentity | undefined): IntakeReport {
  return intakeReport(intakeAt(dir, storeRoot, expect));
}

export function intakeReport(r: IntakeResult | null): IntakeReport {
  if (!r) return { warnings: [], trace: () => [] };
  return {
    warnings: [...r.forged.map(forgedMessage), ...r.problems.map((p) => `roz: git objects: ${p}`)],
    trace: (ts, sessionId) => [
      ...(r.taken || r.packs ? [{ ts, event: 'roz:ObjectsTaken', session_id: sessionId, objects: r.taken, packs: r.packs }] : []),
      ...r.forged.map((f) => ({ ts, event: 'roz:ForgedObjectRefused', session_id: sessionId, object: f.id, content_hash: f.real, kept: f.kept })),
    ],
  };
}
