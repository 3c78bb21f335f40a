// The stale-file rule for Codex CLI and Gemini CLI, through the built hook on each client's recorded
// payload shapes (test/e2e/fixtures/clients), with ROZ_CLIENT as roz's launcher sets it. Codex has
// no read tool: what its shell's plain `cat`/`sed -n` showed it is its read, and an apply_patch of a
// file changed on disk since is refused as Claude Code's Edit is. Gemini's read_file is roz's Read,
// its replace/write_file are Edit/Write.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../governance/helpers.js';
import { repoRoot, runHook, sandbox, type ProcResult } from '../helpers/hooks.js';

const fixture = (client: string, name: string, project: string, over: Record<string, unknown>): Record<string, unknown> => {
  const doc = JSON.parse(
    readFileSync(join(repoRoot, 'test', 'e2e', 'fixtures', 'clients', client, `${name}.json`), 'utf8').replaceAll('/TMP/repo', project),
  ) as Record<string, unknown>;
  return { ...doc, ...over };
};
// One session (the samples come from several runs).
const codex = (name: string, project: string, over: Record<string, unknown> = {}) =>
  fixture('codex-0.169.0', name, project, { session_id: 'codex-stale', ...over });
const gemini = (name: string, project: string, over: Record<string, unknown> = {}) => fixture('gemini-0.61.0', name, project, over);

// Codex reads a refusal as Claude Code does (hookSpecificOutput); Gemini from a top-level decision.
const codexDecision = (r: ProcResult): { permissionDecision?: string; permissionDecisionReason?: string } => r.json?.hookSpecificOutput ?? {};
const geminiDecision = (r: ProcResult): { decision?: string; reason?: string } => (r.json ?? {}) as { decision?: string; reason?: string };

const ORIGINAL = 'export const one = 1;\nexport const two = 2;\nexport const three = 3;\n';
// Another session changes a line the agent's patch does not touch: the patch's context still matches.
const CHANGED = 'export const one = 1;\nexport const two = 2;\nexport const three = 33;\n';
const updatePatch = (rel: string) => ({
  command: `*** Begin Patch\n*** Update File: ${rel}\n@@\n-export const one = 1;\n+export const one = 11;\n export const two = 2;\n*** End Patch\n`,
});

