// The review's worktree snapshot (src/store/worktree.ts: HEAD + a git tree of
// tracked and untracked files in a temporary index), next to `git status
// --porcelain` on the same worktree in the same process: the cheapest git
// command that looks at every file.
import { spawnSync } from 'node:child_process';
import { snapshotWorktree } from '../../src/store/worktree.js';
import { quantiles } from './common.js';

const median = (xs: number[]): number => quantiles(xs).median;

export function reviewSnapshot(rounds: number, cwd: string) {
  const snap: number[] = [];
  const status: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 ? ['snap', 'status'] : ['status', 'snap'];
    for (const k of order) {
      const t0 = performance.now();
      if (k === 'snap') {
        if (!snapshotWorktree(cwd, new Date())) throw new Error(`no snapshot of ${cwd}`);
        snap.push(performance.now() - t0);
      } else {
        spawnSync('git', ['status', '--porcelain'], { cwd, stdio: 'ignore' });
        status.push(performance.now() - t0);
      }
    }
  }
  const files = spawnSync('git', ['ls-files'], { cwd, encoding: 'utf8' }).stdout.split('\n').filter(Boolean).length;
  return {
    tracked_files: files,
    snapshot_median_ms: +median(snap).toFixed(1),
    baseline_git_status_median_ms: +median(status).toFixed(1),
    ratio_snapshot_over_status: +(median(snap) / median(status)).toFixed(2),
  };
}
