import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { splitTests } from './test/helpers/projects.js';
import SlowFirst from './test/helpers/slow-first.js';

// Three projects (test/helpers/projects.ts says which file goes where):
//   unit     pure logic and in-process file work, in worker threads that keep
//            their modules between files; runs first and ends within seconds;
//   process  tests that start the built hooks, the CLI, a pty or git;
//   e2e      the real pinned clients (test/e2e/README.md).
// process and e2e then share the workers, slowest files first. One project alone:
// `npx vitest run --project unit` (or process, e2e).
const tests = splitTests(import.meta.dirname);
// ROZ_TEST_FORKS=N sets it for a measurement (a run on another machine, or another count).
const FORKS = Number(process.env.ROZ_TEST_FORKS) || Math.max(4, availableParallelism() + 2);

export default defineConfig({
  test: {
    // Process and pty tests spawn real children; give them room on a 2-core CI box.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // At least two test files at a time (vitest's default, one fewer than the cores, is a
    // single worker on CI's 2 cores). Files share nothing: each makes its own temp folders and
    // bundles (test/supervisor/helpers/bundle.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    // Only the unit project runs in threads; they keep the modules they imported (src, ink)
    // from one file to the next, which makes that project about three times cheaper in CPU.
    // A unit test therefore leaves no module state behind. (The pool's setting, not a project's.)
    // The process and e2e files (forks) wait more than they compute: a real client spends most of a
    // run idle (its start, the model's turns, hooks), and a full run with three forks on 2 cores used
    // ~1.5 of them. So they get two forks more than the cores, at least four: on Node 26 on this
    // 2-core machine the whole vitest run took 585 s with four, 734 s with three (docs/performance.md,
    // "The suite"). On Node 20, where every node process starts at three times the CPU, four were
    // no faster than three.
    // (The unit project's threads stay at maxWorkers: tinypool ended a 3-thread run with
    // "Terminating worker thread" when the forks took over.)
    poolOptions: { threads: { isolate: false }, forks: { maxForks: FORKS } },
    // The run's own TMPDIR, removed at the end (leaked temp folders, the client's own included).
    globalSetup: ['test/helpers/private-tmpdir.ts'],
    // Each file's temp folders (test/helpers/temp-dir.ts) go when the file is done; with
    // ROZ_TEST_CPU_LOG=FILE each file's CPU is logged (test/helpers/cpu-log.ts).
    setupFiles: ['test/helpers/temp-dir-cleanup.ts', 'test/helpers/cpu-log.ts', 'test/helpers/orphaned-worker.ts'],
    // The slowest files first, so no long one starts last beside an idle worker (test/helpers/slow-first.ts).
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: tests.unit, pool: 'threads', sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'process', include: ['test/process/**/*.test.ts', ...tests.process], pool: 'forks', sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], pool: 'forks', sequence: { groupOrder: 1 } },
      },
    ],
  },
});