describe("stale files under Codex CLI 0.169.0's hooks", () => {
  const setup = async () => {
    const proj = makeProject({ git: true });
    const file = proj.write('src/auth/a.ts', ORIGINAL);
    proj.write('src/auth/b.ts', ORIGINAL);
    const { env } = sandbox({ ROZ_CLIENT: 'codex', CLAUDE_PROJECT_DIR: proj.root });
    const bash = (event: 'PreToolUse' | 'PostToolUse', command: string) =>
      runHook(event, codex(event === 'PreToolUse' ? 'PreToolUse' : 'PostToolUse', proj.root, { tool_input: { command }, tool_response: '' }), env);
    const patch = (rel: string) => runHook('PreToolUse', codex('PreToolUse-apply_patch', proj.root, { tool_input: updatePatch(rel) }), env);
    await runHook('SessionStart', codex('SessionStart', proj.root), env);
    await bash('PreToolUse', 'roz intent select INT-001');
    return { proj, file, env, bash, patch };
  };

  it('refuses a patch of a file changed since its shell showed it, with STALE_FILE and the shell re-read, records nothing; a re-read lets it through', async () => {
    const { proj, file, bash, patch } = await setup();
    await bash('PostToolUse', "sed -n '1,20p' src/auth/a.ts");
    writeFileSync(file, CHANGED);
    const stale = await patch('src/auth/a.ts');
    expect(codexDecision(stale).permissionDecision, stale.stdout + stale.stderr).toBe('deny');
    expect(codexDecision(stale).permissionDecisionReason).toMatch(
      /^\[STALE_FILE\] roz: src\/auth\/a\.ts changed on disk since you last read it .*Re-read it in your shell \(`cat` or `sed -n`\)/s,
    );
    // Refused at PreToolUse: Codex runs nothing, and roz wrote no ledger record.
    expect(existsSync(join(proj.root, '.orchestration', 'agent_trace.jsonl'))).toBe(false);
    await bash('PostToolUse', 'cat src/auth/a.ts');
    const fresh = await patch('src/auth/a.ts');
    expect(codexDecision(fresh).permissionDecision ?? 'none', fresh.stdout + fresh.stderr).not.toBe('deny');
  });

  it('a search that printed lines of the file is its read (rg -n); one that printed only names (rg -l) is not, so that patch is not checked', async () => {
    const { proj, file, bash, patch } = await setup();
    await bash('PostToolUse', 'rg -n -C 2 one src/auth/a.ts | head -40');
    writeFileSync(file, CHANGED);
    const stale = await patch('src/auth/a.ts');
    expect(codexDecision(stale).permissionDecisionReason ?? '', stale.stdout + stale.stderr).toMatch(
      /^\[STALE_FILE\] roz: src\/auth\/a\.ts changed on disk since you last read it/,
    );
    await bash('PostToolUse', 'grep -l one src/auth/b.ts');
    writeFileSync(join(proj.root, 'src/auth/b.ts'), CHANGED);
    const unseen = await patch('src/auth/b.ts');
    expect(codexDecision(unseen).permissionDecision ?? 'none', unseen.stdout + unseen.stderr).not.toBe('deny');
  });

  it("holds a file its own patch wrote; a file its shell only sent elsewhere is not checked (as Claude Code's Bash)", async () => {
    const { proj, file, env, bash, patch } = await setup();
    // Codex applied its patch, then its PostToolUse: the agent holds what it wrote, and a change after that is stale.
    writeFileSync(file, ORIGINAL.replace('one = 1', 'one = 11'));
    const post = await runHook('PostToolUse', codex('PostToolUse-apply_patch', proj.root, { tool_input: updatePatch('src/auth/a.ts') }), env);
    expect(post.code, post.stderr).toBe(0);
    writeFileSync(file, CHANGED);
    const stale = await patch('src/auth/a.ts');
    expect(codexDecision(stale).permissionDecisionReason ?? '', stale.stdout + stale.stderr).toMatch(
      /^\[STALE_FILE\] roz: src\/auth\/a\.ts changed on disk since you last wrote it/,
    );
    // `cat > /dev/null` showed the agent nothing: not a read, so its patch is not checked.
    await bash('PostToolUse', 'cat src/auth/b.ts > /dev/null');
    writeFileSync(join(proj.root, 'src/auth/b.ts'), CHANGED);
    const unseen = await patch('src/auth/b.ts');
    expect(codexDecision(unseen).permissionDecision ?? 'none', unseen.stdout + unseen.stderr).not.toBe('deny');
  });
});

describe("stale files under Gemini CLI 0.61.0's hooks", () => {
  it('read_file records the read; replace and write_file of the file changed since are refused; a new read_file lets them through', async () => {
    const proj = makeProject({ git: true });
    const file = proj.write('src/auth/a.ts', ORIGINAL);
    const { env } = sandbox({ ROZ_CLIENT: 'gemini', CLAUDE_PROJECT_DIR: proj.root });
    await runHook('SessionStart', gemini('SessionStart', proj.root), env);
    await runHook('PreToolUse', gemini('BeforeTool.run_shell_command', proj.root, { tool_input: { command: 'roz intent select INT-001' } }), env);
    const read = () =>
      runHook(
        'PostToolUse',
        gemini('AfterTool.write_file', proj.root, {
          tool_name: 'read_file',
          tool_input: { file_path: file },
          tool_response: { llmContent: ORIGINAL, returnDisplay: '' },
        }),
        env,
      );
    const replace = () =>
      runHook(
        'PreToolUse',
        gemini('BeforeTool.write_file', proj.root, {
          tool_name: 'replace',
          tool_input: { file_path: file, instruction: 'one to eleven', old_string: 'one = 1;', new_string: 'one = 11;' },
        }),
        env,
      );
    const write = () => runHook('PreToolUse', gemini('BeforeTool.write_file', proj.root, { tool_input: { file_path: file, content: 'x\n' } }), env);

    expect((await read()).code).toBe(0);
    writeFileSync(file, CHANGED);
    for (const call of [replace, write]) {
      const r = await call();
      expect(geminiDecision(r).decision, r.stdout + r.stderr).toBe('deny');
      expect(geminiDecision(r).reason).toMatch(/^\[STALE_FILE\] roz: src\/auth\/a\.ts changed on disk since you last read it .*Re-read it with the Read tool/s);
    }
    await read();
    for (const call of [replace, write]) {
      const r = await call();
      expect(geminiDecision(r).decision ?? 'none', r.stdout + r.stderr).not.toBe('deny');
    }
  });
});
