// A Codex agent in its own linked worktree commits on its own branch (issue
// 33): `roz exec -- codex exec` in worktree `a` (branch roz/a) with the real
// pinned Codex CLI, offline against the scripted Responses API. roz's
// permission profile opens what a Claude agent's sandbox opens (its admin dir
// with the staging store, its ref's and reflog's folders) and keeps the
// other refs beside its own read-only (docs/clients.md, "A Codex agent's
// worktree"). The agent commits (through roz's git shim, into the staging
// store; the hooks take the objects in), then attacks in one shell call, every
// path through a variable or git itself so only Codex's sandbox stands in the
// way: main, another agent's ref (with and without a reflog, moved, removed,
// renamed onto), the shared config, hooks, packed-refs, objects (written by
// the real git past the shim, and an alternates file), another worktree's
// admin dir and checkout, the main checkout. Each fails; the human's git sees
// the commit on roz/a.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanupsPerTest } from './harness/per-test.js';
import { CODEX_BIN, codexHome, type ResponsesRequest, startFakeResponsesApi } from './harness/fake-responses-api.js';
import { probes } from './harness/probes.js';
import { runToEnd } from './harness/run-to-end.js';
import { createWorkspace, REPO_ROOT, ROZ_BIN, type Workspace } from './harness/workspace.js';

/**
 * `NAME=<exit code> <last output>`, kept in a variable ($TMPDIR is read-only
 * in Codex's sandbox, so harness/probes.ts's files cannot be written there).
 */
const probe = (name: string, cmd: string): string => `o=$( { ${cmd} ; } 2>&1 ); echo "${name}=$? $(printf %s "$o" | tail -c 160 | tr '\\n' ' ')"`;

interface Fleet {
  main: string;
  common: string;
  a: string;
  b: string;
}

/** The main checkout with two agents' worktrees, as `roz agent add` lays them out; roz/c has no reflog; every ref packed. */
function fleet(ws: Workspace): Fleet {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws.repo, env: ws.env, stdio: 'pipe' });
  const a = join(ws.root, 'repo.roz', 'a');
  const b = join(ws.root, 'repo.roz', 'b');
  git('worktree', 'add', '-q', '-b', 'roz/a', a);
  git('worktree', 'add', '-q', '-b', 'roz/b', b);
  git('-c', 'core.logAllRefUpdates=false', 'branch', 'roz/c');
  git('pack-refs', '--all');
  return { main: ws.repo, common: join(ws.repo, '.git'), a, b };
}

function attackCommand(f: Fleet): string {
  return [
    'C="$(git rev-parse --path-format=absolute --git-common-dir)"; u=update-ref; h=heads',
    probe('GIT', 'command -v git'),
    // The commit's objects, read without the staging store: taken into the repository by roz's hook after that call.
    probe('TAKEN-IN', '"$ROZ_REAL_GIT" cat-file -e HEAD:agent.txt'),
    probe('MAIN', 'git $u refs/$h/main HEAD'),
    probe('OTHER', 'git $u refs/$h/roz/b HEAD'),
    probe('OTHER-NOLOG', 'git $u refs/$h/roz/c HEAD'),
    probe('OTHER-DELETE', 'git $u -d refs/$h/roz/b'),
    probe('OTHER-RENAME', 'cp "$C/refs/$h/roz/a" "$C/refs/$h/roz/x" && mv -f "$C/refs/$h/roz/x" "$C/refs/$h/roz/b"'),
    probe('OTHER-UNLINK', 'unlink "$C/refs/$h/roz/b"'),
    probe('NEW-BRANCH', 'git branch evil'),
    // A new name in roz/: the documented limit, as for a Claude agent (a name that does not exist cannot be denied).
    probe('NEW-AGENT-REF', 'git $u refs/$h/roz/other HEAD'),
    probe('TAG', 'git tag evil-tag'),
    probe('CONFIG', `echo '[core]' >> "$C/config"`),
    probe('HOOK', `printf '#!/bin/sh\\n' > "$C/hooks/x"`),
    probe('PACKED-REFS', `echo x >> "$C/packed-refs"`),
    probe('OBJECT', 'echo evil-blob | "$ROZ_REAL_GIT" hash-object -w --stdin'),
    probe('ALTERNATES', `echo /tmp > "$C/objects/info/alternates"`),
    probe('OTHER-ADMIN', `echo x > "$C/worktrees/b/HEAD.new"`),
    probe('OTHER-WORKTREE', `echo x > "${f.b}/evil.txt"`),
    probe('MAIN-CHECKOUT', `echo x > "${f.main}/evil.txt"`),
    'echo ALL-PROBES-DONE',
  ].join('\n');
}

