// roz's hook on Codex CLI's payloads (the pinned client's samples, test/e2e/fixtures/clients/codex-0.169.0),
// as the hook process roz's launcher configures for Codex (ROZ_CLIENT=codex): its patch tool held to the
// same areas as the file tools, its project config protected, an `ask` nobody can answer turned into a
// deny, and the session's enforcement taken from the sandbox roz configured (ROZ_CLIENT_SANDBOX).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runHook, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const FIXTURES = join(repoRoot, 'test', 'e2e', 'fixtures', 'clients', 'codex-0.169.0');
const sample = (name: string, project: string, over: Record<string, unknown> = {}): Record<string, unknown> => {
  const doc = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8').replaceAll('/TMP/repo', project)) as Record<string, unknown>;
  return { ...doc, ...over };
};
const decision = (stdout: string): { permissionDecision?: string; permissionDecisionReason?: string } =>
  stdout.trim() ? ((JSON.parse(stdout) as { hookSpecificOutput?: object }).hookSpecificOutput ?? {}) : {};

describe("roz's hooks on Codex CLI 0.169.0's payloads", () => {
  const project = (): string => {
    const p = tempDir('roz-codex-project-');
    mkdirSync(join(p, 'src'));
    return p;
  };

  it('refuses an apply_patch into .codex/ or .orchestration/, and lets one into the project through', async () => {
    const p = project();
    const { env } = sandbox({ ROZ_CLIENT: 'codex', ROZ_CLIENT_SANDBOX: 'enforced', CLAUDE_PROJECT_DIR: p });
    const patch = (path: string) => ({ command: `*** Begin Patch\n*** Add File: ${path}\n+x\n*** End Patch\n` });
    const codexConfig = await runHook('PreToolUse', sample('PreToolUse-apply_patch', p, { tool_input: patch('.codex/config.toml') }), env);
    expect(decision(codexConfig.stdout).permissionDecision, codexConfig.stdout + codexConfig.stderr).toBe('deny');
    expect(decision(codexConfig.stdout).permissionDecisionReason).toContain("another coding client's project config");
    const orch = await runHook('PreToolUse', sample('PreToolUse-apply_patch', p, { tool_input: patch('.orchestration/agent_trace.jsonl') }), env);
    expect(decision(orch.stdout).permissionDecision).toBe('deny');
    const fine = await runHook('PreToolUse', sample('PreToolUse-apply_patch', p), env);
    expect(decision(fine.stdout).permissionDecision ?? 'none').not.toBe('deny');
  });

  it("turns the guard's ask into a deny the model reads (codex exec asks nobody), not for Claude Code (whose -p mode turns an ask into a denial itself)", async () => {
    const p = project();
    const rm = sample('PreToolUse', p, { tool_input: { command: 'rm -rf src' } });
    const codex = await runHook('PreToolUse', rm, sandbox({ ROZ_CLIENT: 'codex', CLAUDE_PROJECT_DIR: p }).env);
    expect(decision(codex.stdout)).toMatchObject({ permissionDecision: 'deny' });
    expect(decision(codex.stdout).permissionDecisionReason).toMatch(/^\[DESTRUCTIVE_BLOCKED\].*nobody can answer under Codex CLI/s);
    const claude = await runHook('PreToolUse', rm, sandbox({ CLAUDE_PROJECT_DIR: p }).env);
    expect(decision(claude.stdout)).toMatchObject({ permissionDecision: 'ask' });
  });

  it('under roz run: an ask the supervisor does not answer is refused (Codex would run it)', async () => {
    const p = project();
    const gone = join(tempDir('roz-codex-sock-'), 'gone.sock');
    const supervised = sandbox({
      ROZ_CLIENT: 'codex',
      CLAUDE_PROJECT_DIR: p,
      ROZ_SOCKET: gone,
      ROZ_TOKEN: 'x'.repeat(64),
      ROZ_APPROVAL_TIMEOUT_MS: '1000',
    }).env;
    const rm = await runHook('PreToolUse', sample('PreToolUse', p, { tool_input: { command: 'rm -rf src' } }), supervised);
    expect(decision(rm.stdout), rm.stdout + rm.stderr).toMatchObject({ permissionDecision: 'deny' });
    expect(decision(rm.stdout).permissionDecisionReason).toMatch(/^\[DESTRUCTIVE_BLOCKED\].*the supervisor did not answer/s);
    // Claude Code under the same fallback keeps the ask: its own dialog then asks the user.
    const claude = await runHook('PreToolUse', sample('PreToolUse', p, { tool_input: { command: 'rm -rf src' } }), { ...supervised, ROZ_CLIENT: '' });
    expect(decision(claude.stdout)).toMatchObject({ permissionDecision: 'ask' });
  });

  it("takes the session's enforcement from the sandbox roz configured, believed only of a codex with roz's profile; advisory said", async () => {
    const p = project();
    // (Enforced under a real `codex` started by roz exec: codex-exec.e2e.test.ts.) Claimed in the environment
    // by a process that is not a codex with roz's profile: not believed, and said.
    const claimed = sandbox({ ROZ_CLIENT: 'codex', ROZ_CLIENT_SANDBOX: 'enforced', CLAUDE_PROJECT_DIR: p });
    const a = await runHook('SessionStart', sample('SessionStart', p, { session_id: 'codex-enf' }), claimed.env);
    expect(a.stdout).toContain("no ancestor of this hook was started with roz's sandbox profile");
    expect(JSON.parse(readFileSync(join(claimed.store, 'sessions', 'codex-enf', 'state.json'), 'utf8')).enforcement).toMatchObject({ mode: 'advisory' });
    // Codex with roz's hooks but not started by roz exec (no sandbox roz configured): advisory, said.
    const bare = sandbox({ ROZ_CLIENT: 'codex', CLAUDE_PROJECT_DIR: p });
    const b = await runHook('SessionStart', sample('SessionStart', p, { session_id: 'codex-adv' }), bare.env);
    expect(b.stdout).toContain('ADVISORY mode: Codex CLI');
    expect(JSON.parse(readFileSync(join(bare.store, 'sessions', 'codex-adv', 'state.json'), 'utf8')).enforcement).toMatchObject({ mode: 'advisory' });
  });
});
