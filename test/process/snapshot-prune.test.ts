// `<store>/snapshots.git` is bounded (issue 24): `roz clean` (and the daily
// clean-up at SessionStart) removes old sessions, then sweeps the snapshot
// objects no remaining session names. Real hook processes and the built CLI
// on a real repository: session A keeps a review with a COMPLETE bound to its
// tree; session B, older than the retention, held content of its own. After
// the clean B's objects are gone and every object A's recorded trees reach is
// still there (its `roz context` diff still reads); a recent unreachable
// object (a snapshot not yet recorded) stays; a prune never runs while a
// snapshot is being taken, and a snapshot never while a prune runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beginPrune, beginSnapshot } from '../../src/store/snapshot-guard.js';
import { makeProject, type Project } from '../governance/helpers.js';
import { payloads, runHook, runProcess, rozBin } from '../helpers/hooks.js';

const A = '6a1c0a6e-9f1e-4b7a-8d7e-2b9a4c3e1f0a';
const B = '6b1c0a6e-9f1e-4b7a-8d7e-2b9a4c3e1f0b';
const made: Project[] = [];
afterAll(() => {
  for (const p of made) rmSync(dirname(p.root), { recursive: true, force: true });
});

function project(): { p: Project; env: NodeJS.ProcessEnv } {
  const p = makeProject({ intents: null, git: true });
  made.push(p);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: p.home,
    ROZ_STORAGE_PATH: p.store,
    CLAUDE_PLUGIN_ROOT: join(import.meta.dirname, '..', '..', 'plugin'),
    CLAUDE_PROJECT_DIR: p.root,
    NO_COLOR: '1',
  };
  return { p, env };
}

const snapRepo = (p: Project) => join(p.store, 'snapshots.git');
const git = (p: Project, ...args: [...string[], { input: string }]) => {
  const opts = args.pop() as { input: string };
  return execFileSync('/usr/bin/git', [`--git-dir=${snapRepo(p)}`, ...(args as string[])], { encoding: 'utf8', input: opts.input });
};
const blobOf = (text: string) => execFileSync('/usr/bin/git', ['hash-object', '--stdin'], { input: text, encoding: 'utf8' }).trim();
const hasObject = (p: Project, id: string) => existsSync(join(snapRepo(p), 'objects', id.slice(0, 2), id.slice(2)));

function looseIds(p: Project): string[] {
  const dir = join(snapRepo(p), 'objects');
  return readdirSync(dir)
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .flatMap((d) => readdirSync(join(dir, d)).map((f) => d + f));
}

/** Every loose object of roz's snapshot repository made `hours` older (time passing, past the prune's grace). */
function age(p: Project, hours: number): void {
  const then = new Date(Date.now() - hours * 3_600_000);
  for (const id of looseIds(p)) utimesSync(join(snapRepo(p), 'objects', id.slice(0, 2), id.slice(2)), then, then);
}

const hook = async (env: NodeJS.ProcessEnv, event: string, payload: unknown) => {
  const r = await runHook(event, payload, env);
  expect(r.code, r.stderr).toBe(0);
  return r;
};

/** A session asks for a review (`#roz`: the base snapshot), writes `file`, and its reviewer records COMPLETE (bound to a tree). */
async function reviewed(env: NodeJS.ProcessEnv, p: Project, sid: string, file: string, text: string): Promise<void> {
  const ev = payloads(sid, p.root);
  await hook(env, 'SessionStart', ev.sessionStart());
  await hook(env, 'UserPromptSubmit', ev.prompt(`#roz write ${file}`));
  writeFileSync(join(p.root, file), text);
  const as = { agent_id: `rev-${sid.slice(0, 2)}`, agent_type: 'roz:roz' };
  await hook(env, 'SubagentStart', ev.subagentStart(as.agent_id));
  await hook(env, 'PreToolUse', ev.pre('Bash', { command: `roz context ${sid}` }, as));
  const decide = ev.pre('Bash', { command: `roz decide ${sid} COMPLETE "fine"` }, as);
  await hook(env, 'PreToolUse', decide);
  const d = await runProcess(process.execPath, [rozBin, 'decide', 'COMPLETE', 'fine'], '', { ...env, CLAUDE_CODE_SESSION_ID: sid }, p.root);
  await hook(env, 'PostToolUse', { ...decide, hook_event_name: 'PostToolUse', tool_response: { stdout: d.stdout } });
  await hook(env, 'SubagentStop', ev.subagentStop(as.agent_id));
}

const cli = (env: NodeJS.ProcessEnv, p: Project, args: string[], sid?: string) =>
  runProcess(process.execPath, [rozBin, ...args], '', sid ? { ...env, CLAUDE_CODE_SESSION_ID: sid } : env, p.root);

