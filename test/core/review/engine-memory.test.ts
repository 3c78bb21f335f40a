// The engine in-process on the memory store: state-machine transitions that
// need a clock (breaker cooldown, tool-scope approvals).
import { describe, expect, it } from 'vitest';
import { runHook } from '../../../src/engine/engine.js';
import { MemorySessionStore } from '../../../src/store/memory-store.js';
import { tempDir } from '../../helpers/temp-dir.js';

function harness(env: Record<string, string> = {}) {
  const store = new MemorySessionStore();
  let now = new Date('2026-03-01T10:00:00Z');
  const deps = { env: { HOME: '/nonexistent-home', ROZ_STORAGE_PATH: '/nonexistent-store', ...env }, now: () => now, rng: () => 0.1, store: () => store };
  const base = { session_id: 's1', cwd: '/p' };
  return {
    store,
    tick: (seconds: number) => (now = new Date(now.getTime() + seconds * 1000)),
    hook: (event: Parameters<typeof runHook>[0], extra: Record<string, unknown>) =>
      runHook(event, JSON.stringify({ ...base, hook_event_name: event, ...extra }), deps),
  };
}

describe('review state machine (engine + memory store)', () => {
  it('Idle -> Pending -> Blocked -> Approved', async () => {
    const h = harness();
    await h.hook('UserPromptSubmit', { prompt: '#roz fix it' });
    expect(h.store.read('s1')!.review.status).toBe('pending');
    expect((await h.hook('Stop', {})).verdict.kind).toBe('block');
    expect(h.store.read('s1')!.review.status).toBe('blocked');
    await h.hook('SubagentStart', { agent_id: 'r', agent_type: 'roz:roz' });
    // The hook of the reviewer's own Bash call records the decision.
    const decided = await h.hook('PreToolUse', {
      agent_id: 'r',
      agent_type: 'roz:roz',
      tool_name: 'Bash',
      tool_use_id: 't1',
      tool_input: { command: 'roz decide s1 COMPLETE ok' },
    });
    expect(decided.verdict.kind).toBe('allow');
    expect(h.store.read('s1')!.review.status).toBe('approved');
    expect(h.store.read('s1')!.review.decision).toMatchObject({ kind: 'complete', summary: 'ok', agent_id: 'r', tool_use_id: 't1', valid: true });
    expect((await h.hook('Stop', {})).verdict.kind).toBe('none');
  });

  it('the breaker stays open for the cooldown for automatic reviews, and closes after it', async () => {
    const h = harness({ ROZ_REVIEW_MODE: 'always', ROZ_MAX_BLOCKS: '1', ROZ_COOLDOWN_SECONDS: '60' });
    await h.hook('UserPromptSubmit', { prompt: 'task one' });
    expect((await h.hook('Stop', {})).verdict.kind).toBe('block');
    const tripped = await h.hook('Stop', {});
    expect(tripped.verdict.kind).toBe('none');
    expect(tripped.stdout).toMatch(/circuit breaker/);
    h.tick(30);
    await h.hook('UserPromptSubmit', { prompt: 'task two' });
    expect((await h.hook('Stop', {})).verdict.kind).toBe('none');
    h.tick(31);
    await h.hook('UserPromptSubmit', { prompt: 'task three' });
    expect((await h.hook('Stop', {})).verdict.kind).toBe('block');
  });

  it('a prompt typed during a review does not cancel it (prompt isolation)', async () => {
    const h = harness();
    await h.hook('UserPromptSubmit', { prompt: '#roz task' });
    await h.hook('Stop', {});
    await h.hook('UserPromptSubmit', { prompt: 'hurry up' });
    expect((await h.hook('Stop', {})).verdict.kind).toBe('block');
  });

  it('approval scope tool: each approval opens the gate once', async () => {
    const h = harness({ ROZ_APPROVAL_SCOPE: 'tool' });
    const gh = { tool_name: 'Bash', tool_input: { command: 'gh pr merge 3' } };
    expect((await h.hook('PreToolUse', gh)).verdict.kind).toBe('ask');
    await h.hook('SubagentStart', { agent_id: 'r', agent_type: 'roz:roz' });
    expect(
      (
        await h.hook('PreToolUse', {
          agent_id: 'r',
          agent_type: 'roz:roz',
          tool_name: 'Bash',
          tool_use_id: 't',
          tool_input: { command: 'roz decide COMPLETE ok' },
        })
      ).verdict.kind,
    ).toBe('allow');
    expect((await h.hook('PreToolUse', gh)).verdict.kind).toBe('none');
    expect((await h.hook('PreToolUse', gh)).verdict.kind).toBe('ask');
  });

  it('mode never ignores #roz', async () => {
    const h = harness({ ROZ_REVIEW_MODE: 'never' });
    await h.hook('UserPromptSubmit', { prompt: '#roz task' });
    expect((await h.hook('Stop', {})).verdict.kind).toBe('none');
  });

  it('the agent cannot write into the roz store', async () => {
    const h = harness({ ROZ_STORAGE_PATH: '/tmp/roz-store-guard-test' });
    const w = await h.hook('PreToolUse', { tool_name: 'Write', tool_input: { file_path: '/tmp/roz-store-guard-test/sessions/s1/state.json', content: '{}' } });
    expect(w.verdict).toMatchObject({ kind: 'deny', code: 'STORE_PROTECTED' });
    const b = await h.hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo {} > /tmp/roz-store-guard-test/sessions/s1/state.json' } });
    expect(b.verdict).toMatchObject({ kind: 'deny', code: 'STORE_PROTECTED' });
    const ok = await h.hook('PreToolUse', { tool_name: 'Write', tool_input: { file_path: '/p/hello.txt', content: 'x' } });
    expect(ok.verdict.kind).toBe('none');
  });

  it('a stop while the reviewer runs in the background is let through uncounted; the next one is gated', async () => {
    const h = harness({ ROZ_MAX_BLOCKS: '1' });
    await h.hook('UserPromptSubmit', { prompt: '#roz task' });
    expect((await h.hook('Stop', {})).verdict.kind).toBe('block');
    await h.hook('SubagentStart', { agent_id: 'bg', agent_type: 'roz:roz' });
    for (let i = 0; i < 3; i++) expect((await h.hook('Stop', { stop_hook_active: true })).verdict.kind).toBe('none');
    expect(h.store.read('s1')!.review.breaker.trips).toHaveLength(0);
    // The client's <task-notification> is not the human: it neither records a prompt nor ends the review.
    await h.hook('UserPromptSubmit', { prompt: '<task-notification>\n<task-id>bg</task-id>' });
    const s = h.store.read('s1')!;
    expect(s.review.user_prompts.map((p) => p.text)).toEqual(['#roz task']);
    expect(s.review.enabled).toBe(true);
    await h.hook('SubagentStop', { agent_id: 'bg', agent_type: 'roz:roz', stop_hook_active: true });
    // No decision was recorded: the breaker (max 1) now lets the stop through and records the trip.
    const after = await h.hook('Stop', {});
    expect(after.stdout).toMatch(/circuit breaker/);
  });
});

