import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirst from './test/helpers/slow-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Process and pty tests spawn real children; give them room on a 2-core CI box.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // At least two test files at a time (vitest's default, one fewer than the cores, is a
    // single worker on CI's 2 cores). The suite's time is CPU (the real client starting,
    // hook processes, git), so two workers keep both cores busy. Files share nothing: each
    // makes its own temp folders and bundles (test/supervisor/helpers/bundle.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    // The run's own TMPDIR, removed at the end (leaked temp folders, the client's own included).
    globalSetup: ['test/helpers/private-tmpdir.ts'],
    // The slowest files first, so no long one starts last beside an idle worker (test/helpers/slow-first.ts).
    sequence: { sequencer: SlowFirst },
  },
});
