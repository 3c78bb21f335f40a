// A file store in the real layout (src/store/paths.ts: sessions/<id>/state.json
// and trace.jsonl, plus the stats index with the lines the engine would have
// appended over each session's life: created, then each attempt blocked,
// spawned and decided) for `roz stats`. The baseline reader lives in
// scripts/bench.mjs: a bare node process, so neither side pays for imports the other skips.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { newSession, type SessionState } from '../../src/core/session-state.js';
import { statsSummary, type StatsSummary } from '../../src/core/stats.js';
import { sessionDir, sessionsDir, statePath, tracePath } from '../../src/store/paths.js';
import { statsIndexPath } from '../../src/store/stats-index.js';

function session(i: number, now: number): SessionState {
  const at = new Date(now - (i % 20) * 3_600_000);
  const s = newSession(`bench-${String(i).padStart(7, '0')}`, at);
  s.cwd = '/home/dev/project';
  s.counters = { SessionStart: 1, UserPromptSubmit: 3, PreToolUse: 24, PostToolUse: 24, Stop: 2 };
  s.denials = i % 5 === 0 ? { DESTRUCTIVE_BLOCKED: 1 } : {};
  if (i % 3 !== 0) {
    const tpl = i % 2 ? 'v1' : 'v2';
    const iso = at.toISOString();
    s.review.enabled = true;
    s.review.status = 'approved';
    s.review.attempts = [
      {
        id: 1,
        template_id: tpl,
        blocked_at: iso,
        reason: 'review',
        outcome: i % 7 === 0 ? 'not_spawned' : 'success',
        spawned_at: iso,
        decision_kind: 'issues',
        blocks_needed: 1,
        ended_at: iso,
      },
      {
        id: 2,
        template_id: tpl,
        blocked_at: iso,
        reason: 'issues',
        outcome: 'success',
        spawned_at: iso,
        decision_kind: 'complete',
        blocks_needed: 2,
        ended_at: iso,
      },
    ];
    s.review.decision = { kind: 'complete', summary: 'looks right', decided_at: iso, agent_id: 'agent-1', valid: true };
    s.review.decision_history = [s.review.decision];
    s.review.user_prompts = [{ text: 'fix the failing test and #roz review it', at: iso }];
  }
  return s;
}

/** Trace lines as the engine writes them: a handful of hook events per session. */
function traceLines(id: string, at: string): string {
  const lines: string[] = [];
  for (let k = 0; k < 6; k++) {
    lines.push(
      JSON.stringify({
        at,
        session_id: id,
        event: k % 2 ? 'PostToolUse' : 'PreToolUse',
        tool_name: 'Bash',
        input: { command: `npm test -- --run ${k}` },
        verdict: { kind: 'allow' },
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The summaries the engine appends as this session's review unfolds (src/store/file-store.ts). */
function summaryHistory(s: SessionState): StatsSummary[] {
  const final = statsSummary(s);
  const out: StatsSummary[] = [{ ...final, a: [], t: [] }];
  for (let k = 0; k < final.a.length; k++) {
    const done = final.a.slice(0, k);
    const a = final.a[k]!;
    out.push({ ...final, a: [...done, [a[0], 0, 'pending', null, null, 0, 0, a[7]]], t: [] });
    out.push({ ...final, a: [...done, [a[0], 1, 'pending', null, null, 0, 0, a[7]]], t: [] });
    out.push({ ...final, a: final.a.slice(0, k + 1), t: [] });
  }
  return out;
}

export function generateStore(root: string, n: number): { sessions: number; bytes: number; seconds: number; index_lines: number } {
  const t0 = Date.now();
  mkdirSync(sessionsDir(root), { recursive: true });
  let bytes = 0;
  let index: string[] = [];
  let indexLines = 0;
  const flush = () => {
    if (index.length) appendFileSync(statsIndexPath(root), `${index.join('\n')}\n`);
    index = [];
  };
  for (let i = 0; i < n; i++) {
    const s = session(i, t0);
    mkdirSync(sessionDir(root, s.session_id));
    const doc = `${JSON.stringify(s)}\n`;
    const trace = traceLines(s.session_id, s.created_at);
    writeFileSync(statePath(root, s.session_id), doc);
    writeFileSync(tracePath(root, s.session_id), trace);
    bytes += doc.length + trace.length;
    for (const h of summaryHistory(s)) index.push(JSON.stringify(h));
    indexLines += summaryHistory(s).length;
    if (index.length > 10_000) flush();
  }
  flush();
  return { sessions: n, bytes, seconds: (Date.now() - t0) / 1000, index_lines: indexLines };
}
