// `roz exec -- gemini -p …` (issue 33): the real pinned Gemini CLI, offline
// against the scripted Gemini API, with roz's hooks in a system settings file
// roz writes (GEMINI_CLI_SYSTEM_SETTINGS_PATH). Gemini's tool names map onto
// roz's (run_shell_command is Bash, write_file is Write), a refusal reaches
// Gemini as its own `decision: "deny"`, a `replace` of a file changed since
// its `read_file` is refused as stale, and the run says advisory out loud:
// Gemini has no OS sandbox here.
import { ownerOnlyTempDir } from '../helpers/owner-only-dir.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanupsPerTest } from './harness/per-test.js';
import { GEMINI_BIN, geminiClientEnv, onGemini, startFakeGeminiApi, type GeminiReply } from './harness/fake-gemini-api.js';
import { jsonLines, runToEnd } from './harness/run-to-end.js';
import { createWorkspace, ROZ_BIN } from './harness/workspace.js';

interface LedgerRecord {
  files: Array<{ path: string }>;
  metadata: { 'dev.roz': { client?: string; tool_name: string; intent_id: string } };
}

describe.sequential('roz exec -- gemini -p (real Gemini CLI 0.61.0, offline)', () => {
  const cleanups = cleanupsPerTest();

  test("scope, ledger and guard through roz-configured hooks, above a project's settings that switch hooks off; advisory said", async () => {
    // Gemini ignores a system settings file below a folder others can write (all of /tmp): roz's store, where roz
    // writes that file, lives in this checkout for this test (and the run refuses to start otherwise, below).
    const store = ownerOnlyTempDir('.roz-e2e-gemini-');
    cleanups.push(() => rmSync(store, { recursive: true, force: true }));
    const ws = createWorkspace({ ROZ_REVIEW_MODE: 'never', ROZ_STORAGE_PATH: store });
    cleanups.push(ws.cleanup);
    mkdirSync(join(ws.repo, '.orchestration'));
    writeFileSync(
      join(ws.repo, '.orchestration', 'active_intents.yaml'),
      'active_intents:\n  - id: INT-001\n    name: Core\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n',
    );
    mkdirSync(join(ws.repo, 'src', 'gen'), { recursive: true });
    writeFileSync(join(ws.repo, 'src', 'gen', 'keep.txt'), 'keep\n');
    // Planted by an earlier session: a trusted project's settings that would switch hooks off. roz's system
    // settings sit above the project's, so its hooks still run.
    mkdirSync(join(ws.repo, '.gemini'));
    writeFileSync(join(ws.repo, '.gemini', 'settings.json'), JSON.stringify({ hooksConfig: { enabled: false }, hooks: {} }));
    execFileSync('git', ['add', '-A'], { cwd: ws.repo, env: ws.env });
    execFileSync('git', ['commit', '-q', '-m', 'intents'], { cwd: ws.repo, env: ws.env });
    const script: GeminiReply[] = [
      { call: 'run_shell_command', args: { command: 'roz intent select INT-001' } },
      { call: 'write_file', args: { file_path: join(ws.repo, 'src', 'a.ts'), content: 'export const a = 1;\n' } },
      { call: 'write_file', args: { file_path: join(ws.repo, 'docs', 'x.md'), content: 'out of scope\n' } },
      { call: 'run_shell_command', args: { command: 'rm -rf src/gen' } },
      // The attack from inside: rewrite the project's Gemini settings (roz's hook refuses; advisory, no sandbox).
      { call: 'write_file', args: { file_path: join(ws.repo, '.gemini', 'settings.json'), content: '{"hooksConfig":{"enabled":false}}\n' } },
    ];
    const api = await startFakeGeminiApi([
      ...script.map((reply, i) => ({ name: `step-${i}`, when: onGemini.afterResponses(i), reply })),
      { name: 'done', when: onGemini.afterResponses(script.length), reply: { say: 'Done.' } },
    ]);
    cleanups.push(api.close);
    const env = { ...ws.env, ...geminiClientEnv(ws.home, api) };
    const run = await runToEnd(
      process.execPath,
      [ROZ_BIN, 'exec', '--', GEMINI_BIN, '-m', 'gemini-2.5-flash', '--yolo', '-p', 'do the work'],
      ws.repo,
      env,
      120_000,
    );
    const why = `exit ${run.code}\nstderr:\n${run.stderr.slice(-4000)}`;
    expect(run.code, why).toBe(0);
    expect(run.stderr).toContain('roz exec: gemini: advisory:');
    const said = (i: number): string => JSON.stringify(api.requests.find((r) => r.functionResponses.length === i + 1)?.functionResponses[i]?.response ?? '');

    // In scope: written and recorded as gemini's Write.
    expect(readFileSync(join(ws.repo, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
    const ledgerFile = join(ws.repo, '.orchestration', 'agent_trace.jsonl');
    const ledger = jsonLines<LedgerRecord>(existsSync(ledgerFile) ? readFileSync(ledgerFile, 'utf8') : '');
    expect(ledger.map((r) => [r.metadata['dev.roz'].client, r.metadata['dev.roz'].tool_name, r.files.map((f) => f.path)])).toEqual([
      ['gemini', 'Write', ['src/a.ts']],
    ]);
    // Out of scope: refused, and the model read roz's reason.
    expect(existsSync(join(ws.repo, 'docs', 'x.md'))).toBe(false);
    expect(said(2)).toContain('not in the owned_scope of intent INT-001');
    // The guard: an ask nobody answers is a deny.
    expect(existsSync(join(ws.repo, 'src', 'gen', 'keep.txt'))).toBe(true);
    expect(said(3)).toContain('DESTRUCTIVE_BLOCKED');
    expect(said(3)).toContain('nobody can answer under Gemini CLI');
    expect(said(4)).toContain("another coding client's project config (.codex/, .gemini/)");
    expect(readFileSync(join(ws.repo, '.gemini', 'settings.json'), 'utf8')).toContain('"hooks":{}');
  }, 150_000);

  test("stale files: replace of a file changed on disk since read_file is refused with roz's reason, and goes through after a new read_file", async () => {
    const store = ownerOnlyTempDir('.roz-e2e-gemini-');
    cleanups.push(() => rmSync(store, { recursive: true, force: true }));
    const ws = createWorkspace({ ROZ_REVIEW_MODE: 'never', ROZ_STORAGE_PATH: store });
    cleanups.push(ws.cleanup);
    mkdirSync(join(ws.repo, '.orchestration'));
    writeFileSync(
      join(ws.repo, '.orchestration', 'active_intents.yaml'),
      'active_intents:\n  - id: INT-001\n    name: Core\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n',
    );
    const file = join(ws.repo, 'src', 'c.ts');
    mkdirSync(join(ws.repo, 'src'));
    writeFileSync(file, 'export const one = 1;\nexport const two = 2;\nexport const three = 3;\n');
    execFileSync('git', ['add', '-A'], { cwd: ws.repo, env: ws.env });
    execFileSync('git', ['commit', '-q', '-m', 'intents'], { cwd: ws.repo, env: ws.env });
    const flag = join(ws.root, 'go.flag');
    const replace = { call: 'replace', args: { file_path: file, instruction: 'one to eleven', old_string: 'one = 1;', new_string: 'one = 11;' } };
    const script: GeminiReply[] = [
      { call: 'run_shell_command', args: { command: 'roz intent select INT-001' } },
      { call: 'read_file', args: { file_path: file } },
      // While its shell waits, someone else changes a line its replace does not touch.
      { call: 'run_shell_command', args: { command: `while [ ! -f ${flag} ]; do sleep 0.1; done; echo waited` } },
      replace,
      { call: 'read_file', args: { file_path: file } },
      replace,
    ];
    const api = await startFakeGeminiApi([
      ...script.map((reply, i) => ({ name: `step-${i}`, when: onGemini.afterResponses(i), reply })),
      { name: 'done', when: onGemini.afterResponses(script.length), reply: { say: 'Done.' } },
    ]);
    cleanups.push(api.close);
    const env = { ...ws.env, ...geminiClientEnv(ws.home, api) };
    const running = runToEnd(
      process.execPath,
      [ROZ_BIN, 'exec', '--', GEMINI_BIN, '-m', 'gemini-2.5-flash', '--yolo', '-p', 'do the work'],
      ws.repo,
      env,
      120_000,
    );
    // read_file's result (after its AfterTool hook) went back to the model: change the file, then let the shell go on.
    const deadline = Date.now() + 90_000;
    while (!api.requests.some((r) => r.functionResponses.length >= 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    writeFileSync(file, 'export const one = 1;\nexport const two = 2;\nexport const three = 33;\n');
    writeFileSync(flag, '');
    const run = await running;
    const why = `exit ${run.code}\nstderr:\n${run.stderr.slice(-4000)}`;
    expect(run.code, why).toBe(0);
    const said = (i: number): string => JSON.stringify(api.requests.find((r) => r.functionResponses.length === i + 1)?.functionResponses[i]?.response ?? '');
    expect(said(2), why).toContain('waited');
    expect(said(3)).toContain('[STALE_FILE] roz: src/c.ts changed on disk since you last read it');
    expect(readFileSync(file, 'utf8')).toBe('export const one = 11;\nexport const two = 2;\nexport const three = 33;\n');
    const ledgerFile = join(ws.repo, '.orchestration', 'agent_trace.jsonl');
    const ledger = jsonLines<LedgerRecord>(existsSync(ledgerFile) ? readFileSync(ledgerFile, 'utf8') : '');
    expect(ledger.map((r) => [r.metadata['dev.roz'].tool_name, r.files.map((f) => f.path)])).toEqual([['Edit', ['src/c.ts']]]);
  }, 150_000);

  test("refuses to start where Gemini would ignore roz's settings file (a store under /tmp): fails closed", async () => {
    const ws = createWorkspace();
    cleanups.push(ws.cleanup);
    const run = await runToEnd(process.execPath, [ROZ_BIN, 'exec', '--', GEMINI_BIN, '-p', 'hi'], ws.repo, ws.env, 60_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("so roz's hooks would not run");
  }, 90_000);
});
