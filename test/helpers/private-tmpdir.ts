// vitest globalSetup: the whole run gets a temp folder of its own (TMPDIR,
// which the test processes, roz and the real client inherit), removed when the
// run ends. What a test or a process it starts leaves behind is then gone
// with it: the Claude Code client's sandbox makes a `claude-empty-*` folder
// in the temp folder on every sandboxed start and never removes it, and a
// test that forgets its cleanup no longer fills /tmp. The run says what it
// removed, so a leaking test is still seen (and fixed in its own afterAll).
// ROZ_E2E_KEEP=1 keeps the folder for a look afterwards.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // Each vitest project runs the global setup again (vitest.config.ts): one folder for the
  // whole run, not one inside the other (nested, its paths wrapped on 120-column screens).
  if (process.env.ROZ_TEST_RUN_TMPDIR && process.env.TMPDIR === process.env.ROZ_TEST_RUN_TMPDIR) return () => {};
  const saved = process.env.TMPDIR;
  // Short: Unix socket paths made under it must stay below 108 bytes.
  const dir = mkdtempSync(join(tmpdir(), 'rzt-'));
  process.env.TMPDIR = dir;
  process.env.ROZ_TEST_RUN_TMPDIR = dir;
  return () => {
    delete process.env.ROZ_TEST_RUN_TMPDIR;
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    let left: string[] = [];
    try {
      left = readdirSync(dir);
    } catch {
      return;
    }
    if (process.env.ROZ_E2E_KEEP) {
      process.stderr.write(`tests: temp folder kept (ROZ_E2E_KEEP): ${dir}\n`);
      return;
    }
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    } catch (err) {
      // A process a timed-out test left running still writes there: say so, never fail the run for it.
      process.stderr.write(`tests: could not remove the run's temp folder ${dir}: ${(err as Error).message}\n`);
    }
    if (left.length === 0) return;
    // Count by name without the random suffix: `claude-empty-AbC123` -> `claude-empty`.
    const kinds = new Map<string, number>();
    for (const name of left) {
      const kind = name.replace(/[-.][^-.]*$/, '');
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    const list = [...kinds].map(([k, n]) => `${k} x${n}`).join(', ');
    process.stderr.write(`tests: removed ${left.length} entries left in the run's temp folder (${list})\n`);
  };
}
