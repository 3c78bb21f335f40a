// Temp folders a test file makes, removed when the file is done. Importing
// this module registers one afterAll in every test file that (directly or
// through a helper) imports it: vitest evaluates it per file. It runs after
// the file's own afterAll hooks (registered later, run earlier), so a
// supervisor or server the file stops is gone before its folder is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

afterAll(() => {
  if (process.env.ROZ_E2E_KEEP) return;
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A child still writing into it: the run's own TMPDIR (test/helpers/private-tmpdir.ts) goes at the end.
    }
  }
});

/** `mkdtemp(<base>/<prefix>XXXXXX)`, removed after this test file. */
export function tempDir(prefix: string, base: string = tmpdir()): string {
  const dir = mkdtempSync(join(base, prefix));
  made.push(dir);
  return dir;
}
