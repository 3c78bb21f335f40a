// Which shell commands count as a read for a client with no read tool (Codex): plain, static
// reads whose output reaches the agent; anything doubtful counts as none.
import { describe, expect, it } from 'vitest';
import { shellReads } from '../../src/core/governance/shell-reads.js';
import { analyzeCommand } from '../../src/core/shell/index.js';

const reads = (command: string) => shellReads(analyzeCommand(command));

describe('shellReads', () => {
  it('names the files cat, sed -n, head, tail and nl show', () => {
    expect(reads('cat a.ts b.ts')).toEqual(['a.ts', 'b.ts']);
    expect(reads("sed -n '1,200p' src/a.ts")).toEqual(['src/a.ts']);
    expect(reads("sed -n -e '1,5p' -e '9p' src/a.ts")).toEqual(['src/a.ts']);
    expect(reads('head -n 40 a.ts && tail -c 10 b.ts')).toEqual(['a.ts', 'b.ts']);
    expect(reads('nl -ba a.ts | head -5')).toEqual(['a.ts']);
    expect(reads('cat -- -odd')).toEqual(['-odd']);
  });

  it('counts nothing doubtful: output sent elsewhere, sed -i, a cd, globs, run-time words, substitutions', () => {
    expect(reads('cat a.ts > /dev/null')).toEqual([]);
    expect(reads('cat a.ts >> log')).toEqual([]);
    expect(reads("sed -i 's/a/b/' a.ts")).toEqual([]);
    expect(reads('cd src && cat a.ts')).toEqual([]);
    expect(reads('cat src/*.ts')).toEqual([]);
    expect(reads('cat "$F"')).toEqual([]);
    expect(reads('echo "$(cat a.ts)"')).toEqual([]);
    expect(reads('grep -n x a.ts')).toEqual([]);
    expect(reads('cat a.ts | wc -l')).toEqual([]);
    expect(reads('cat a.ts &')).toEqual([]);
    expect(reads('cat a.ts 2>/dev/null')).toEqual(['a.ts']);
  });
});
