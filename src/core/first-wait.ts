// A hook process arms its deadline (src/cli/hook-entry.ts) only when it is
// about to wait on the event loop: a busy session lock, the supervisor, a
// stdin that has no data yet. Most hooks do all their work in synchronous
// I/O and microtasks and exit without ever waiting; arming a timer for them
// (setImmediate, then setTimeout) made node compile its timer and async-hook
// internals in every hook: 0.6M instructions of a Bash pre-tool-use (callgrind).
// Whatever waits calls `aboutToWait()` first; outside a hook process nothing is registered.
let armDeadline: (() => void) | null = null;

/** Registers what to do at the first wait (once). */
export function onFirstWait(arm: () => void): void {
  armDeadline = arm;
}

/** Call before anything that waits on the event loop (a timer, a socket, a stream). */
export function aboutToWait(): void {
  const arm = armDeadline;
  armDeadline = null;
  arm?.();
}
