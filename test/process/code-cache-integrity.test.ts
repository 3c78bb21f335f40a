// The hook's V8 code cache under attack or corruption (plugin/bin/roz): keyed
// by the bundle's content, a corrupt cache never kills a hook, a cache that
// runs other code (same source length) never leaves the client without an
// answer, and each is discarded and rebuilt.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../governance/helpers.js';
import { payloads, pluginDir, rozBin, runHook, runProcess, sandbox } from '../helpers/hooks.js';

const hookBundle = join(pluginDir, 'dist', 'hook.cjs');
const poisoner = join(import.meta.dirname, 'fixtures', 'poison-cache.cjs');
const mainCaches = (dir: string) => readdirSync(dir).filter((f) => /^hook-v.*\.v8$/.test(f));

/**
 * A sandbox whose UserPromptSubmit code cache one hook has written (each event
 * has caches of its own, plugin/bin/roz); `direct` runs the launcher without hooks.json's node flags.
 */
async function cached(sessionId: string, direct = false) {
  const { env, home } = sandbox();
  const dir = join(home, '.cache', 'roz');
  const p = payloads(sessionId);
  const hook = (event: string, cli: string, payload: unknown) =>
    direct ? runProcess(process.execPath, [rozBin, 'hook', cli], JSON.stringify(payload), env) : runHook(event, payload, env);
  await hook('SessionStart', 'session-start', p.sessionStart());
  await hook('UserPromptSubmit', 'user-prompt', p.prompt('hello'));
  const name = mainCaches(dir).find((f) => f.endsWith('.user-prompt.v8'));
  return { env, p, dir, hook, file: join(dir, name!) };
}

/** Flip bytes in the middle of a valid cache: the header still passes V8's checks. */
function corrupt(file: string): Buffer {
  const b = readFileSync(file);
  for (let i = 0; i < 400; i++) b[Math.floor(b.length / 2) + i * 7]! ^= 0x55;
  writeFileSync(file, b);
  return b;
}

describe('code cache integrity', () => {
  it('names the cache by the bundle content hash the build stamped on it, with V8 checksums under hooks.json', async () => {
    const stamp = /\/\/# roz-sha256=([0-9a-f]{64})\n$/.exec(readFileSync(hookBundle, 'utf8'))?.[1];
    expect(stamp).toBeDefined();
    const { file } = await cached('cc-name');
    expect(file).toContain(`-${stamp!.slice(0, 32)}-ck.user-prompt.v8`);
  });

  it('a corrupt cache under hooks.json is rejected by its checksum (no crash) and replaced', async () => {
    const { file, hook, p } = await cached('cc-corrupt');
    const bad = corrupt(file);
    await hook('UserPromptSubmit', 'user-prompt', p.prompt('#roz do it'));
    const stop = await hook('Stop', 'stop', p.stop());
    expect(stop.code).toBe(0);
    expect(stop.json?.decision).toBe('block');
    expect(readFileSync(file).equals(bad)).toBe(false);
  });

  it('a corrupt cache without checksums kills at most one hook: the next one finds its marker, discards and rebuilds', async () => {
    const { file, hook, p, dir } = await cached('cc-crash', true);
    const bad = corrupt(file);
    const first = await hook('UserPromptSubmit', 'user-prompt', p.prompt('#roz do it'));
    // V8 usually dies deserializing it (before: every hook, exit 133/139); the run's marker stays behind.
    if (first.code !== 0) expect(readdirSync(dir).some((f) => /\.run-\d+$/.test(f))).toBe(true);
    const second = await hook('UserPromptSubmit', 'user-prompt', p.prompt('#roz do it'));
    expect(second.code).toBe(0);
    expect(second.json?.hookSpecificOutput?.additionalContext).toMatch(/roz/);
    const stop = await hook('Stop', 'stop', p.stop());
    expect(stop.json?.decision).toBe('block');
    expect(existsSync(file) && readFileSync(file).equals(bad)).toBe(false);
    expect(readdirSync(dir).filter((f) => /\.run-\d+$/.test(f))).toEqual([]);
  });

  it('a same-length cache that runs other code never leaves the client with no answer, and is discarded', async () => {
    const proj = makeProject({ git: true });
    const { env, home } = sandbox();
    const dir = join(home, '.cache', 'roz');
    const p = payloads('cc-poison', proj.root);
    await runHook('SessionStart', p.sessionStart(), env);
    await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/auth/first.ts'), content: 'x' }), env);
    const name = mainCaches(dir).find((f) => f.endsWith('.pre-tool-use.v8'));
    const file = join(dir, name!);
    // Built with hooks.json's flags, so its checksum is valid: only the code differs.
    execFileSync(process.execPath, ['--verify-snapshot-checksum', poisoner, hookBundle, file, 'process.exit(0)']);
    const poisoned = readFileSync(file);
    const write = await runHook('PreToolUse', p.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }), env);
    expect(write.code).toBe(0);
    // Governed change: the launcher's own answer denies it; never an empty stdout.
    expect(write.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(write.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(/^\[HOOK_ERROR\].*without answering/);
    expect(existsSync(file) && readFileSync(file).equals(poisoned)).toBe(false);
    // The next hook runs the real bundle again.
    await runHook('UserPromptSubmit', p.prompt('#roz do it'), env);
    const stop = await runHook('Stop', p.stop(), env);
    expect(stop.json?.decision).toBe('block');
    // The next PreToolUse (the event whose cache was poisoned) runs the bundle and rebuilds its cache.
    const again = await runHook('PreToolUse', p.pre('Read', { file_path: join(proj.root, 'README.md') }), env);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toMatch(/without answering/);
    expect(statSync(file).size).toBeGreaterThan(0);
  });
});
