// Temp folders a test file makes, removed when the file is done. The setup
// file test/helpers/temp-dir-cleanup.ts (vitest.config.ts) registers
// removeTempDirs as an afterAll in every test file: registered first, it runs
// after the file's own afterAll hooks, so a supervisor or server the file stops
// is gone before its folder is. (Not here at module level: the unit project
// shares modules between files, so this module is evaluated once per worker.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** Remove the folders tempDir made (since the last call). */
export function removeTempDirs(): void {
  if (process.env.ROZ_E2E_KEEP) return;
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A child still writing into it: the run's own TMPDIR (test/helpers/private-tmpdir.ts) goes at the end.
    }
  }
}

/** `mkdtemp(<base>/<prefix>XXXXXX)`, removed after this test file. */
export function tempDir(prefix: string, base: string = tmpdir()): string {
  const dir = mkdtempSync(join(base, prefix));
  made.push(dir);
  return dir;
}
