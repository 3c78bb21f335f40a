// Small supervisor pieces: the ring, session stats, launch arguments, the
// frame parser, and terminal restoration.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { newSession } from '../../src/core/session-state.js';
import { parseHookFrame, PROTOCOL_VERSION } from '../../src/supervisor/hooks/channel-protocol.js';
import { planLaunch } from '../../src/supervisor/launch/launch-args.js';
import { RingBuffer } from '../../src/supervisor/ring-buffer.js';
import { sessionStats } from '../../src/supervisor/session-stats.js';
import { TerminalGuard } from '../../src/tui/terminal-guard.js';
import { diffPreview } from '../../src/tui/diff-preview.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('ring buffer', () => {
  it('keeps the newest items up to its capacity and counts all pushes', () => {
    const r = new RingBuffer<number>(3);
    for (let i = 1; i <= 5; i++) r.push(i);
    expect(r.toArray()).toEqual([3, 4, 5]);
    expect(r.total).toBe(5);
    expect(r.tail(2)).toEqual([4, 5]);
    expect(r.tail(5, (n) => n % 2 === 1)).toEqual([3, 5]);
    expect(r.last()).toBe(5);
  });
});

describe('session stats', () => {
  it('counts tool calls, denials, reviews, decisions, breaker trips and human waits', () => {
    const s = newSession('s', new Date('2026-01-01T00:00:00Z'));
    s.counters = { PreToolUse: 9, PostToolUseFailure: 2 };
    s.denials = { DESTRUCTIVE_BLOCKED: 1 };
    s.review.attempts.push({
      id: 1,
      template_id: 'v1',
      blocked_at: '2026-01-01T00:01:00Z',
      reason: 'review',
      outcome: 'success',
      decision_kind: 'complete',
      spawned_at: '2026-01-01T00:01:05Z',
    });
    s.review.decision_history.push({ kind: 'complete', summary: 'ok', decided_at: '2026-01-01T00:02:00Z', agent_id: 'a', valid: true });
    s.review.breaker.trips.push({ at: '2026-01-01T00:03:00Z', block_count: 3, attempt_id: 1, trigger: 'prompt' });
    const trace = [
      { ts: '', event: 'roz:HumanDecision', session_id: 's', decided_by: 'human', decision: 'allow', wait_ms: 1200 },
      { ts: '', event: 'roz:HumanDecision', session_id: 's', decided_by: 'timeout', decision: 'deny', wait_ms: 20000 },
    ];
    const st = sessionStats(s, trace);
    expect(st).toMatchObject({
      tool_calls: 9,
      tool_failures: 2,
      denials: { DESTRUCTIVE_BLOCKED: 1 },
      reviews: 1,
      decisions: { complete: 1, issues: 0 },
      breaker_trips: 1,
    });
    expect(st.human).toEqual({ decisions: 1, approved: 1, denied: 1, timed_out: 1, wait_ms_total: 21200, wait_ms_max: 20000 });
    expect(st.templates[0]).toMatchObject({ template_id: 'v1', blocks: 1, complete: 1, breaker_trips: 1 });
  });
});

describe('launch arguments', () => {
  const home = tempDir('roz-launch-');
  it('loads roz with --plugin-dir for claude, not for other commands', () => {
    expect(planLaunch('claude', ['--model', 'x'], { env: {}, home, pluginDir: '/p' }).args).toEqual(['--plugin-dir', '/p', '--model', 'x']);
    expect(planLaunch('/usr/bin/node', ['fake.js'], { env: {}, home, pluginDir: '/p' }).args).toEqual(['fake.js']);
    expect(planLaunch('claude', ['--plugin-dir', '/mine'], { env: {}, home, pluginDir: '/p' }).args).toEqual(['--plugin-dir', '/mine']);
  });
  it('does not load it twice when the plugin is installed', () => {
    mkdirSync(join(home, '.claude', 'plugins'), { recursive: true });
    writeFileSync(join(home, '.claude', 'plugins', 'installed_plugins.json'), JSON.stringify({ version: 2, plugins: { 'roz@roz': [{}] } }));
    const plan = planLaunch('claude', [], { env: {}, home, pluginDir: '/p' });
    expect(plan.args).toEqual([]);
    expect(plan.notes[0]).toMatch(/installed/);
  });
});

