// An agent in a worktree `roz agent add` made for it is governed by the BASE
// checkout's intents (issue 25, docs/fleet.md "Intents"), at hook level: the
// built CLI and hooks as processes, JSON on stdin, a real repository and
// worktree. Scope globs match paths in the agent's worktree; its ledger stays
// there. Which base comes from roz's registry through the launcher's
// environment (`roz exec` here), never from the worktree's `.git` file.
// Each attack has its control: the same hook with the environment roz's
// launcher gave before this change (no agent roots) lets it through.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { payloads, rozBin, runHook, runProcess, sandbox, type ProcResult } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';
import { GIT_ENV } from '../helpers/test-git.js';

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const BASE = 'active_intents:\n  - id: INT-001\n    name: Core\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n';
const OWN_ALL =
  'active_intents:\n  - id: INT-001\n    name: Core\n    status: IN_PROGRESS\n    owned_scope: ["**"]\n  - id: MINE\n    name: Mine\n    status: IN_PROGRESS\n    owned_scope: ["**"]\n';

/** A write out of the intent's scope is put to the human (a headless client refuses it); never let through. */
const OUT_OF_SCOPE = 'ask';
const decision = (r: ProcResult) => r.json?.hookSpecificOutput?.permissionDecision as string | undefined;
const reason = (r: ProcResult) => String(r.json?.hookSpecificOutput?.permissionDecisionReason ?? '');

/** A main checkout with intents (committed or not) and agent `a` from the built `roz agent add`. */
async function fleet(opts: { commitIntents: boolean }) {
  const tmp = realpathSync(tempDir('roz-baseint-'));
  const main = join(tmp, 'repo');
  mkdirSync(join(main, 'src'), { recursive: true });
  git(main, 'init', '-q', '-b', 'main');
  writeFileSync(join(main, 'README.md'), 'hi\n');
  mkdirSync(join(main, '.orchestration'));
  writeFileSync(join(main, '.orchestration', 'active_intents.yaml'), BASE);
  git(main, 'add', opts.commitIntents ? '-A' : 'README.md');
  git(main, 'commit', '-q', '-m', 'init');
  const sb = sandbox();
  const env = { ...sb.env, ...GIT_ENV, HOME: sb.home, PATH: process.env.PATH };
  const add = await runProcess(process.execPath, [rozBin, 'agent', 'add', 'a'], '', env, main);
  expect(add.code, add.stderr).toBe(0);
  const wt = join(tmp, 'repo.roz', 'a');
  return { tmp, main, wt, env, store: sb.store };
}

