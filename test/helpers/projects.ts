// Which vitest project a test file belongs to (vitest.config.ts), decided by
// what the file does rather than by a list to keep up to date:
//   - e2e:     test/e2e, the real pinned clients against a scripted fake API;
//   - process: test/process, and any other test that starts a process (the
//              built hooks or CLI, the bundle, a pty, git): seconds per file,
//              and what differs on the oldest Node (.ci/run);
//   - unit:    the rest, pure logic and in-process file work: the whole
//              project runs in seconds.
// A test file that starts a child names one of the markers below (it imports
// child_process or node-pty, or a helper that does); the others cannot start
// one. Misfiling only costs time: every project runs in `npm test`. The unit
// project's workers keep imported modules from file to file (vitest.config.ts);
// a test that needs them fresh is listed in FRESH_MODULES and runs isolated,
// with the process project.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const TEST_FILE = /\.test\.tsx?$/;
/** Imports through which a test starts a process (the helpers start the built hooks and bundles). */
const STARTS_A_PROCESS = /node:child_process|@lydell\/node-pty|helpers\/hooks\.js|helpers\/bundle\.js|helpers\/pty-screen\.js|helpers\/test-git\.js/;

/** Unit tests that must import roz's modules fresh (each says why at its top). */
const FRESH_MODULES = [
  // the engine's on-demand modules must not be loaded yet when it starts
  'test/governance/on-demand.test.ts',
  // the apply_patch reader must not be loaded yet (it asserts the hook's on-demand load)
  'test/core/clients.test.ts',
];

export interface TestProjects {
  unit: string[];
  process: string[];
}

/** The test files outside test/e2e and test/process, split into unit and process, as paths relative to `root`. */
export function splitTests(root: string): TestProjects {
  const unit: string[] = [];
  const process: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'e2e' && entry.name !== 'process' && entry.name !== 'fixtures') walk(path);
      } else if (TEST_FILE.test(entry.name)) {
        const file = relative(root, path);
        (STARTS_A_PROCESS.test(readFileSync(path, 'utf8')) || FRESH_MODULES.includes(file) ? process : unit).push(file);
      }
    }
  };
  walk(join(root, 'test'));
  return { unit: unit.sort(), process: process.sort() };
}