describe('frame parser', () => {
  it('refuses extra fields: a frame cannot smuggle a decision', () => {
    const base = { v: PROTOCOL_VERSION, id: '1', token: 't', event: 'PreToolUse', input: {}, verdict: { kind: 'none' } };
    expect(parseHookFrame(JSON.stringify(base)).ok).toBe(true);
    expect(parseHookFrame(JSON.stringify({ ...base, decision: 'allow' }))).toMatchObject({ ok: false, code: 'BAD_FRAME' });
    expect(parseHookFrame(JSON.stringify({ ...base, v: 2 }))).toMatchObject({ ok: false, code: 'BAD_VERSION' });
  });
});

describe('diff preview', () => {
  it('shows Write content as additions and bounds long previews', () => {
    const d = diffPreview('Write', { file_path: 'a.txt', content: Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') }, 10)!;
    expect(d).toHaveLength(10);
    expect(d[1]).toEqual({ sign: '+', text: 'line 0' });
    expect(d[9]!.text).toMatch(/more lines/);
    expect(diffPreview('Bash', { command: 'ls' })).toBeNull();
  });
});

describe('terminal guard', () => {
  it('restores the terminal once, on exit, whatever happened', () => {
    const stdout = new PassThrough() as unknown as NodeJS.WriteStream;
    let written = '';
    (stdout as unknown as PassThrough).on('data', (d) => (written += d));
    const stdin = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.ReadStream;
    const g = new TerminalGuard({ stdin, stdout });
    g.enter();
    expect(written).toContain('\x1b[?1049h');
    process.emit('exit', 0);
    g.restore();
    expect(written.match(/\x1b\[\?1049l/g)).toHaveLength(1);
    expect(written).toContain('\x1b[?25h');
    expect(written).toContain('\x1b[?2004l');
  });
});

describe('project intents', () => {
  it("reads the governed project's intents file, and re-reads it only when it changes", async () => {
    const { ProjectIntentsReader } = await import('../../src/supervisor/project-intents.js');
    const root = tempDir('roz-intents-');
    mkdirSync(join(root, '.orchestration'));
    const file = join(root, '.orchestration', 'active_intents.yaml');
    writeFileSync(file, 'active_intents:\n  - id: INT-1\n    name: JWT\n    status: IN_PROGRESS\n    owned_scope: ["src/auth/**"]\n');
    const s = newSession('s', new Date());
    s.governance = { intent_id: 'INT-1', project_root: root };
    const reader = new ProjectIntentsReader();
    const first = reader.read(s);
    expect(first?.intents.map((i) => i.id)).toEqual(['INT-1']);
    expect(reader.read(s)).toBe(first);
    writeFileSync(file, 'active_intents: [');
    const { utimesSync } = await import('node:fs');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(reader.read(s)?.problems.length).toBeGreaterThan(0);
    expect(reader.read(newSession('t', new Date()))).toBeNull();
  });

  it('for an agent in its worktree, the base checkout’s file (intents_root, as its hook recorded), not the worktree’s copy', async () => {
    const { ProjectIntentsReader } = await import('../../src/supervisor/project-intents.js');
    const [base, wt] = [tempDir('roz-intents-base-'), tempDir('roz-intents-wt-')];
    const yaml = (id: string) => `active_intents:\n  - id: ${id}\n    name: X\n    status: IN_PROGRESS\n    owned_scope: ["**"]\n`;
    for (const [dir, id] of [
      [base, 'BASE-1'],
      [wt, 'MINE'],
    ] as const) {
      mkdirSync(join(dir, '.orchestration'));
      writeFileSync(join(dir, '.orchestration', 'active_intents.yaml'), yaml(id));
    }
    const s = newSession('s', new Date());
    s.governance = { intent_id: null, project_root: wt, intents_root: base };
    const got = new ProjectIntentsReader().read(s);
    expect(got?.file).toBe(join(base, '.orchestration', 'active_intents.yaml'));
    expect(got?.intents.map((i) => i.id)).toEqual(['BASE-1']);
  });
});
