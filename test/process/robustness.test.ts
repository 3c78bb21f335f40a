// Bad input and bad storage: every hook process still exits 0 with a clear
// message and the fail-open result, and concurrent hooks lose nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { payloads, roz, runHook, sandbox } from '../helpers/hooks.js';

const SID = 'robust-session-1';

describe('hook robustness', () => {
  it('64 hook processes in parallel on one session lose no trace line and no state update', async () => {
    const { env, store } = sandbox();
    const p = payloads(SID);
    const runs = await Promise.all(Array.from({ length: 64 }, (_, i) => runHook('PreToolUse', p.pre('Read', { file_path: `/tmp/project/f${i}.txt` }), env)));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    for (const r of runs) expect(r.stderr).toBe('');
    const lines = readFileSync(join(store, 'sessions', SID, 'trace.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(64);
    const files = new Set(lines.map((l) => JSON.parse(l).tool_input.value.file_path));
    expect(files.size).toBe(64);
    const state = JSON.parse(readFileSync(join(store, 'sessions', SID, 'state.json'), 'utf8'));
    expect(state.counters.PreToolUse).toBe(64);
  }, 120_000);

  it('malformed JSON on stdin: clear stderr, exit 0, no opinion', async () => {
    const { env } = sandbox();
    const r = await runHook('Stop', '{"session_id": "abc", oops', env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/not valid JSON/);
    expect(r.json?.decision).toBeUndefined();
    expect(r.json?.systemMessage).toMatch(/failed open/);
  });

  it('a payload missing required fields names them', async () => {
    const { env } = sandbox();
    const r = await runHook('PreToolUse', { session_id: 'abc', hook_event_name: 'PreToolUse' }, env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/cwd/);
    expect(r.stderr).toMatch(/tool_name/);
    expect(r.json?.hookSpecificOutput).toBeUndefined();
  });

  it('a session id that could escape the store is refused', async () => {
    const { env, store } = sandbox();
    const r = await runHook('Stop', { ...payloads('x').stop(), session_id: '../../etc' }, env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/session_id/);
    expect(existsSync(join(store, 'etc'))).toBe(false);
  });

  it('a 10 MB tool_input is handled and traced in bounded form', async () => {
    const { env, store } = sandbox();
    const content = 'x'.repeat(10 * 1024 * 1024);
    const r = await runHook('PreToolUse', payloads(SID).pre('Write', { file_path: '/tmp/project/big.txt', content }), env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const line = readFileSync(join(store, 'sessions', SID, 'trace.jsonl'), 'utf8').trim();
    expect(line.length).toBeLessThan(20_000);
    const rec = JSON.parse(line);
    expect(rec.tool_input.truncated).toBe(true);
    expect(rec.tool_input.original_size).toBeGreaterThan(10 * 1024 * 1024);
    expect(rec.tool_input.original_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('a corrupt session file is moved aside (kept), reported, and the hook fails open', async () => {
    const { env, store } = sandbox();
    const p = payloads(SID);
    await runHook('UserPromptSubmit', p.prompt('#roz task'), env);
    const file = join(store, 'sessions', SID, 'state.json');
    writeFileSync(file, '{"version":1,"session_id": tru');
    const r = await runHook('Stop', p.stop(), env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/corrupt/);
    expect(r.stderr).toMatch(/quarantine/);
    expect(r.json?.decision).toBeUndefined();
    const kept = readdirSync(join(store, 'quarantine'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(store, 'quarantine', kept[0]!), 'utf8')).toBe('{"version":1,"session_id": tru');
    // The CLI says so too, and the session carries on with fresh state.
    expect((await roz(['debug', SID, '--json'], env)).code).toBe(0);
  });

  describe('a read-only store', () => {
    const mounts: string[] = [];
    afterAll(() => {
      for (const m of mounts) {
        try {
          execFileSync('umount', [m]);
        } catch {
          /* already gone */
        }
      }
    });

    /** A store directory holding a live session, then made read-only for real. */
    function readOnlyStore(root: string, populate: (dir: string) => Promise<void>): Promise<string> {
      const dir = join(root, 'ro-store');
      mkdirSync(dir, { recursive: true });
      const isRoot = process.getuid?.() === 0;
      if (isRoot) {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir]);
        mounts.push(dir);
      }
      return populate(dir).then(() => {
        if (isRoot) execFileSync('mount', ['-o', 'remount,ro', dir]);
        else execFileSync('chmod', ['-R', 'a-w', dir]);
        return dir;
      });
    }

    it('reports the problem on stderr, exits 0 and lets the agent stop', async () => {
      const { env, home } = sandbox();
      const p = payloads(SID);
      const dir = await readOnlyStore(home, async (d) => {
        await runHook('UserPromptSubmit', p.prompt('#roz task'), { ...env, ROZ_STORAGE_PATH: d });
      });
      const roEnv = { ...env, ROZ_STORAGE_PATH: dir };
      const r = await runHook('Stop', p.stop(), roEnv);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/store unavailable/);
      expect(r.json?.decision).toBeUndefined();
      expect(r.json?.systemMessage).toMatch(/failed open/);
      // Nothing was lost: the earlier state is still there to read.
      const dbg = await roz(['debug', SID, '--json'], roEnv);
      expect(JSON.parse(dbg.stdout).review.status).toBe('pending');
    });
  });
});
