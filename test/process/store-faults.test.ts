// roz's own session state broken on purpose: a lock held past its bound, a
// state file of the wrong shape, another version, a FIFO. Governed changes
// and gated actions fail closed (HOOK_ERROR); the review gate fails open only
// where it must, and then says so unmissably; faulty files are kept in
// quarantine, never deleted.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../governance/helpers.js';
import { payloads, rozBin, runHook, runProcess, sandbox, type ProcResult } from '../helpers/hooks.js';

const decision = (r: ProcResult) => r.json?.hookSpecificOutput?.permissionDecision;
const reason = (r: ProcResult) => String(r.json?.hookSpecificOutput?.permissionDecisionReason ?? '');
const statePath = (store: string, sid: string) => join(store, 'sessions', sid, 'state.json');
const env2 = (env: NodeJS.ProcessEnv) => ({ ...env, ROZ_GATES: 'Bash:gh issue close*' });

/** A governed project and a session on it with review on (#roz) and an intent selected. */
async function liveSession(sid: string) {
  const proj = makeProject({ git: true });
  const { env, store } = sandbox();
  const p = payloads(sid, proj.root);
  await runHook('UserPromptSubmit', p.prompt('#roz do it'), env);
  const sel = await runProcess(process.execPath, [rozBin, 'intent', 'select', 'INT-001', '--session', sid], '', env, proj.root);
  expect(sel.code, sel.stderr).toBe(0);
  return { proj, env, store, p };
}

describe('a session file of the wrong shape', () => {
  it('review.reviewers: null no longer fails open on every stop: repaired, kept in quarantine, the stop is blocked', async () => {
    const sid = 'shape-1';
    const { env, store, p } = await liveSession(sid);
    const file = statePath(store, sid);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.review.reviewers = null;
    writeFileSync(file, JSON.stringify(doc));
    const stop = await runHook('Stop', p.stop(), env);
    expect(stop.code).toBe(0);
    expect(stop.json?.decision).toBe('block');
    expect(stop.json?.systemMessage).toMatch(/review\.reviewers/);
    const kept = readdirSync(join(store, 'quarantine'));
    expect(kept).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(store, 'quarantine', kept[0]!), 'utf8')).review.reviewers).toBeNull();
    expect(JSON.parse(readFileSync(file, 'utf8')).review.reviewers).toEqual({});
    // Every later stop is gated as usual.
    expect((await runHook('Stop', p.stop(), env)).json?.decision).toBe('block');
  });

  it('a governed change or a gated action in the hook that finds the fault is refused (HOOK_ERROR); a read is not', async () => {
    const sid = 'shape-2';
    const { env, store, p, proj } = await liveSession(sid);
    const file = statePath(store, sid);
    const poison = () => {
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      doc.review.block_count = 'many';
      doc.governance.files = 7;
      writeFileSync(file, JSON.stringify(doc));
    };
    poison();
    const write = await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }), env);
    expect(decision(write)).toBe('deny');
    expect(reason(write)).toMatch(/^\[HOOK_ERROR\].*review\.block_count.*quarantine/s);
    poison();
    const gated = await runHook('PreToolUse', p.pre('Bash', { command: 'gh issue close 1' }), env2(env));
    expect(decision(gated)).toBe('deny');
    expect(reason(gated)).toMatch(/^\[HOOK_ERROR\]/);
    poison();
    const read = await runHook('PreToolUse', p.pre('Read', { file_path: join(proj.root, 'README.md') }), env);
    expect(decision(read)).toBeUndefined();
    expect(read.json?.systemMessage).toMatch(/block_count/);
    // Repaired: the session goes on with what was valid (its intent), so the next write is judged normally.
    const again = await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }), env);
    expect(decision(again)).toBeUndefined();
  });

  it('a document that is no session any more but had review on keeps review on; a FIFO is moved aside and the open stop is unmissable', async () => {
    const sid = 'shape-3';
    const { env, store, p } = await liveSession(sid);
    const file = statePath(store, sid);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...doc, version: 2 }));
    const stop = await runHook('Stop', p.stop(), env);
    expect(stop.json?.decision).toBe('block');

    execFileSync('rm', [file]);
    execFileSync('mkfifo', [file]);
    const open = await runHook('Stop', p.stop(), env);
    expect(open.code).toBe(0);
    expect(open.json?.decision).toBeUndefined();
    expect(open.json?.systemMessage).toMatch(/REVIEW GATE NOT ENFORCED/);
    expect(readdirSync(join(store, 'quarantine')).length).toBe(2);
  });
});

describe('a session lock held past its bound', () => {
  it('fails closed for governed changes and gated actions, open (unmissably) for the stop', async () => {
    const sid = 'lock-1';
    const { env, store, p, proj } = await liveSession(sid);
    const lock = `${statePath(store, sid)}.lock`;
    mkdirSync(lock);
    // Someone keeps it fresh, as a live holder would: it is never taken over as stale.
    const keep = setInterval(() => {
      const now = new Date();
      if (existsSync(lock)) utimesSync(lock, now, now);
    }, 500);
    try {
      const [write, gated, read, stop] = await Promise.all([
        runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }), env),
        runHook('PreToolUse', p.pre('Bash', { command: 'gh issue close 1' }), env2(env)),
        runHook('PreToolUse', p.pre('Read', { file_path: join(proj.root, 'README.md') }), env),
        runHook('Stop', p.stop(), env),
      ]);
      expect(decision(write)).toBe('deny');
      expect(reason(write)).toMatch(/^\[HOOK_ERROR\].*locked/);
      expect(decision(gated)).toBe('deny');
      expect(reason(gated)).toMatch(/^\[HOOK_ERROR\].*REVIEW_REQUIRED/);
      expect(decision(read)).toBeUndefined();
      expect(read.json?.systemMessage).toMatch(/failed open.*locked/);
      expect(stop.code).toBe(0);
      expect(stop.json?.decision).toBeUndefined();
      expect(stop.json?.systemMessage).toMatch(/REVIEW GATE NOT ENFORCED.*A review was pending/);
      const trace = readFileSync(join(store, 'sessions', sid, 'trace.jsonl'), 'utf8');
      expect(trace).toMatch(/roz:GateFailedOpen/);
    } finally {
      clearInterval(keep);
    }
  }, 60_000);
});
