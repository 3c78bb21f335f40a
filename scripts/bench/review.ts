// The review's worktree snapshot (src/store/tree-snapshot.ts: roz's own walk
// and hashing of HEAD's files, the index's and the untracked ones, written
// into roz's own repository), next to `git status --porcelain` on the same
// worktree in the same process: the cheapest git command that looks at every file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { takeSnapshot } from '../../src/store/tree-snapshot.js';
import { quantiles } from './common.js';

const median = (xs: number[]): number => quantiles(xs).median;

export function reviewSnapshot(rounds: number, cwd: string) {
  const snap: number[] = [];
  const status: number[] = [];
  const store = mkdtempSync(join(tmpdir(), 'roz-bench-snap-'));
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 ? ['snap', 'status'] : ['status', 'snap'];
    for (const k of order) {
      const t0 = performance.now();
      if (k === 'snap') {
        const r = takeSnapshot(cwd, store);
        if (!r.ok) throw new Error(`no snapshot of ${cwd}: ${r.error}`);
        snap.push(performance.now() - t0);
      } else {
        spawnSync('git', ['status', '--porcelain'], { cwd, stdio: 'ignore' });
        status.push(performance.now() - t0);
      }
    }
  }
  rmSync(store, { recursive: true, force: true });
  const files = spawnSync('git', ['ls-files'], { cwd, encoding: 'utf8' }).stdout.split('\n').filter(Boolean).length;
  return {
    tracked_files: files,
    snapshot_median_ms: +median(snap).toFixed(1),
    baseline_git_status_median_ms: +median(status).toFixed(1),
    ratio_snapshot_over_status: +(median(snap) / median(status)).toFixed(2),
  };
}
