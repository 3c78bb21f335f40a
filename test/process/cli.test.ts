// The roz command line follows its ecosystem: help on stdout with exit 0 when
// asked, on stderr with exit 2 on misuse, messages that name the bad argument,
// `roz sessions` and `--last` on every command that takes a session; the daily
// automatic clean-up; `roz trace --follow`.
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { payloads, roz, rozBin, runHook, sandbox } from '../helpers/hooks.js';

describe('help and misuse', () => {
  const { env } = sandbox();

  it('bare roz, --help and help print the help on stdout and exit 0', async () => {
    for (const args of [[], ['--help'], ['help']]) {
      const r = await roz(args, env);
      expect(r.code, `roz ${args.join(' ')}`).toBe(0);
      expect(r.stdout).toMatch(/^Usage: roz /);
      expect(r.stderr).toBe('');
    }
  });

  it('every subcommand has --help on stdout with exit 0, roz hook included', async () => {
    const top = await roz(['--help'], env);
    const commands = [...top.stdout.split('Commands:')[1]!.matchAll(/^ {2}([a-z]+)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands).toEqual(
      expect.arrayContaining(['hook', 'decide', 'debug', 'trace', 'context', 'sessions', 'clean', 'stats', 'run', 'config', 'intent', 'blame', 'mcp']),
    );
    for (const cmd of commands) {
      const r = await roz([cmd, '--help'], env);
      expect(r.code, `roz ${cmd} --help: ${r.stderr}`).toBe(0);
      expect(r.stdout, cmd).toMatch(new RegExp(`^Usage: roz ${cmd}\\b`));
      expect(r.stderr, cmd).toBe('');
    }
    const hook = await roz(['hook', '-h'], env);
    expect(hook.stdout).toMatch(/pre-tool-use/);
  });

  it('misuse goes to stderr with exit 2 and names the bad argument', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['bogus'], /unknown command 'bogus'/],
      [['debug', '--bogus'], /unknown option '--bogus'/],
      [['hook'], /missing hook event/],
      [['hook', 'bogus'], /unknown hook "bogus"/],
      [['decide', 'garbage'], /invalid decision "garbage"/],
      [['decide', 'some-session', 'garbage', 'summary'], /invalid decision "some-session"/],
      [['decide'], /missing decision/],
      [['intent', 'check'], /unknown action "check"/],
      [['stats', '--days', 'x'], /--days .*"x"/],
      [['sessions', '--limit', 'none'], /--limit .*"none"/],
      [['debug', 'abc', '--last'], /session id \("abc"\) or --last, not both/],
    ];
    for (const [args, message] of cases) {
      const r = await roz(args, env);
      expect(r.code, `roz ${args.join(' ')}`).toBe(2);
      expect(r.stdout, `roz ${args.join(' ')}`).toBe('');
      expect(r.stderr, `roz ${args.join(' ')}`).toMatch(message);
    }
    // A wrong decision word is never taken for a session id.
    expect((await roz(['decide', 'garbage'], env)).stderr).not.toMatch(/missing decision/);
  });

  it('top-level help and roz intent --help name the same actions', async () => {
    const flat = (await roz(['--help'], env)).stdout.replace(/\s+/g, ' ');
    const top = flat.slice(flat.indexOf(' intent [options]'), flat.indexOf(' blame [options]'));
    const intent = (await roz(['intent', '--help'], env)).stdout;
    for (const action of ['list', 'show', 'select', 'status']) {
      expect(top).toMatch(new RegExp(`\\b${action}\\b`));
      expect(intent).toMatch(new RegExp(`\\b${action}\\b`));
    }
    expect(top + intent).not.toMatch(/\bcheck\b/);
  });
});