/** What `roz exec` in `cwd` gives its child: the environment the client and its command hooks get. */
async function launchEnv(env: NodeJS.ProcessEnv, cwd: string): Promise<Record<string, string>> {
  const r = await runProcess(process.execPath, [rozBin, 'exec', '--', 'env'], '', env, cwd);
  expect(r.code, r.stderr).toBe(0);
  return Object.fromEntries(
    r.stdout
      .split('\n')
      .filter((l) => /^ROZ_(AGENT_WORKTREE|BASE_CHECKOUT)=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** One session in the worktree: select INT-001 with Bash as the agent would, then judge writes. */
async function agentSession(env: NodeJS.ProcessEnv, wt: string, sid: string) {
  const e = { ...env, CLAUDE_PROJECT_DIR: wt };
  const p = payloads(sid, wt);
  await runHook('SessionStart', p.sessionStart(), e);
  const sel = await runHook('PreToolUse', p.pre('Bash', { command: 'roz intent select INT-001' }), e);
  const write = (rel: string) => runHook('PreToolUse', p.pre('Write', { file_path: join(wt, rel), content: 'x\n' }), e);
  return { e, p, sel, write };
}

describe('an agent in its worktree is governed by the base checkout’s intents', () => {
  it('roz agent add records the base checkout, and roz exec hands it to the hooks from the registry, not from the worktree’s .git', async () => {
    const f = await fleet({ commitIntents: false });
    const reg = readFileSync(
      join(
        f.store,
        'fleet',
        execFileSync('ls', [join(f.store, 'fleet')], { encoding: 'utf8' })
          .split('\n')
          .find((x) => x.endsWith('.json'))!,
      ),
      'utf8',
    );
    expect(JSON.parse(reg).agents.a.base_checkout).toBe(f.main);
    // The worktree got its .orchestration/ at add (for its ledger, protected by the sandbox from the start).
    expect(existsSync(join(f.wt, '.orchestration'))).toBe(true);
    expect(existsSync(join(f.wt, '.orchestration', 'active_intents.yaml'))).toBe(false);

    expect(await launchEnv(f.env, f.wt)).toEqual({ ROZ_AGENT_WORKTREE: f.wt, ROZ_BASE_CHECKOUT: f.main });
    expect(await launchEnv(f.env, join(f.wt, '.orchestration'))).toEqual({ ROZ_AGENT_WORKTREE: f.wt, ROZ_BASE_CHECKOUT: f.main });
    // Not an agent's worktree: nothing, and a caller's own values are dropped.
    expect(await launchEnv({ ...f.env, ROZ_BASE_CHECKOUT: '/tmp', ROZ_AGENT_WORKTREE: f.main }, f.main)).toEqual({});
    // A forged gitfile (the agent writes its worktree) pointing at another repository changes nothing.
    const other = join(f.tmp, 'other');
    mkdirSync(other);
    git(other, 'init', '-q', '-b', 'main');
    writeFileSync(join(f.wt, '.git'), `gitdir: ${join(other, '.git')}\n`);
    expect(await launchEnv(f.env, f.wt)).toEqual({ ROZ_AGENT_WORKTREE: f.wt, ROZ_BASE_CHECKOUT: f.main });
  });

  it('intents not in the branch: a write out of the base scope is not let through (control: ungoverned without the launcher’s roots); a planted worktree copy owning ** gains nothing', async () => {
    const f = await fleet({ commitIntents: false });
    const roots = await launchEnv(f.env, f.wt);
    const env = { ...f.env, ...roots };

    // Control first: as roz launched it before, the worktree has no intents of its own, so nothing governs it.
    const before = await agentSession(f.env, f.wt, 'ctl-1');
    expect(decision(await before.write('docs/out.md'))).toBeUndefined();

    const s = await agentSession(env, f.wt, 'agent-1');
    expect(decision(s.sel), reason(s.sel)).toBe('allow');
    expect(decision(await s.write('src/in.ts'))).toBeUndefined();
    const out = await s.write('docs/out.md');
    expect(decision(out)).toBe(OUT_OF_SCOPE);
    expect(reason(out)).toMatch(/not in the owned_scope of intent INT-001 \(src\/\*\*\)/);

    // The agent plants its own intents in its worktree (a writer the sandbox could not stop: the file was missing).
    writeFileSync(join(f.wt, '.orchestration', 'active_intents.yaml'), OWN_ALL);
    const planted = await s.write('docs/out.md');
    expect(decision(planted)).toBe(OUT_OF_SCOPE);
    expect(reason(planted)).toMatch(/not in the owned_scope of intent INT-001 \(src\/\*\*\)/);
    // Its own intent does not exist in the base: selecting it is refused.
    const mine = await runHook('PreToolUse', s.p.pre('Bash', { command: 'roz intent select MINE' }), s.e);
    expect(decision(mine)).toBe('deny');
    expect(reason(mine)).toMatch(/MINE is not in .*repo\/\.orchestration\/active_intents\.yaml/);
    // Control: with the planted copy and no roots, the agent's own ** governs it.
    const ctl = await agentSession(f.env, f.wt, 'ctl-2');
    expect(decision(ctl.sel)).toBe('allow');
    expect(decision(await ctl.write('docs/out.md'))).toBeUndefined();
  });

  it('intents in the branch: an edited worktree copy owning ** gains nothing, the base’s current file governs, and a forged .git changes nothing', async () => {
    const f = await fleet({ commitIntents: true });
    const roots = await launchEnv(f.env, f.wt);
    const env = { ...f.env, ...roots };
    expect(readFileSync(join(f.wt, '.orchestration', 'active_intents.yaml'), 'utf8')).toBe(BASE);
    writeFileSync(join(f.wt, '.orchestration', 'active_intents.yaml'), OWN_ALL);

    const s = await agentSession(env, f.wt, 'agent-2');
    expect(decision(s.sel)).toBe('allow');
    expect(decision(await s.write('src/in.ts'))).toBeUndefined();
    expect(decision(await s.write('docs/out.md'))).toBe(OUT_OF_SCOPE);
    // Control: without the roots the edited copy governs and the same write goes through.
    const ctl = await agentSession(f.env, f.wt, 'ctl-3');
    expect(decision(await ctl.write('docs/out.md'))).toBeUndefined();

    // The human widens the BASE file: the agent's next write there is allowed, from the base, not its branch's copy.
    writeFileSync(join(f.main, '.orchestration', 'active_intents.yaml'), BASE.replace('["src/**"]', '["src/**", "docs/**"]'));
    expect(decision(await s.write('docs/out.md'))).toBeUndefined();
    writeFileSync(join(f.main, '.orchestration', 'active_intents.yaml'), BASE);

    // A forged gitfile and a removed worktree copy: the base still governs (it is never read from .git).
    const other = join(f.tmp, 'other');
    mkdirSync(join(other, '.orchestration'), { recursive: true });
    writeFileSync(join(other, '.orchestration', 'active_intents.yaml'), OWN_ALL);
    git(other, 'init', '-q', '-b', 'main');
    writeFileSync(join(f.wt, '.git'), `gitdir: ${join(other, '.git')}\n`);
    const forged = await agentSession(env, f.wt, 'agent-3');
    expect(decision(forged.sel)).toBe('allow');
    expect(decision(await forged.write('docs/out.md'))).toBe(OUT_OF_SCOPE);
    expect(decision(await forged.write('src/in.ts'))).toBeUndefined();
  });

  it('the base checkout’s .orchestration/ is denied to the agent: sandbox denyWrite and an Edit deny rule in its launch settings, PROTECTED_PATH in its hook', async () => {
    const f = await fleet({ commitIntents: true });
    const settings = await runProcess(process.execPath, [rozBin, 'settings', '--json'], '', f.env, f.wt);
    expect(settings.code, settings.stderr).toBe(0);
    const doc = JSON.parse(settings.stdout);
    const baseOrch = join(f.main, '.orchestration');
    expect(doc.sandbox.filesystem.denyWrite).toEqual(expect.arrayContaining([baseOrch, join(f.wt, '.orchestration')]));
    expect(doc.permissions.deny).toEqual(expect.arrayContaining([`Edit(/${baseOrch}/**)`, `Edit(/${join(f.wt, '.orchestration')}/**)`]));
    const roots = await launchEnv(f.env, f.wt);
    const s = await agentSession({ ...f.env, ...roots }, f.wt, 'agent-5');
    const w = await runHook('PreToolUse', s.p.pre('Write', { file_path: join(baseOrch, 'active_intents.yaml'), content: OWN_ALL }), s.e);
    expect(decision(w)).toBe('deny');
    expect(reason(w)).toMatch(/PROTECTED_PATH/);
  });

  it('the ledger stays in the worktree; roz intent list/status in the worktree (a human’s terminal, no launcher) show the base’s intents', async () => {
    const f = await fleet({ commitIntents: true });
    const roots = await launchEnv(f.env, f.wt);
    const s = await agentSession({ ...f.env, ...roots }, f.wt, 'agent-4');
    const file = join(f.wt, 'src', 'in.ts');
    mkdirSync(join(f.wt, 'src'), { recursive: true });
    expect(decision(await s.write('src/in.ts'))).toBeUndefined();
    writeFileSync(file, 'x\n');
    const post = await runHook('PostToolUse', s.p.post('Write', { file_path: file, content: 'x\n' }), s.e);
    expect(post.code, post.stderr).toBe(0);
    const ledger = readFileSync(join(f.wt, '.orchestration', 'agent_trace.jsonl'), 'utf8');
    expect(ledger).toContain('"src/in.ts"');
    expect(existsSync(join(f.main, '.orchestration', 'agent_trace.jsonl'))).toBe(false);

    writeFileSync(join(f.wt, '.orchestration', 'active_intents.yaml'), OWN_ALL);
    const list = await runProcess(process.execPath, [rozBin, 'intent', 'list', '--json'], '', f.env, f.wt);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).map((i: { id: string }) => i.id)).toEqual(['INT-001']);
    const status = await runProcess(process.execPath, [rozBin, 'intent', 'status', '--json'], '', f.env, f.wt);
    expect(JSON.parse(status.stdout)).toMatchObject({ project: f.wt, intents_file: join(f.main, '.orchestration', 'active_intents.yaml') });
    // A human's `roz intent select MINE` for a session in the worktree: MINE is not in the base.
    const sel = await runProcess(process.execPath, [rozBin, 'intent', 'select', 'MINE', '--session', 'agent-4'], '', f.env, f.wt);
    expect(sel.code).toBe(4);
    expect(sel.stderr).toMatch(/no intent "MINE" in .*repo\/\.orchestration\/active_intents\.yaml/);
  });
});
