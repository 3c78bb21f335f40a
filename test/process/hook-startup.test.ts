// The hook process's start-up path, as processes: the V8 code cache that
// plugin/bin/roz keeps for the hook bundle, and governance loaded
// only for governed projects (yet never skipped for a session that has one).
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../governance/helpers.js';
import { payloads, pluginDir, rozBin, runHook, runProcess, sandbox, type ProcResult } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const cacheFiles = (dir: string, of = 'hook') => (existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(`${of}-v`) && f.endsWith('.v8')) : []);
const mode = (p: string) => statSync(p).mode & 0o777;

/** A sandbox where a UserPromptSubmit hook has written its code cache (each event has its own). */
async function cachedSandbox(sessionId: string) {
  const { env, home } = sandbox();
  const dir = join(home, '.cache', 'roz');
  const p = payloads(sessionId);
  await runHook('SessionStart', p.sessionStart(), env);
  await runHook('UserPromptSubmit', p.prompt('hello'), env);
  const name = cacheFiles(dir).find((f) => f.endsWith('.user-prompt.v8'));
  return { env, p, file: join(dir, name!) };
}

/** A copy of the built plugin, minus `without` (files under dist/), and a way to run its hook. */
function pluginCopy(env: NodeJS.ProcessEnv, without: string[] = []) {
  const plugin = join(tempDir('roz-plugin-'), 'plugin');
  cpSync(pluginDir, plugin, { recursive: true });
  for (const f of without) rmSync(join(plugin, 'dist', f));
  return {
    dist: join(plugin, 'dist'),
    hook: (event: string, payload: unknown) =>
      runProcess(process.execPath, [join(plugin, 'bin', 'roz'), 'hook', event], JSON.stringify(payload), { ...env, CLAUDE_PLUGIN_ROOT: plugin }),
  };
}

describe('hook code cache', () => {
  it('is written on the first run (0700 dir, 0600 file), then read without being rewritten', async () => {
    const { env, home } = sandbox();
    const dir = join(home, '.cache', 'roz');
    const p = payloads('cache-1');
    const first = await runHook('PreToolUse', p.pre('Bash', { command: 'ls' }), env);
    expect(first.code).toBe(0);
    const files = cacheFiles(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toContain(`hook-${process.version}-${process.arch}-`);
    expect(mode(dir)).toBe(0o700);
    const file = join(dir, files[0]!);
    expect(mode(file)).toBe(0o600);
    const before = statSync(file);
    const second = await runHook('PreToolUse', p.pre('Bash', { command: 'ls' }), env);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const after = statSync(file);
    // Accepted by V8: not replaced (same inode, same mtime).
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('a corrupt cache is rejected by V8 and replaced; the hook still answers correctly', async () => {
    const { env, p, file } = await cachedSandbox('cache-2');
    writeFileSync(file, Buffer.alloc(4096, 0x5a), { mode: 0o600 });
    // The #roz prompt turns review on; the stop must then be blocked.
    await runHook('UserPromptSubmit', p.prompt('#roz do it'), env);
    const stop = await runHook('Stop', p.stop(), env);
    expect(stop.code).toBe(0);
    expect(stop.json?.decision).toBe('block');
    expect(readFileSync(file).equals(Buffer.alloc(4096, 0x5a))).toBe(false);
  });

  it('ignores a cache others could have written, and replaces it with a private one', async () => {
    const { env, p, file } = await cachedSandbox('cache-3');
    writeFileSync(file, 'planted');
    chmodSync(file, 0o666);
    const r = await runHook('UserPromptSubmit', p.prompt('hello again'), env);
    expect(r.code).toBe(0);
    expect(mode(file)).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toBe('planted');
  });

  it('removes caches of other bundles or node versions; ROZ_CODE_CACHE=off writes nothing', async () => {
    const { env, home } = sandbox();
    const dir = join(home, '.cache', 'roz');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'hook-v0.0.0-x64-1-1.v8'), 'old', { mode: 0o600 });
    await runHook('SessionStart', payloads('cache-4').sessionStart(), env);
    expect(cacheFiles(dir)).toHaveLength(1);
    expect(cacheFiles(dir)[0]).not.toBe('hook-v0.0.0-x64-1-1.v8');

    const off = sandbox({ ROZ_CODE_CACHE: 'off' });
    const r = await runHook('SessionStart', payloads('cache-5').sessionStart(), off.env);
    expect(r.code).toBe(0);
    expect(existsSync(join(off.home, '.cache', 'roz'))).toBe(false);
  });
});

describe('code cache coverage', () => {
  it('one cache per event (Bash apart), each growing to cover what its hooks run, then staying put', async () => {
    const proj = makeProject({ git: true });
    const { env, home } = sandbox();
    const dir = join(home, '.cache', 'roz');
    const covered = (file: string): string[] => readFileSync(`${file}.paths`, 'utf8').split('\n').filter(Boolean).sort();
    const cacheOf = (kind: string) => join(dir, cacheFiles(dir).find((f) => f.endsWith(`.${kind}.v8`))!);
    const plain = payloads('cover-1', proj.outside);
    // A session starts: its first hook writes its cache, covering what it ran.
    await runHook('SessionStart', plain.sessionStart(), env);
    expect(cacheFiles(dir)).toHaveLength(1);
    const start = cacheOf('session-start');
    expect(covered(start)).toEqual(['hook:SessionStart']);
    const started = statSync(start);

    // A Bash call has a cache of its own: it does not deserialize SessionStart's bytecode, nor they its.
    await runHook('PreToolUse', plain.pre('Bash', { command: 'ls' }), env);
    const bashFile = cacheOf('pre-tool-use-bash');
    const bash = statSync(bashFile);
    expect(covered(bashFile)).toEqual(['hook:PreToolUse:Bash']);
    expect(statSync(start).ino).toBe(started.ino);
    await runHook('PreToolUse', plain.pre('Bash', { command: 'git status' }), env);
    expect(statSync(bashFile).ino).toBe(bash.ino);

    // Other tools share the PreToolUse cache, which grows (a union) as new kinds run.
    const governed = payloads('cover-2', proj.root);
    await runHook('PreToolUse', governed.pre('Read', { file_path: join(proj.root, 'README.md') }), env);
    const toolFile = cacheOf('pre-tool-use');
    const read = statSync(toolFile);
    await runHook('PreToolUse', governed.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }), env);
    const grown = statSync(toolFile);
    expect(grown.ino).not.toBe(read.ino);
    expect(grown.size).toBeGreaterThan(read.size);
    expect(covered(toolFile)).toContain('governance');
    expect(covered(toolFile)).toContain('hook:PreToolUse:file');

    // Every kind seen once, nothing more is written.
    for (const run of [governed.pre('Read', { file_path: join(proj.root, 'a.md') }), plain.pre('Bash', { command: 'ls' })])
      await runHook('PreToolUse', run, env);
    await runHook('PreToolUse', governed.pre('Write', { file_path: join(proj.root, 'src/auth/b.ts'), content: 'x' }), env);
    expect(statSync(toolFile).ino).toBe(grown.ino);
    expect(statSync(bashFile).ino).toBe(bash.ino);
    expect(cacheFiles(dir)).toHaveLength(3);
    // Each file loaded on demand has caches of its own: the shell parser (Bash), the intents parser (first governed hook).
    expect(cacheFiles(dir, 'hook-shell')).toHaveLength(1);
    expect(cacheFiles(dir, 'hook-intents-parser').length).toBeGreaterThanOrEqual(1);
    expect(cacheFiles(dir, 'hook-trace-schema')).toHaveLength(0);
  });
});

