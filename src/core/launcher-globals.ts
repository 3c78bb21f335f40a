// What the hook launcher (src/launcher/roz.ts, built to plugin/bin/roz) and
// the hook bundle it runs (dist/hook.cjs) hand each other through globalThis:
// the bundle runs in a vm.Script, so a global is the one channel that costs
// nothing to set up. One declaration, so both sides agree on the shapes.

/** The launcher's first read of the hook's stdin (to choose its code cache by the tool): its bytes, or its error. */
export interface StdinHead {
  buf: Buffer;
  size: number;
  err: NodeJS.ErrnoException | null;
}

export interface LauncherGlobals {
  /** The first read, for the bundle to go on from; the bundle clears it. */
  __rozStdinHead?: StdinHead | null;
  /** Set by the bundle as it answers the client: a run that exits without it answered nothing. */
  __rozHookAnswered?: boolean;
  /** The lazily loaded parts this process used ("governance", "supervised"): what its code cache must cover. */
  __rozCodePaths?: Set<string>;
}

/** globalThis, typed as the launcher and the bundle share it. */
export const launcherGlobals = (): LauncherGlobals => globalThis as LauncherGlobals;
