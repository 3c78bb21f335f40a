// Files roz reads that the agent can replace: a FIFO, a device or a directory
// at the path must never make a hook wait; it is refused with a clear message,
// and what depends on it fails the way its policy does (governance closed,
// the review gate open with a warning).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../governance/helpers.js';
import { payloads, runHook, sandbox, type ProcResult } from '../helpers/hooks.js';

const mkfifo = (p: string) => execFileSync('mkfifo', [p]);

/** A hook that answers well inside the client's timeout (a FIFO used to block it until the client killed it). */
async function quick(event: string, payload: unknown, env: NodeJS.ProcessEnv): Promise<ProcResult> {
  const t0 = Date.now();
  const r = await runHook(event, payload, env);
  expect(Date.now() - t0).toBeLessThan(10_000);
  expect(r.code).toBe(0);
  return r;
}

const decision = (r: ProcResult) => r.json?.hookSpecificOutput?.permissionDecision;
const reason = (r: ProcResult) => String(r.json?.hookSpecificOutput?.permissionDecisionReason ?? '');

describe('untrusted files are read only when regular, never waited on', () => {
  it('a FIFO at the config path: every hook answers at once, names the problem, and runs on defaults', async () => {
    const { env, store } = sandbox();
    mkdirSync(store, { recursive: true });
    mkfifo(join(store, 'config.toml'));
    const p = payloads('fifo-config');
    const start = await quick('SessionStart', p.sessionStart(), env);
    expect(start.json?.systemMessage).toMatch(/config.*FIFO/);
    await quick('UserPromptSubmit', p.prompt('#roz do it'), env);
    // Defaults: review is on for #roz, so the stop is blocked.
    const stop = await quick('Stop', p.stop(), env);
    expect(stop.json?.decision).toBe('block');
  }, 60_000);

  it('a device or a directory at the config path is refused the same way', async () => {
    const { env, store } = sandbox();
    mkdirSync(store, { recursive: true });
    symlinkSync('/dev/zero', join(store, 'config.toml'));
    const r = await quick('Stop', payloads('dev-config').stop(), env);
    expect(r.json?.systemMessage).toMatch(/config.*a device/);
    rmSync(join(store, 'config.toml'));
    mkdirSync(join(store, 'config.toml'));
    const d = await quick('Stop', payloads('dir-config').stop(), env);
    expect(d.json?.systemMessage).toMatch(/config.*a directory/);
  }, 60_000);

  it('a FIFO as a block template: the stop is still blocked, with the built-in template', async () => {
    const { env, store } = sandbox({ ROZ_TEMPLATE: 'v1' });
    mkdirSync(join(store, 'templates'), { recursive: true });
    mkfifo(join(store, 'templates', 'block-v1.md'));
    const p = payloads('fifo-template');
    await quick('UserPromptSubmit', p.prompt('#roz do it'), env);
    const stop = await quick('Stop', p.stop(), env);
    expect(stop.json?.decision).toBe('block');
    expect(stop.json?.reason).toMatch(/roz:roz/);
  }, 60_000);

  it('a FIFO at active_intents.yaml or .intentignore: governed writes are denied, reads go on', async () => {
    for (const file of ['active_intents.yaml', '.intentignore']) {
      const proj = makeProject({ git: true });
      const { env } = sandbox();
      rmSync(join(proj.root, '.orchestration', file), { force: true });
      mkfifo(join(proj.root, '.orchestration', file));
      const p = payloads(`fifo-${file.replace(/\W/g, '')}`, proj.root);
      const write = await quick('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }), env);
      expect(decision(write)).toBe('deny');
      expect(reason(write)).toMatch(/^\[HOOK_ERROR\].*FIFO/);
      const read = await quick('PreToolUse', p.pre('Read', { file_path: join(proj.root, 'README.md') }), env);
      expect(decision(read)).toBeUndefined();
    }
  }, 60_000);

  it('a FIFO as the file an Edit targets, or as the ledger: no hang', async () => {
    const proj = makeProject({ git: true });
    const { env } = sandbox();
    mkfifo(join(proj.root, 'src', 'auth', 'pipe.ts'));
    mkfifo(join(proj.root, '.orchestration', 'agent_trace.jsonl'));
    const p = payloads('fifo-target', proj.root);
    await quick('PreToolUse', p.pre('Read', { file_path: join(proj.root, 'src/auth/pipe.ts') }), env);
    await quick('PostToolUse', p.post('Read', { file_path: join(proj.root, 'src/auth/pipe.ts') }), env);
    await quick('PreToolUse', p.pre('Edit', { file_path: join(proj.root, 'src/auth/pipe.ts'), old_string: 'a', new_string: 'b' }), env);
    await quick('PostToolUse', p.post('Write', { file_path: join(proj.root, 'src/auth/pipe.ts'), content: 'x' }), env);
  }, 60_000);
});
