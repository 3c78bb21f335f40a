// A synchronous pause, for the store's short waits (a lock, a racing git)
// in code paths that are synchronous from end to end.

export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
