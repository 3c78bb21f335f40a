// The stats view after a session and for `roz stats --tui`: the numbers a
// person wants once claude has exited.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { SessionStats } from '../../src/supervisor/session-stats.js';
import { renderSessionStats, showSessionStats } from '../../src/tui/stats-screen.js';

const stats: SessionStats = {
  session_id: 'abc',
  created_at: '2026-01-01T00:00:00Z',
  ended_at: null,
  tool_calls: 12,
  tool_failures: 3,
  denials: { DESTRUCTIVE_BLOCKED: 2, SCOPE_VIOLATION: 1 },
  reviews: 2,
  decisions: { complete: 1, issues: 1, invalid: 1 },
  breaker_trips: 1,
  human: { decisions: 2, approved: 1, denied: 1, timed_out: 1, wait_ms_total: 9500, wait_ms_max: 6000 },
  templates: [
    {
      template_id: 'v1',
      blocks: 3,
      reviews_spawned: 2,
      complete: 1,
      issues: 1,
      no_decision: 0,
      not_spawned: 1,
      pending: 0,
      breaker_trips: 1,
      avg_blocks_to_decision: 1.5,
      success_rate: 0.66,
    },
  ],
};

describe('session stats view', () => {
  it('shows tool calls, denials by code, reviews and decisions, breaker trips, human waits and template outcomes', () => {
    const out = renderSessionStats(stats, 160);
    expect(out).toContain('session abc');
    expect(out).toMatch(/tool calls\s+12 \(3 failed\)/);
    expect(out).toContain('DESTRUCTIVE_BLOCKED=2 SCOPE_VIOLATION=1');
    expect(out).toContain('reviews        2 · decisions COMPLETE 1 · ISSUES 1 · not counted 1');
    expect(out).toMatch(/breaker trips\s+1/);
    expect(out).toContain('2 decided (1 approved, 1 denied) · 1 timed out · waited 9.5s total, 6.0s longest');
    expect(out).toContain('v1: 3 blocks, 2 spawned, 2 decided, 0 no decision');
  });

  it('at 80 columns wraps between phrases, never inside one', () => {
    const out = renderSessionStats({ ...stats, templates: [...stats.templates, { ...stats.templates[0]!, template_id: 'v2-longer-name' }] }, 80);
    const lines = out.split('\n');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(out).toMatch(/human gates {4}2 decided \(1 approved, 1 denied\) · 1 timed out\n {15}waited 9\.5s total, 6\.0s longest\n/);
    expect(out).toContain('v1: 3 blocks, 2 spawned, 2 decided, 0 no decision');
    expect(out).toContain('v2-longer-name: 3 blocks, 2 spawned, 2 decided, 0 no decision');
    // A continuation line is indented under the values, not under the labels.
    expect(lines.find((l) => l.includes('v2-longer-name'))).toMatch(/^ {15}v2-longer-name/);
  });

  it('says so when no hook reached roz', () => {
    expect(renderSessionStats(null, 80)).toMatch(/No session state recorded/);
  });

  it('off a terminal, `roz stats --tui` prints the view once instead of waiting for keys', async () => {
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (d) => (text += d));
    await showSessionStats(stats, { stdout: stdout as unknown as NodeJS.WriteStream, stdin: new PassThrough() as unknown as NodeJS.ReadStream });
    expect(text).toContain('tool calls');
  });
});