function state(p: Project, sid: string): { review: { base: { tree: string }; decision: { tree: string; kind: string } } } {
  return JSON.parse(readFileSync(join(p.store, 'sessions', sid, 'state.json'), 'utf8'));
}

/** Make a session look last used `days` ago (what `roz clean` judges by). */
function backdate(p: Project, sid: string, days: number): void {
  const file = join(p.store, 'sessions', sid, 'state.json');
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  doc.updated_at = new Date(Date.now() - days * 86_400_000).toISOString();
  writeFileSync(file, JSON.stringify(doc));
}

describe('roz clean bounds snapshots.git', () => {
  it('sweeps what only removed sessions named; keeps every object a live decision binds to, and recent ones', async () => {
    const { p, env } = project();
    await reviewed(env, p, B, 'b.txt', 'only session B ever wrote this\n');
    rmSync(join(p.root, 'b.txt'));
    await reviewed(env, p, A, 'a.txt', 'session A wrote this\n');
    const onlyB = blobOf('only session B ever wrote this\n');
    const sa = state(p, A);
    expect(sa.review.decision.kind).toBe('complete');
    expect(hasObject(p, sa.review.decision.tree)).toBe(true);
    // Control: B's content is in roz's repository before the clean.
    expect(hasObject(p, onlyB)).toBe(true);

    backdate(p, B, 30);
    age(p, 2);
    // An object written a moment ago that no session names yet (a snapshot being recorded): kept.
    const young = git(p, 'hash-object', '-w', '--stdin', { input: 'a snapshot not yet recorded\n' }).trim();
    const before = looseIds(p).length;

    const dry = await cli(env, p, ['clean', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/would remove 1 session/);
    expect(hasObject(p, onlyB)).toBe(true);

    const r = await cli(env, p, ['clean']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/removed 1 session/);
    expect(r.stdout).toMatch(/pruned [1-9]\d* of \d+ snapshot objects/);
    expect(existsSync(join(p.store, 'sessions', B))).toBe(false);
    expect(hasObject(p, onlyB)).toBe(false);
    expect(looseIds(p).length).toBeLessThan(before);
    expect(hasObject(p, young)).toBe(true);

    // Everything A's recorded trees reach is still there: git walks them without a missing object.
    const walk = spawnSync('/usr/bin/git', [`--git-dir=${snapRepo(p)}`, 'rev-list', '--objects', sa.review.base.tree, sa.review.decision.tree], {
      encoding: 'utf8',
    });
    expect(walk.status, walk.stderr).toBe(0);
    expect(walk.stdout).toContain(blobOf('session A wrote this\n'));
    const ctx = await cli(env, p, ['context', A, '--json'], A);
    expect(ctx.code, ctx.stderr).toBe(0);
    expect(JSON.parse(ctx.stdout).change.diff).toContain('+session A wrote this');
    // A's approval still holds at its stop: the tree it binds to is intact.
    const stop = await hook(env, 'Stop', payloads(A, p.root).stop());
    expect(stop.json?.decision).toBeUndefined();
  }, 120_000);

  it('never while a snapshot is being taken; a snapshot never while a prune runs', async () => {
    const { p, env } = project();
    await reviewed(env, p, B, 'b.txt', 'B again\n');
    backdate(p, B, 30);
    age(p, 2);
    const onlyB = blobOf('B again\n');
    const gitDir = snapRepo(p);

    // A live snapshot's marker (this process is alive): the prune gives up and says so.
    const snap = beginSnapshot(gitDir);
    expect(snap.ok).toBe(true);
    const r = await cli(env, p, ['clean']);
    expect(r.stdout).toMatch(/removed 1 session/);
    expect(r.stdout).toMatch(/snapshot objects not pruned \(a snapshot is being taken/);
    expect(hasObject(p, onlyB)).toBe(true);
    if (snap.ok) snap.end();

    // A running prune: a snapshot waits, then fails rather than reuse objects being swept.
    const prune = beginPrune(gitDir);
    expect(prune.ok).toBe(true);
    const blocked = beginSnapshot(gitDir, { waitMs: 200 });
    expect(blocked.ok).toBe(false);
    if (!blocked.ok) expect(blocked.error).toMatch(/being pruned/);
    if (prune.ok) prune.end();

    // A marker whose process died does not hold the prune back.
    mkdirSync(join(gitDir, 'roz-busy'), { recursive: true });
    writeFileSync(join(gitDir, 'roz-busy', '999999999-dead'), '');
    const again = await cli(env, p, ['clean']);
    expect(again.stdout).toMatch(/pruned [1-9]\d* of \d+ snapshot objects/);
    expect(hasObject(p, onlyB)).toBe(false);
  }, 120_000);
});
