// Waiting in a scenario for something the test cannot be told about (a file,
// a queue entry, a request the fake model saw): poll until the probe gives a
// value, or fail naming what was awaited, with the run's dump.

/** How often a probe that starts the roz CLI (about 0.1 CPU-s a call, on a 2-core machine that runs four test files) asks. */
export const CLI_POLL_MS = 1_000;

/** The probe's first truthy value, polled every `everyMs`; throws after `ms` with `what` and `dump()`. */
export async function until<T>(what: string, ms: number, probe: () => T | null | undefined | false, dump: () => string = () => '', everyMs = 300): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${dump()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
