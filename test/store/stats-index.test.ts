// The stats index: the engine appends a session's stats summary inside its
// locked update whenever what stats reports changes; `roz stats` reads that
// one file and falls back to state files for sessions it lacks.
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newSession, type SessionState } from '../../src/core/session-state.js';
import { computeStats, computeStatsOfSummaries } from '../../src/core/stats.js';
import { FileSessionStore } from '../../src/store/file-store.js';
import { sessionDir, statePath } from '../../src/store/paths.js';
import { compactStatsIndex, statsIndexPath } from '../../src/store/stats-index.js';
import { payloads, roz, runHook, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const SINCE = new Date(0);
const lines = (root: string): string[] =>
  existsSync(statsIndexPath(root)) ? readFileSync(statsIndexPath(root), 'utf8').trim().split('\n').filter(Boolean) : [];

function block(s: SessionState, id: number, tpl: string, at: Date): void {
  s.review.attempts.push({ id, template_id: tpl, blocked_at: at.toISOString(), reason: 'review', outcome: 'pending' });
}

async function fill(store: FileSessionStore, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const sid = `s-${i}`;
    let t = Date.UTC(2026, 10, 1, 0, 0, i);
    const at = () => new Date((t += 1000));
    await store.update(sid, at(), () => ({ value: null, trace: [] }));
    await store.update(sid, at(), (s) => ((s.counters.PreToolUse = 1), { value: null, trace: [] }));
    if (i % 3 === 0) continue;
    await store.update(sid, at(), (s) => (block(s, 1, i % 2 ? 'v1' : 'v2', at()), { value: null, trace: [] }));
    await store.update(sid, at(), (s) => ((s.review.attempts[0]!.spawned_at = at().toISOString()), { value: null, trace: [] }));
    await store.update(sid, at(), (s) => {
      Object.assign(s.review.attempts[0]!, { outcome: i % 4 ? 'success' : 'no_decision', decision_kind: 'complete', blocks_needed: 1 });
      if (i % 5 === 0) s.review.breaker.trips.push({ at: at().toISOString(), block_count: 3, attempt_id: 1, trigger: 'prompt' });
      return { value: null, trace: [] };
    });
  }
}

function fromStates(store: FileSessionStore) {
  return computeStats(
    store.ids().map((id) => store.read(id)!),
    SINCE,
  );
}

describe('stats index', () => {
  it('gets a line only when what stats reports changes, and gives the same report as the state files', async () => {
    const root = tempDir('roz-idx-');
    const store = new FileSessionStore(root);
    await fill(store, 12);
    // 12 sessions created; 8 of them reviewed with a block, a spawn and an outcome. The counter-only update adds none.
    expect(lines(root)).toHaveLength(12 + 8 * 3);
    const want = fromStates(store);
    expect(want.reviewed_sessions).toBe(8);
    expect(computeStatsOfSummaries(store.summaries(), SINCE)).toEqual(want);
  });

  it('falls back to the state file for sessions it lacks or cannot read, and ignores removed sessions', async () => {
    const root = tempDir('roz-idx-');
    const store = new FileSessionStore(root);
    await fill(store, 9);
    const want = fromStates(store);
    // A session written without the index (an older roz), a torn last line, a removed session.
    const old = newSession('old-1', new Date(Date.UTC(2026, 10, 2)));
    block(old, 1, 'v9', new Date(Date.UTC(2026, 10, 2)));
    mkdirSync(sessionDir(root, 'old-1'), { recursive: true });
    writeFileSync(statePath(root, 'old-1'), JSON.stringify(old));
    appendFileSync(statsIndexPath(root), '{"s":"s-1","c":"2026-11-01T00:0');
    store.remove('s-2');
    const after = computeStatsOfSummaries(store.summaries(), SINCE);
    expect(after).toEqual(fromStates(store));
    expect(after.sessions).toBe(want.sessions); // +old-1, -s-2
    expect(after.templates.find((t) => t.template_id === 'v9')?.blocks).toBe(1);
    rmSync(statsIndexPath(root));
    expect(computeStatsOfSummaries(store.summaries(), SINCE)).toEqual(after);
  });

  it('compacts to one line per live session without changing the report', async () => {
    const root = tempDir('roz-idx-');
    const store = new FileSessionStore(root);
    await fill(store, 30);
    store.remove('s-4');
    const want = fromStates(store);
    expect(compactStatsIndex(root, new Set(store.ids()))).toEqual({ before: 30 + 20 * 3, after: 29 });
    expect(lines(root)).toHaveLength(29);
    expect(computeStatsOfSummaries(store.summaries(), SINCE)).toEqual(want);
    // Reading compacts on its own once superseded lines outnumber sessions (threshold: 2x + 1,000).
    for (let k = 0; k < 1_100; k++) appendFileSync(statsIndexPath(root), `${lines(root)[0]}\n`);
    expect(computeStatsOfSummaries(store.summaries(), SINCE)).toEqual(want);
    expect(lines(root)).toHaveLength(29);
  });

  it('is written by the real hook processes and read by `roz stats`', async () => {
    const { env, store } = sandbox({ ROZ_TEMPLATE: 'v1' }); // the block template is otherwise drawn at random (70/30)
    const p = payloads('idx-hooks');
    await runHook('UserPromptSubmit', p.prompt('#roz fix it'), env);
    expect((await runHook('Stop', p.stop(), env)).json?.decision).toBe('block');
    await runHook('PreToolUse', p.pre('Read', { file_path: '/tmp/x' }), env);
    const indexed = lines(store).map((l) => JSON.parse(l));
    expect(indexed.at(-1)).toMatchObject({ s: 'idx-hooks', a: [['v1', 0, 'pending', null, null, 0, 0, 1]] });
    const viaIndex = JSON.parse((await roz(['stats', '--json'], env)).stdout);
    rmSync(statsIndexPath(store));
    const viaStates = JSON.parse((await roz(['stats', '--json'], env)).stdout);
    expect({ ...viaIndex, since: 0 }).toEqual({ ...viaStates, since: 0 });
    expect(viaIndex.templates[0].blocks).toBe(1);
  });
});
