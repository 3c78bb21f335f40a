// Paths the agent folds around the checks, at hook level (JSON on stdin to the
// built hook): `..` after a symlink, a dangling link into roz's store, and hard
// links of protected files.
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../governance/helpers.js';
import { payloads, rozBin, runHook, runProcess, sandbox, type ProcResult } from '../helpers/hooks.js';

const decision = (r: ProcResult) => r.json?.hookSpecificOutput?.permissionDecision;
const reason = (r: ProcResult) => String(r.json?.hookSpecificOutput?.permissionDecisionReason ?? '');

/** A governed project whose session has INT-001 (owned_scope src/auth/**) selected. */
async function governed(sid: string) {
  const proj = makeProject({ git: true });
  const { env, store } = sandbox();
  const p = payloads(sid, proj.root);
  await runHook('SessionStart', p.sessionStart(), env);
  const sel = await runProcess(process.execPath, [rozBin, 'intent', 'select', 'INT-001', '--session', sid], '', env, proj.root);
  expect(sel.code, sel.stderr).toBe(0);
  return { proj, env, store, p };
}

describe('path resolution that cannot be folded around', () => {
  it('`..` after a symlink is applied to the link target, not folded away first', async () => {
    const { proj, env, p } = await governed('fold-1');
    // src/auth/l -> ../../src: lexically src/auth/l/../.orchestration is src/auth/.orchestration (in scope);
    // to the kernel it is <root>/.orchestration.
    symlinkSync('../../src', join(proj.root, 'src', 'auth', 'l'));
    const sneaky = 'src/auth/l/../.orchestration/active_intents.yaml';
    const write = await runHook('PreToolUse', p.pre('Write', { file_path: `${proj.root}/${sneaky}`, content: 'active_intents: []\n' }), env);
    expect(decision(write)).toBe('deny');
    // Enforce's protected-path check (first in dispatch) or governance's scope check: both see the real path now.
    expect(reason(write)).toMatch(/^\[(PROTECTED_PATH|SCOPE_VIOLATION)\].*\.orchestration/);
    const bash = await runHook('PreToolUse', p.pre('Bash', { command: `echo 'active_intents: []' > ${sneaky}` }), env);
    expect(decision(bash)).toBe('deny');
    // A plain in-scope write is still allowed.
    const ok = await runHook('PreToolUse', p.pre('Write', { file_path: `${proj.root}/src/auth/x/../a.ts`, content: 'x' }), env);
    expect(decision(ok)).toBeUndefined();
  });

  it('a dangling symlink into the store is caught (the review gate guards the store in any directory)', async () => {
    const { env, store, home } = sandbox();
    const work = join(home, 'work');
    mkdirSync(work, { recursive: true });
    const sid = 'dangle-1';
    const p = payloads(sid, work);
    await runHook('SessionStart', p.sessionStart(), env);
    symlinkSync(join(store, 'sessions', sid, 'forged.json'), join(work, 'notes.json'));
    const write = await runHook('PreToolUse', p.pre('Write', { file_path: join(work, 'notes.json'), content: '{}' }), env);
    expect(decision(write)).toBe('deny');
    expect(reason(write)).toMatch(/^\[STORE_PROTECTED\]/);
    const bash = await runHook('PreToolUse', p.pre('Bash', { command: 'echo {} > notes.json' }), env);
    expect(decision(bash)).toBe('deny');
  });

  it('a hard link of a protected file is that file: .orchestration in a governed project, the session state anywhere', async () => {
    const { proj, env, p } = await governed('hard-1');
    linkSync(join(proj.root, '.orchestration', 'active_intents.yaml'), join(proj.root, 'src', 'auth', 'intents.yaml'));
    const write = await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/auth/intents.yaml'), content: 'x' }), env);
    expect(decision(write)).toBe('deny');
    expect(reason(write)).toMatch(/^\[SCOPE_VIOLATION\].*\.orchestration/);
    const edit = await runHook('PreToolUse', p.pre('Edit', { file_path: join(proj.root, 'src/auth/intents.yaml'), old_string: 'a', new_string: 'b' }), env);
    expect(decision(edit)).toBe('deny');

    const { env: env2, store, home } = sandbox();
    const work = join(home, 'work');
    mkdirSync(work, { recursive: true });
    const q = payloads('hard-2', work);
    await runHook('UserPromptSubmit', q.prompt('#roz do it'), env2);
    linkSync(join(store, 'sessions', 'hard-2', 'state.json'), join(work, 'state-copy.json'));
    const forge = await runHook('PreToolUse', q.pre('Write', { file_path: join(work, 'state-copy.json'), content: '{}' }), env2);
    expect(decision(forge)).toBe('deny');
    expect(reason(forge)).toMatch(/^\[STORE_PROTECTED\]/);
    // Protected files outside the store: the config ($ROZ_CONFIG) and the project's .claude/ settings.
    const config = join(home, 'roz.toml');
    writeFileSync(config, '[review]\nmode = "prompt"\n');
    linkSync(config, join(work, 'cfg.toml'));
    mkdirSync(join(work, '.claude'), { recursive: true });
    writeFileSync(join(work, '.claude', 'settings.json'), '{}');
    linkSync(join(work, '.claude', 'settings.json'), join(work, 'prefs.json'));
    for (const f of ['cfg.toml', 'prefs.json']) {
      const r = await runHook('PreToolUse', q.pre('Write', { file_path: join(work, f), content: 'x' }), { ...env2, ROZ_CONFIG: config });
      expect(decision(r), f).toBe('deny');
      expect(reason(r), f).toMatch(/^\[PROTECTED_PATH\]/);
    }
    // An ordinary file with two links is not protected.
    writeFileSync(join(work, 'a.txt'), 'a');
    linkSync(join(work, 'a.txt'), join(work, 'b.txt'));
    const plain = await runHook('PreToolUse', q.pre('Write', { file_path: join(work, 'b.txt'), content: 'b' }), env2);
    expect(decision(plain)).toBeUndefined();
  });
});