describe.sequential('a Codex agent in its own worktree (real Codex CLI 0.169.0, offline)', () => {
  const cleanups = cleanupsPerTest();

  test('commits on its own branch; cannot move other refs or write the shared config, hooks, objects, other worktrees or the main checkout', async () => {
    const ws = createWorkspace({ ROZ_REVIEW_MODE: 'never' });
    cleanups.push(ws.cleanup);
    const f = fleet(ws);
    const rev = (ref: string): string => execFileSync('git', ['rev-parse', ref], { cwd: f.main, env: ws.env, encoding: 'utf8' }).trim();
    const before = { main: rev('main'), b: rev('roz/b'), c: rev('roz/c'), config: readFileSync(join(f.common, 'config'), 'utf8') };
    const packed = readFileSync(join(f.common, 'packed-refs'), 'utf8');
    const script = ['echo agent > agent.txt && git add agent.txt && git commit -q -m agent-work && git log -1 --format=%s', attackCommand(f)];
    const api = await startFakeResponsesApi([
      ...script.map((shell, i) => ({ name: `step-${i}`, when: (r: ResponsesRequest) => r.toolOutputs.length === i, reply: { shell } })),
      { name: 'done', when: (r: ResponsesRequest) => r.toolOutputs.length === script.length, reply: { say: 'Done.' } },
    ]);
    cleanups.push(api.close);
    const run = await runToEnd(
      process.execPath,
      [ROZ_BIN, 'exec', '--', CODEX_BIN, 'exec', '--skip-git-repo-check', 'do the work'],
      f.a,
      { ...ws.env, CODEX_HOME: codexHome(ws.home, api.baseUrl) },
      120_000,
    );
    const out = (i: number): string => api.requests.find((r) => r.toolOutputs.length === i + 1)?.toolOutputs[i] ?? '';
    const p = probes(out(1));
    if (process.env.ROZ_E2E_VERBOSE) process.stderr.write(`${JSON.stringify(p, null, 1)}\n`);
    const why = `exit ${run.code}\nstderr:\n${run.stderr.slice(-3000)}\nstep 0: ${out(0)}\nprobes: ${JSON.stringify(p, null, 1)}`;
    expect(run.code, why).toBe(0);
    expect(run.stderr, why).toContain("its git admin dir and its branch's ref writable");

    // Its work: a commit on roz/a, made by roz's git (into the staging store), taken into the repository.
    expect(out(0), why).toContain('agent-work');
    expect(p.GIT?.out, why).toBe(join(REPO_ROOT, 'plugin', 'git-shim', 'git'));
    expect(p['TAKEN-IN'], why).toEqual({ code: 0, out: '' });
    expect(execFileSync('git', ['log', '-1', '--format=%s', 'roz/a'], { cwd: f.main, env: ws.env, encoding: 'utf8' }).trim()).toBe('agent-work');
    execFileSync('git', ['cat-file', '-e', 'roz/a:agent.txt'], { cwd: f.main, env: ws.env });
    const staging = join(f.common, 'worktrees', 'a', 'roz-objects');
    expect(readdirSync(staging).filter((n) => /^[0-9a-f]{2}$/.test(n))).toEqual([]);

    // Every attack failed, and nothing changed.
    expect(Object.keys(p), why).toContain('MAIN-CHECKOUT');
    for (const k of [
      'MAIN',
      'OTHER',
      'OTHER-NOLOG',
      'OTHER-DELETE',
      'OTHER-RENAME',
      'OTHER-UNLINK',
      'NEW-BRANCH',
      'TAG',
      'CONFIG',
      'HOOK',
      'PACKED-REFS',
      'OBJECT',
      'ALTERNATES',
      'OTHER-ADMIN',
      'OTHER-WORKTREE',
      'MAIN-CHECKOUT',
    ])
      expect(`${k}: ${p[k]?.code} ${p[k]?.out}`, why).toMatch(/^\S+: [1-9]\d* /);
    // If this starts failing, Codex has learnt to deny a name that does not exist yet: say so in docs/fleet.md.
    expect(p['NEW-AGENT-REF'], why).toEqual({ code: 0, out: '' });
    expect(rev('roz/other')).toBe(rev('roz/a'));
    expect(rev('main')).toBe(before.main);
    expect(rev('roz/b')).toBe(before.b);
    expect(rev('roz/c')).toBe(before.c);
    expect(readFileSync(join(f.common, 'config'), 'utf8')).toBe(before.config);
    expect(readFileSync(join(f.common, 'packed-refs'), 'utf8')).toBe(packed);
    for (const x of [
      join(f.common, 'hooks', 'x'),
      join(f.common, 'objects', 'info', 'alternates'),
      join(f.common, 'refs', 'heads', 'evil'),
      join(f.common, 'refs', 'tags', 'evil-tag'),
      join(f.common, 'worktrees', 'b', 'HEAD.new'),
      join(f.b, 'evil.txt'),
      join(f.main, 'evil.txt'),
    ])
      expect(existsSync(x), x).toBe(false);
    const blob = execFileSync('git', ['hash-object', '--stdin'], { input: 'evil-blob\n', encoding: 'utf8' }).trim();
    expect(() => execFileSync('git', ['cat-file', '-e', blob], { cwd: f.main, env: ws.env, stdio: 'pipe' })).toThrow();
  }, 150_000);
});
