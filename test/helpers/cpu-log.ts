// vitest setupFiles, on demand (ROZ_TEST_CPU_LOG=FILE): each test file's CPU,
// its own and its waited-for children's (the client, hooks, git), from
// /proc/self/stat, one JSON line per file. Files in forks run in a process of
// their own, so the numbers are the file's; in the unit project's shared
// threads they are the worker's so far. For finding where the suite's time
// goes (docs/performance.md, "The suite"); nothing is asserted.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const file = process.env.ROZ_TEST_CPU_LOG;

function cpu(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14-17 of stat(5): utime stime cutime cstime, in clock ticks (100 a second).
  const t = f.slice(11, 15).map(Number);
  return { self: (t[0]! + t[1]!) / 100, children: (t[2]! + t[3]!) / 100 };
}

if (file) {
  let start = cpu();
  let began = Date.now();
  beforeAll(() => {
    start = cpu();
    began = Date.now();
  });
  afterAll(() => {
    const end = cpu();
    const name = expect.getState().testPath ?? '?';
    appendFileSync(
      file,
      `${JSON.stringify({ file: name.replace(`${process.cwd()}/`, ''), pid: process.pid, wall_s: (Date.now() - began) / 1000, self_s: end.self - start.self, children_s: end.children - start.children, process_self_s: end.self, process_children_s: end.children })}\n`,
    );
  });
}
