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
    expect(reads('cat a.ts | wc -l')).toEqual([]);
    expect(reads('cat a.ts &')).toEqual([]);
    expect(reads('cat a.ts 2>/dev/null')).toEqual(['a.ts']);
  });

  it('names the files grep and rg print matching lines of; the pattern is no file', () => {
    expect(reads('grep -n x a.ts')).toEqual(['a.ts']);
    expect(reads("rg -n 'fn main' src/a.rs src/b.rs")).toEqual(['src/a.rs', 'src/b.rs']);
    expect(reads('rg -n -C 3 handler src/app.ts')).toEqual(['src/app.ts']);
    expect(reads('grep -A3 -B 2 TODO a.ts')).toEqual(['a.ts']);
    expect(reads('grep -e x -e y a.ts b.ts')).toEqual(['a.ts', 'b.ts']);
    expect(reads('rg --regexp=x a.ts')).toEqual(['a.ts']);
    expect(reads('rg -g "*.ts" -n x a.ts')).toEqual(['a.ts']);
    expect(reads('grep -rn x -- -odd')).toEqual(['-odd']);
    expect(reads('rg -n x a.ts | head -40')).toEqual(['a.ts']);
    expect(reads('egrep -i "a|b" a.ts && fgrep -n . b.ts')).toEqual(['a.ts', 'b.ts']);
  });

  it('counts no search whose output hides the lines, names no file, or reads at run time', () => {
    expect(reads('grep -l x a.ts b.ts')).toEqual([]);
    expect(reads('grep -rlw x a.ts')).toEqual([]);
    expect(reads('grep -c x a.ts')).toEqual([]);
    expect(reads('grep -q x a.ts && echo yes')).toEqual([]);
    expect(reads('rg -o x a.ts')).toEqual([]);
    expect(reads('rg --files-with-matches x a.ts')).toEqual([]);
    expect(reads('rg --count x a.ts')).toEqual([]);
    expect(reads('rg -r y x a.ts')).toEqual([]);
    expect(reads('rg --pre ./decode x a.ts')).toEqual([]);
    expect(reads('rg --json x a.ts')).toEqual([]);
    expect(reads('rg -n x')).toEqual([]);
    expect(reads('grep x')).toEqual([]);
    expect(reads('rg $FLAGS x a.ts')).toEqual([]);
    expect(reads('rg -n x src/*.ts')).toEqual([]);
    expect(reads('rg -n x a.ts > hits.txt')).toEqual([]);
    expect(reads('rg -n x a.ts | wc -l')).toEqual([]);
    expect(reads('cd src && rg -n x a.ts')).toEqual([]);
  });

  it('counts no awk: what it prints is its program’s choice', () => {
    expect(reads("awk 'NR>=1 && NR<=40' a.ts")).toEqual([]);
    expect(reads("awk '{print $1}' a.ts")).toEqual([]);
  });
});
