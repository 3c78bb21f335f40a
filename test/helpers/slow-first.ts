// Test files in an order that keeps both workers busy to the end (within a
// project group of vitest.config.ts: unit first, then process and e2e together). vitest
// orders by the durations it cached in an earlier run, and without that cache
// (a fresh clone: CI) by file size, largest first: the bench's smoke test,
// small and about three minutes long, then ran last, beside an idle worker.
// So the files measured slowest go first, in this order, and the rest after
// them as vitest would order them. Measured on this project's suite
// (2 cores, 2026-11-28; reordered 2026-11-29 after the Codex and Gemini files, three forks); a file missing from the list only runs later, and a
// listed one that no longer exists is ignored.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOWEST = [
  'test/e2e/review-precision.e2e.test.ts',
  'test/e2e/git-trust-plants.e2e.test.ts',
  'test/process/bench-quick.test.ts',
  'test/process/fleet-merge.test.ts',
  'test/e2e/review-integrity.e2e.test.ts',
  'test/e2e/roz-files-branch.e2e.test.ts',
  'test/e2e/review-gate.e2e.test.ts',
  'test/e2e/worktree-sandbox.e2e.test.ts',
  'test/e2e/launched-reviewer.e2e.test.ts',
  'test/e2e/trust-writes.e2e.test.ts',
  'test/e2e/fleet-worktrees.e2e.test.ts',
  'test/e2e/guard.e2e.test.ts',
  'test/e2e/codex-exec.e2e.test.ts',
  'test/e2e/gemini-exec.e2e.test.ts',
  'test/e2e/control-socket.e2e.test.ts',
  'test/e2e/fleet-reboot.e2e.test.ts',
  'test/e2e/human-review.e2e.test.ts',
  'test/e2e/object-store.e2e.test.ts',
  'test/e2e/client-dialog.e2e.test.ts',
  'test/supervisor/attach-pty.test.ts',
];

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rest = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = SLOWEST.findIndex((s) => f.moduleId.endsWith(`/${s}`));
      return i < 0 ? SLOWEST.length : i;
    };
    // Stable: among the unlisted, vitest's own order stands.
    return rest
      .map((f, i) => ({ f, i, r: rank(f) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((x) => x.f);
  }
}
