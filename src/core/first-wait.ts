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

let moveDeadline: ((ms: number) => void) | null = null;

/** Registers how to move the deadline for a wait known to be long. */
export function onLongWait(move: (ms: number) => void): void {
  moveDeadline = move;
}

/**
 * A wait known to be long (the reviewer roz starts at a stop, engine/reviewer-launch.ts): the hook's
 * deadline becomes `ms` from now, armed or not. The client's own hook timeout, set longer by roz's
 * launch, still bounds it.
 */
export function longWait(ms: number): void {
  armDeadline = null;
  moveDeadline?.(ms);
}