describe('roz sessions and --last', () => {
  it('lists recent sessions newest first and --last picks the most recently active one', async () => {
    const { env } = sandbox();
    expect((await roz(['sessions'], env)).stdout).toMatch(/no sessions/);
    expect((await roz(['debug', '--last'], env)).code).toBe(3);
    const older = payloads('sess-older', '/tmp/project-a');
    const newer = payloads('sess-newer', '/tmp/project-b');
    await runHook('SessionStart', older.sessionStart(), env);
    await runHook('SessionStart', newer.sessionStart(), env);
    await runHook('UserPromptSubmit', newer.prompt('#roz do it'), env);
    // The older session is the most recently active one.
    await runHook('PreToolUse', older.pre('Read', { file_path: '/tmp/project-a/x' }), env);

    const list = await roz(['sessions', '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    const rows = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.session_id)).toEqual(['sess-newer', 'sess-older']);
    // Hooks outside `roz run`/`roz exec` record advisory mode (src/engine/enforce-probe.ts).
    expect(rows[0]).toMatchObject({ project: '/tmp/project-b', review: 'pending', denials: 0, enforcement: 'advisory' });
    expect(rows[1]).toMatchObject({ project: '/tmp/project-a', review: 'off' });
    const text = await roz(['sessions'], env);
    expect(text.stdout).toMatch(/SESSION\s+PROJECT\s+STARTED \(UTC\)\s+REVIEW\s+DENIALS\s+MODE/);
    expect(text.stdout).toMatch(/sess-newer\s+\/tmp\/project-b\s+\S+ \S+\s+pending\s+0\s+advisory/);
    expect((await roz(['sessions', '--limit', '1'], env)).stdout).toMatch(/1 older not shown/);

    for (const cmd of [
      ['debug', '--json'],
      ['context', '--json'],
    ]) {
      const r = await roz([...cmd, '--last'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).session_id).toBe('sess-older');
    }
    const status = await roz(['intent', 'status', '--last', '--json'], env);
    expect(JSON.parse(status.stdout).session, status.stderr).toBe('sess-older');
    const trace = await roz(['trace', '--last', '--json'], env);
    expect((JSON.parse(trace.stdout) as Array<{ session_id: string }>).every((t) => t.session_id === 'sess-older')).toBe(true);
  });
});

describe('automatic clean-up', () => {
  it('a session start removes sessions idle past retention_days at most once a day, never one with a pending review', async () => {
    const { env, store } = sandbox({ ROZ_RETENTION_DAYS: '7' });
    const age = (sid: string, days: number) => {
      const file = join(store, 'sessions', sid, 'state.json');
      const s = JSON.parse(readFileSync(file, 'utf8'));
      s.updated_at = new Date(Date.now() - days * 86_400_000).toISOString();
      writeFileSync(file, JSON.stringify(s));
    };
    for (const sid of ['old-idle', 'old-pending', 'recent']) await runHook('SessionStart', payloads(sid).sessionStart(), env);
    await runHook('UserPromptSubmit', payloads('old-pending').prompt('#roz review this'), env);
    age('old-idle', 8);
    age('old-pending', 30);
    age('recent', 6);
    // The first starts above ran the daily pass already (nothing was old then): it waits a day.
    await runHook('SessionStart', payloads('new-1').sessionStart(), env);
    expect(existsSync(join(store, 'sessions', 'old-idle'))).toBe(true);

    utimesSync(join(store, 'last-cleanup'), new Date(Date.now() - 25 * 3_600_000), new Date(Date.now() - 25 * 3_600_000));
    const start = await runHook('SessionStart', payloads('new-2').sessionStart(), env);
    expect(start.code).toBe(0);
    expect(start.stderr).not.toMatch(/clean-up/);
    const left = readdirSync(join(store, 'sessions')).sort();
    expect(left).toEqual(['new-1', 'new-2', 'old-pending', 'recent']);
    expect(Date.now() - statSync(join(store, 'last-cleanup')).mtimeMs).toBeLessThan(3_600_000);
  });
});

describe('roz trace --follow', () => {
  it('prints the trace so far, then each hook event as it is written, until interrupted', async () => {
    const { env } = sandbox();
    const p = payloads('follow-1');
    await runHook('SessionStart', p.sessionStart(), env);
    const child = spawn(process.execPath, [rozBin, 'trace', 'follow-1', '--follow', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    // Hook events only: roz's own notes (roz:SessionStarted, ...) are interleaved with them.
    const events = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { event: string }).event)
        .filter((e) => !e.startsWith('roz:'));
    try {
      await vi.waitFor(() => expect(events()).toEqual(['SessionStart']), { timeout: 10_000, interval: 25 });
      await runHook('UserPromptSubmit', p.prompt('hello'), env);
      await vi.waitFor(() => expect(events()).toEqual(['SessionStart', 'UserPromptSubmit']), { timeout: 10_000, interval: 25 });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
