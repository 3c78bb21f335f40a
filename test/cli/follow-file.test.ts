// `roz trace --follow`'s tail: file events through chokidar, polling only when
// asked (or when events fail), every line once, from a file created late.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { followLines } from '../../src/cli/follow-file.js';
import { tempDir } from '../helpers/temp-dir.js';

describe.each([
  ['events', false],
  ['polling', true],
] as const)('followLines (%s)', (mode, poll) => {
  it('prints each complete line once, from a file created after it started', async () => {
    const file = join(tempDir('roz-follow-'), 'trace.jsonl');
    const lines: string[] = [];
    const f = await followLines(file, (l) => lines.push(l), { poll });
    try {
      expect(f.mode).toBe(mode);
      appendFileSync(file, '{"n":1}\n{"n":2}\n{"n":');
      await vi.waitFor(() => expect(lines).toEqual(['{"n":1}', '{"n":2}']), { timeout: 5_000, interval: 20 });
      appendFileSync(file, '3}\n');
      await vi.waitFor(() => expect(lines).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']), { timeout: 5_000, interval: 20 });
      // A character whose bytes arrive in two writes, back to back (inside chokidar's throttle).
      const e = Buffer.from('é\n');
      appendFileSync(file, e.subarray(0, 1));
      appendFileSync(file, e.subarray(1));
      await vi.waitFor(() => expect(lines.at(-1)).toBe('é'), { timeout: 5_000, interval: 20 });
    } finally {
      await f.close();
    }
  });
});
