// Governance taken over with documented features, at hook level: a nested
// `.orchestration/` chosen with `--project`, `roz intent select` overrides
// from the agent's Bash, and `.intentignore` patterns that reach too far.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../governance/helpers.js';
import { payloads, rozBin, runHook, runProcess, sandbox, type ProcResult } from '../helpers/hooks.js';

const decision = (r: ProcResult) => r.json?.hookSpecificOutput?.permissionDecision;
const reason = (r: ProcResult) => String(r.json?.hookSpecificOutput?.permissionDecisionReason ?? '');
const MINE = 'active_intents:\n  - id: MINE\n    name: Everything\n    status: IN_PROGRESS\n    owned_scope: ["**"]\n';

describe('governance cannot be taken over', () => {
  it('a nested src/.orchestration chosen with --project does not govern: the project (CLAUDE_PROJECT_DIR) does', async () => {
    const proj = makeProject({ git: true });
    const { env: base } = sandbox();
    const env = { ...base, CLAUDE_PROJECT_DIR: proj.root };
    const sid = 'nested-1';
    const p = payloads(sid, proj.root);
    await runHook('SessionStart', p.sessionStart(), env);
    // Written by something the hooks did not see (advisory mode), then selected as a human would.
    mkdirSync(join(proj.root, 'src', '.orchestration'), { recursive: true });
    writeFileSync(join(proj.root, 'src', '.orchestration', 'active_intents.yaml'), MINE);
    const sel = await runProcess(
      process.execPath,
      [rozBin, 'intent', 'select', 'MINE', '--project', join(proj.root, 'src'), '--session', sid],
      '',
      base,
      proj.root,
    );
    expect(sel.code, sel.stderr).toBe(0);
    const write = await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/billing/x.ts'), content: 'x' }), env);
    expect(decision(write)).toBe('deny');
    expect(reason(write)).toMatch(/^\[INTENT_REQUIRED\].*MINE/);
    // Also from a cwd inside the nested folder.
    const inner = await runHook(
      'PreToolUse',
      payloads(sid, join(proj.root, 'src')).pre('Write', { file_path: join(proj.root, 'src/billing/x.ts'), content: 'x' }),
      env,
    );
    expect(decision(inner)).toBe('deny');
  });

  it('`roz intent select` from the agent: recorded by the hook when plain, refused with --project or chained; the CLI refuses --project under Claude Code', async () => {
    const proj = makeProject({ git: true });
    const { env: base } = sandbox();
    const env = { ...base, CLAUDE_PROJECT_DIR: proj.root };
    const sid = 'select-1';
    const p = payloads(sid, proj.root);
    for (const cmd of [
      'roz intent select INT-001 --project src',
      'true && roz intent select INT-001',
      'roz intent select INT-001 --session someone-else',
      'env -u CLAUDECODE roz intent select INT-001 --project=src',
    ]) {
      const r = await runHook('PreToolUse', p.pre('Bash', { command: cmd }), env);
      expect(decision(r), cmd).toBe('deny');
      expect(reason(r), cmd).toMatch(/^\[INTENT_REQUIRED\] roz: `roz intent select` refused/);
    }
    const before = await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }), env);
    expect(decision(before)).toBe('deny');
    const plain = await runHook('PreToolUse', p.pre('Bash', { command: 'roz intent select INT-001' }), env);
    expect(decision(plain)).toBe('allow');
    expect(reason(plain)).toMatch(/INT-001 selected for this session/);
    const after = await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }), env);
    expect(decision(after)).toBeUndefined();
    // The CLI the agent then runs reports what the hook recorded, and never takes --project from it.
    const agentEnv = { ...env, CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: sid };
    const report = await runProcess(process.execPath, [rozBin, 'intent', 'select', 'INT-001'], '', agentEnv, proj.root);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/recorded by roz's hook/);
    const override = await runProcess(process.execPath, [rozBin, 'intent', 'select', 'INT-001', '--project', proj.root], '', agentEnv, proj.root);
    expect(override.code).toBe(2);
    expect(override.stderr).toMatch(/--project is for a human/);
  });

  it('.intentignore patterns that reach outside the project or into .orchestration are refused, and said so', async () => {
    const proj = makeProject({ git: true, ignore: '/**\n**\n../other/**\n.orchestration/\ndist/\n' });
    const { env: base } = sandbox();
    const env = { ...base, CLAUDE_PROJECT_DIR: proj.root };
    const p = payloads('ignore-1', proj.root);
    const start = await runHook('SessionStart', p.sessionStart(), env);
    expect(start.json?.systemMessage).toMatch(/refused `\/\*\*`.*`\*\*`.*`\.\.\/other\/\*\*`.*`\.orchestration\/`/);
    // Still governed: no intent, so a change is refused, inside and outside the project.
    for (const file of [join(proj.root, 'src/auth/a.ts'), join(proj.outside, 'x.txt')]) {
      const w = await runHook('PreToolUse', p.pre('Write', { file_path: file, content: 'x' }), env);
      expect(decision(w), file).toBe('deny');
    }
    // What the human meant still works.
    const dist = await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'dist/b.js'), content: 'x' }), env);
    expect(decision(dist)).toBeUndefined();
    expect(readFileSync(join(proj.root, '.orchestration/.intentignore'), 'utf8')).toMatch(/\/\*\*/);
  });

  it('an owned_scope glob roz cannot match in bounded time matches nothing, and is said (issue 24)', async () => {
    // picomatch passes `\\1` through as a backreference: not regular, so no linear matcher; a RegExp could backtrack.
    const intents = 'active_intents:\n  - id: INT-9\n    name: Odd\n    status: IN_PROGRESS\n    owned_scope: ["src/(a)\\\\1/**", "docs/**"]\n';
    const proj = makeProject({ git: true, intents });
    const { env: base } = sandbox();
    const env = { ...base, CLAUDE_PROJECT_DIR: proj.root };
    const p = payloads('scope-refused-1', proj.root);
    const start = await runHook('SessionStart', p.sessionStart(), env);
    expect(start.json?.systemMessage).toMatch(/intent INT-9: owned_scope `src\/\(a\)\\1\/\*\*` cannot be matched in bounded time/);
    const sel = await runProcess(process.execPath, [rozBin, 'intent', 'select', 'INT-9', '--session', 'scope-refused-1'], '', base, proj.root);
    expect(sel.code, sel.stderr).toBe(0);
    // The refused glob allows nothing (out of scope: a human is asked); the other glob of the intent still allows.
    expect(['ask', 'deny']).toContain(decision(await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/aa/x.ts'), content: 'x' }), env)));
    expect(decision(await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'docs/x.md'), content: 'x' }), env))).toBeUndefined();
  });
});
