// Tells plugin/bin/roz which lazily loaded parts of the hook bundle
// this process ran, so the V8 code cache is rewritten to cover them (V8 only
// caches functions that have run). A no-op outside that loader (tests, CLI).
export type CodePath = 'governance' | 'supervised';

export function markCodePath(path: CodePath): void {
  (globalThis as { __rozCodePaths?: Set<string> }).__rozCodePaths?.add(path);
}

/**
 * The hook bundle's V8 code cache directory, as plugin/bin/roz chooses it
 * (that launcher is plain CommonJS and cannot import this; keep the two in
 * step). Null when the cache is off.
 */
export function codeCacheDir(env: Record<string, string | undefined>, home: string): string | null {
  const v = env.ROZ_CODE_CACHE;
  if (v === 'off' || v === '0' || v === 'false') return null;
  if (v) return v;
  return `${env.XDG_CACHE_HOME || `${home}/.cache`}/roz`;
}
