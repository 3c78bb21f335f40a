// A project's .roz/config.toml, as the hooks and `roz config` read it. The
// agent can write that file: here it tries to switch review off and make the
// circuit breaker give up at once, and fails, loudly; the tightening it may
// do (one more gate) applies.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { payloads, rozBin, runHook, runProcess, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const SID = 'project-config-1';

function projectWith(toml: string): string {
  const dir = tempDir('roz-proj-');
  mkdirSync(join(dir, '.git'));
  mkdirSync(join(dir, '.roz'));
  writeFileSync(join(dir, '.roz', 'config.toml'), toml);
  return dir;
}

describe('project config', () => {
  it('an agent-written .roz/config.toml cannot switch review off or weaken the breaker, and may add a gate', async () => {
    const proj = projectWith('[review]\nmode = "never"\ngates = ["Bash:git push*"]\n\n[circuit_breaker]\nmax_blocks = 1\n\n[storage]\npath = "/tmp"\n');
    const { env } = sandbox({ CLAUDE_PROJECT_DIR: proj });
    const p = payloads(SID, proj);

    const prompt = await runHook('UserPromptSubmit', p.prompt('#roz add a greeting'), env);
    expect(prompt.json?.systemMessage).toMatch(/review\.mode: "never" is looser than "prompt".*may only tighten/);
    expect(prompt.json?.systemMessage).toMatch(/storage\.path: not settable from a project file/);

    // The breaker keeps the user's max_blocks (3), not the project's 1: the second stop is still blocked.
    expect((await runHook('Stop', p.stop(), env)).json?.decision).toBe('block');
    expect((await runHook('Stop', p.stop(true), env)).json?.decision).toBe('block');

    const push = await runHook('PreToolUse', p.pre('Bash', { command: 'git push origin main' }), env);
    // A gate asks (a human may let the call run; review is still required at the stop).
    expect(push.json?.hookSpecificOutput?.permissionDecision).toBe('ask');
  });

  it('a backtracking gate glob answers a 120-character command in milliseconds, and still gates what it matches (issue 24)', async () => {
    // V8 took minutes on this glob as a RegExp, inside the session lock.
    const proj = projectWith('[review]\ngates = ["Bash:*a*a*a*a*a*a*a*a*a*a*a*a*b"]\n');
    const { env } = sandbox({ CLAUDE_PROJECT_DIR: proj });
    const p = payloads(SID, proj);
    const long = `echo ${'a'.repeat(115)}`;
    expect(long).toHaveLength(120);
    const started = Date.now();
    const pre = await runHook('PreToolUse', p.pre('Bash', { command: long }), env);
    const ms = Date.now() - started;
    expect(pre.code, pre.stderr).toBe(0);
    expect(pre.json?.hookSpecificOutput?.permissionDecision ?? 'allow').not.toBe('ask');
    // A whole hook process (node start-up included) on a loaded 2-core machine; the RegExp took minutes.
    expect(ms).toBeLessThan(5_000);
    const gated = await runHook('PreToolUse', p.pre('Bash', { command: `echo ${'a'.repeat(114)}b` }), env);
    expect(gated.json?.hookSpecificOutput?.permissionDecision).toBe('ask');
  });

  it('roz config shows both files, whether each exists, and the project as a source', async () => {
    const proj = projectWith('[circuit_breaker]\nmax_blocks = 5\n');
    const { env } = sandbox();
    const sub = join(proj, 'src');
    mkdirSync(sub);
    const r = await runProcess(process.execPath, [rozBin, 'config', '--json'], '', env, sub);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.files).toEqual([
      { layer: 'user', path: join(env.ROZ_STORAGE_PATH!, 'config.toml'), exists: false },
      { layer: 'project', path: join(proj, '.roz', 'config.toml'), exists: true },
    ]);
    expect(out.config.circuit_breaker.max_blocks).toBe(5);
    expect(out.sources['circuit_breaker.max_blocks']).toBe(`project:${join(proj, '.roz', 'config.toml')}`);
    const text = await runProcess(process.execPath, [rozBin, 'config'], '', env, sub);
    expect(text.stdout).toMatch(/user file: +\S+config\.toml \(missing\)/);
    expect(text.stdout).toMatch(/project file: +\S+\.roz\/config\.toml \(exists\)/);
  });
});