describe('the hook-recorded ISSUES in a governed project', () => {
  it('appends the review lesson, as the CLI did before', async () => {
    const { mkdirSync, writeFileSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const root = tempDir('roz-lesson-');
    mkdirSync(join(root, '.orchestration'));
    writeFileSync(
      join(root, '.orchestration', 'active_intents.yaml'),
      'active_intents:\n  - id: INT-001\n    name: Greeting\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n',
    );
    const store = new MemorySessionStore();
    const deps = { env: { HOME: root, ROZ_STORAGE_PATH: join(root, 'store'), CLAUDE_PROJECT_DIR: root }, rng: () => 0.1, store: () => store };
    const hook = (event: Parameters<typeof runHook>[0], extra: Record<string, unknown>) =>
      runHook(event, JSON.stringify({ session_id: 's1', cwd: root, hook_event_name: event, ...extra }), deps);
    await hook('UserPromptSubmit', { prompt: '#roz greet' });
    await hook('Stop', {});
    await hook('SubagentStart', { agent_id: 'r', agent_type: 'roz:roz' });
    const decided = await hook('PreToolUse', {
      agent_id: 'r',
      agent_type: 'roz:roz',
      tool_name: 'Bash',
      tool_use_id: 't',
      tool_input: { command: "roz decide s1 ISSUES 'greeting untested' --message 'add a test'" },
    });
    expect(decided.verdict.kind).toBe('allow');
    expect(store.read('s1')!.review.status).toBe('issues');
    expect(readFileSync(join(root, '.orchestration', 'CLAUDE.md'), 'utf8')).toMatch(/review found issues: 'greeting untested'/);
  });
});