describe('governance loading', () => {
  it('still governs a session that cd-ed out of its project (remembered root, cwd elsewhere)', async () => {
    const proj = makeProject({ git: true });
    // As the client sets it: the file tools' write area is the project, not the drifted cwd (engine/file-tool-area.ts).
    const { env } = sandbox({ CLAUDE_PROJECT_DIR: proj.root });
    const inside = payloads('gov-cd', proj.root);
    const outside = payloads('gov-cd', proj.outside);
    // In the project: no intent yet, so a write is refused; the session now remembers the project.
    const first = await runHook('PreToolUse', inside.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }), env);
    expect(first.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
    // From a directory with no .orchestration and no git: still refused.
    const second = await runHook('PreToolUse', outside.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }), env);
    expect(second.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(second.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(/intent/i);
  });

  it('parses active_intents.yaml once: later hooks use the cached parse without the parser, and fail closed without it', async () => {
    const proj = makeProject({ git: true });
    const { env } = sandbox();
    // A copy of the plugin whose parser file can be taken away.
    const copy = pluginCopy(env);
    const hook = (payload: unknown) => copy.hook('pre-tool-use', payload);
    const p = payloads('gov-parse', proj.root);
    const write = p.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' });
    const decision = (r: ProcResult) =>
      `${r.json?.hookSpecificOutput?.permissionDecision} ${String(r.json?.hookSpecificOutput?.permissionDecisionReason).slice(0, 20)}`;

    const first = await hook(write);
    expect(decision(first)).toMatch(/^deny \[INTENT_REQUIRED\]/);
    expect(first.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(/INT-001/);

    rmSync(join(copy.dist, 'hook-intents-parser.cjs'));
    const cached = await hook(write);
    expect(cached.json).toEqual(first.json);
    expect(cached.stderr).toBe('');

    // A changed file needs the parser: a write is refused, a read goes on with a warning.
    proj.write('.orchestration/active_intents.yaml', `${readFileSync(join(proj.root, '.orchestration/active_intents.yaml'), 'utf8')}# edited\n`);
    const refused = await hook(write);
    expect(decision(refused)).toMatch(/^deny \[HOOK_ERROR\]/);
    expect(refused.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(/intents-parser/);
    const read = await hook(p.pre('Read', { file_path: join(proj.root, 'README.md') }));
    expect(read.json?.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect(read.json?.systemMessage).toMatch(/intents-parser/);
  });

  it('without the shell parser file, the review gate fails open and governance fails closed', async () => {
    const proj = makeProject({ git: true });
    const { env } = sandbox();
    const copy = pluginCopy(env, ['hook-shell.cjs']);
    const hook = (payload: unknown) => copy.hook('pre-tool-use', payload);

    const plain = await hook(payloads('no-shell-1', proj.outside).pre('Bash', { command: 'echo x > notes.txt' }));
    expect(plain.code).toBe(0);
    expect(plain.json?.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect(plain.json?.systemMessage).toMatch(/review gate failed open.*shell/);

    const governed = await hook(payloads('no-shell-2', proj.root).pre('Bash', { command: 'echo x > src/auth/a.ts' }));
    expect(governed.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(governed.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(/^\[HOOK_ERROR\].*shell/);
  });

  it('with no hook bundle at all (a broken install) a governed file change is denied, everything else fails open', async () => {
    const proj = makeProject({ git: true });
    const { env } = sandbox();
    const { hook } = pluginCopy(env, ['hook.cjs']);
    const inside = payloads('broken-1', join(proj.root, 'src'));

    const write = await hook('pre-tool-use', inside.pre('Write', { file_path: join(proj.root, 'src/auth/a.ts'), content: 'x' }));
    expect(write.code).toBe(0);
    expect(write.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(write.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(/^\[HOOK_ERROR\] roz: intent governance cannot start/);
    const bash = await hook('pre-tool-use', inside.pre('Bash', { command: 'echo x > a.txt' }));
    expect(bash.json?.hookSpecificOutput?.permissionDecision).toBe('deny');

    for (const r of [
      await hook('pre-tool-use', inside.pre('Read', { file_path: join(proj.root, 'README.md') })),
      await hook('pre-tool-use', payloads('broken-2', proj.outside).pre('Write', { file_path: join(proj.outside, 'a.ts'), content: 'x' })),
      await hook('stop', inside.stop()),
    ]) {
      expect(r.code).toBe(0);
      expect(r.json?.hookSpecificOutput?.permissionDecision).toBeUndefined();
      expect(r.json?.systemMessage).toMatch(/roz: hook failed open: cannot start/);
    }
  });

  it('an ungoverned repository gets no governance answer at all', async () => {
    const proj = makeProject({ intents: null });
    const { env } = sandbox();
    const r = await runHook('PreToolUse', payloads('gov-off', proj.root).pre('Write', { file_path: join(proj.root, 'x.ts'), content: 'x' }), env);
    expect(r.code).toBe(0);
    expect(r.json?.hookSpecificOutput?.permissionDecision).toBeUndefined();
  });
});

describe('hook stdin and stdout', () => {
  it('reads a non-blocking stdin that has no data yet (EAGAIN) by waiting for it, and answers in full', async () => {
    const { env } = sandbox();
    const fifo = join(tempDir('roz-fifo-'), 'stdin');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    const p = payloads('fifo-1');
    // A prompt starting with #roz makes the hook answer with context: a non-empty stdout.
    // spawn() hands children blocking stdio, so python3 (which CI installs for
    // node-pty) sets O_NONBLOCK on fd 0 and execs the hook.
    const setNonBlocking = 'import os, sys; os.set_blocking(0, False); os.execv(sys.argv[1], sys.argv[1:])';
    const child = spawn('python3', ['-c', setNonBlocking, process.execPath, rozBin, 'hook', 'user-prompt'], { env, stdio: [reader, 'pipe', 'pipe'] });
    closeSync(reader);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((r) => setTimeout(r, 400));
    writeSync(writer, JSON.stringify(p.prompt('#roz check the stdin path')));
    closeSync(writer);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const json = JSON.parse(out) as { hookSpecificOutput?: { additionalContext?: string } };
    expect(json.hookSpecificOutput?.additionalContext).toMatch(/roz/);
  });

  it('a tool call past 64 MiB is refused with a reason (governance fails closed), other events past it fail open', async () => {
    const { env } = sandbox();
    const p = payloads('huge-1');
    const huge = 'y'.repeat(64 * 1024 * 1024);
    const pre = await runHook('PreToolUse', p.pre('Write', { file_path: '/tmp/x', content: huge }), env);
    expect(pre.code).toBe(0);
    expect(pre.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(pre.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(
      /\[HOOK_ERROR\] roz cannot read this tool call \(hook input exceeds 67108864 bytes\)/,
    );
    const post = await runHook('PostToolUse', p.post('Write', { file_path: '/tmp/x', content: huge }), env);
    expect(post.json?.systemMessage).toMatch(/PostToolUse hook failed open: hook input exceeds 67108864 bytes/);
  });

  it('answers a large payload whole through a pipe (the answer is written synchronously before exit)', async () => {
    const { env } = sandbox();
    const p = payloads('big-1');
    const r = await runHook('PreToolUse', p.pre('Write', { file_path: '/tmp/x', content: 'y'.repeat(3 * 1024 * 1024) }), env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
