// Tells plugin/bin/roz which lazily loaded parts of the hook bundle
// this process ran, so the V8 code cache is rewritten to cover them (V8 only
// caches functions that have run). A no-op outside that loader (tests, CLI).
export type CodePath = 'governance' | 'supervised';

export function markCodePath(path: CodePath): void {
  (globalThis as { __rozCodePaths?: Set<string> }).__rozCodePaths?.add(path);
}
