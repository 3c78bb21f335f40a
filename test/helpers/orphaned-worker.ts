// vitest setupFiles: a fork whose vitest is gone exits instead of spinning.
// When the IPC channel to vitest closes while the fork still runs (vitest
// ended on an error, or was killed), vitest's own uncaught-error handler
// reports over that channel; the send throws "Channel closed" into the same
// handler, and the loop holds a core and grows without bound (seen: a worker
// left behind after a `--project process` run, at 3 GB, parent pid 1).
// With nobody left to report to, the only useful thing is to stop.
// Forks only: a worker thread (the unit project) has no channel of its own.
const state = globalThis as { __rozOrphanGuard?: boolean };
if (process.send && !state.__rozOrphanGuard) {
  state.__rozOrphanGuard = true;
  process.once('disconnect', () => process.exit(1));
}
