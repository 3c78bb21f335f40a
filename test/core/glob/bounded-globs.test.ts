// Globs from agent-writable config match in bounded time (issue 24), with the
// answers they had before: the linear matcher agrees with V8 on picomatch's
// own regexes (random globs and paths), the command-gate matcher agrees with
// the RegExp it replaced, and the hostile globs that backtracked for minutes
// answer in milliseconds.
import ignore from 'ignore';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { linearRegex } from '../../../src/core/glob/linear-regex.js';
import { globTest } from '../../../src/core/glob/path-glob.js';
import { ignoreMatcher, scopeMatcher } from '../../../src/core/governance/scope.js';
import { commandGlob } from '../../../src/core/review/gates.js';
import { boundedIgnore } from '../../../src/store/bounded-ignore.js';

function rng(seed: number): (n: number) => number {
  let r = seed;
  return (n) => {
    r = (r * 1103515245 + 12345) & 0x7fffffff;
    return r % n;
  };
}

const HOSTILE = '*a*a*a*a*a*a*a*a*a*a*a*a*b';

/** Milliseconds one call takes. */
function timed(f: () => unknown): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

describe('linear regex', () => {
  it("answers like V8 on picomatch's regexes for random globs and paths", () => {
    const parts = [
      '*',
      '**',
      '?',
      'a',
      'b',
      '.',
      '/',
      '[a-c]',
      '[!a]',
      '{a,b}',
      '@(a|b)',
      '!(a)',
      '+(a|b)',
      '*(b)',
      '?(a)',
      'src',
      '.x',
      '\\*',
      '[[:alpha:]]',
      '!',
      '{1..3}',
    ];
    const chars = ['a', 'b', 'c', '.', '/', 'x', 'src', '..', '\n', '1'];
    const rnd = rng(7);
    let compared = 0;
    for (let k = 0; k < 4000; k++) {
      const glob = Array.from({ length: 1 + rnd(5) }, () => parts[rnd(parts.length)]).join('');
      let re: RegExp;
      try {
        re = picomatch.makeRe(glob, { dot: true });
      } catch {
        continue;
      }
      const lin = linearRegex(re.source, re.flags);
      for (let j = 0; j < 10; j++) {
        const path = Array.from({ length: rnd(6) }, () => chars[rnd(chars.length)]).join('');
        expect(lin.test(path), `${glob} on ${JSON.stringify(path)}`).toBe(re.test(path));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(30_000);
  });

  it('refuses what is not regular: a glob with a backreference matches nothing and is reported', () => {
    const t = globTest(['(a)\\1', 'src/**']);
    expect(t.refused).toEqual(['(a)\\1']);
    expect(t('aa')).toBe(false);
    expect(t('src/x.ts')).toBe(true);
    expect(ignoreMatcher('(a)\\1\n').refused.map((r) => r.pattern)).toEqual(['(a)\\1']);
  });
});

describe('hostile globs answer in milliseconds', () => {
  it('a command gate glob on a 120-character command (the old RegExp took minutes)', () => {
    const m = commandGlob(HOSTILE);
    const long = `echo ${'a'.repeat(115)}`;
    expect(long).toHaveLength(120);
    let answer = true;
    expect(timed(() => (answer = m(long)))).toBeLessThan(50);
    expect(answer).toBe(false);
    expect(m(`echo ${'a'.repeat(114)}b`)).toBe(true);
    // And on a 100 KB command.
    expect(timed(() => m('a'.repeat(100_000)))).toBeLessThan(1000);
  });

  it('owned_scope, .intentignore and nested extglobs on long paths', () => {
    const name = 'a'.repeat(120);
    for (const glob of [HOSTILE, `src/${HOSTILE}`, '**/*a*a*a*a*a*a*a*a*b/**', '+(a|aa)+(a|aa)b', '*(*(a))b']) {
      const scope = scopeMatcher([glob]);
      const ignore = ignoreMatcher(glob);
      for (const path of [name, `src/${name}`, `${'a/'.repeat(500)}${name}`]) {
        expect(
          timed(() => scope(path)),
          `${glob} on ${path.length} chars`,
        ).toBeLessThan(200);
        expect(
          timed(() => ignore({ given: path, real: `/p/${path}`, rel: path })),
          `${glob} on ${path.length} chars`,
        ).toBeLessThan(200);
        expect(scope(path)).toBe(false);
      }
    }
  });
});

describe('command gates keep their meaning', () => {
  /** The RegExp translation roz used before (backtracking, on short inputs here). */
  function oldGlob(glob: string): (s: string) => boolean {
    const body = glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    const re = new RegExp(`^${body}$`, 's');
    return (s) => re.test(s);
  }

  it('answers like the old RegExp on random globs and commands', () => {
    const gparts = ['*', '?', 'a', 'b', ' ', 'gh', '.', '\\', '(', '$', '\n', '**'];
    const sparts = ['a', 'b', ' ', 'gh', '.', '\\', '(', '$', '\n', '*', '?'];
    const rnd = rng(11);
    for (let k = 0; k < 3000; k++) {
      const glob = Array.from({ length: rnd(7) }, () => gparts[rnd(gparts.length)]).join('');
      const oldM = oldGlob(glob);
      const newM = commandGlob(glob);
      for (let j = 0; j < 10; j++) {
        const s = Array.from({ length: rnd(8) }, () => sparts[rnd(sparts.length)]).join('');
        expect(newM(s), `${JSON.stringify(glob)} on ${JSON.stringify(s)}`).toBe(oldM(s));
      }
    }
  });
});

describe('.gitignore patterns (the snapshot walk) answer in bounded time with ignore’s own answers', () => {
  it('a hostile .gitignore on a 100-level path answers in milliseconds (plain ignore: over 20 s)', () => {
    const ig = boundedIgnore('**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b\n', { allowRelativePaths: true });
    const deep = `${'a/'.repeat(100)}a`;
    let answer = true;
    expect(timed(() => (answer = ig.ignores(deep)))).toBeLessThan(500);
    expect(answer).toBe(false);
    expect(ig.ignores('a/x/a/y/a/a/a/a/a/b')).toBe(true);
  });

  it('agrees with plain ignore on random patterns and paths', () => {
    const parts = ['*', '**', '?', 'a', 'b', '.', '/', '[a-c]', '[!a]', '\\*', '!', 'A', '#', ' ', 'x/'];
    const segs = ['a', 'b', 'A', 'x', '.a', 'ab', 'c', '*'];
    const rnd = rng(5);
    let compared = 0;
    for (let k = 0; k < 1500; k++) {
      const lines = Array.from({ length: 1 + rnd(3) }, () => Array.from({ length: 1 + rnd(5) }, () => parts[rnd(parts.length)]).join(''));
      const text = lines.join('\n');
      const plain = ignore({ allowRelativePaths: true }).add(text);
      const bounded = boundedIgnore(text, { allowRelativePaths: true });
      for (let j = 0; j < 8; j++) {
        const path = Array.from({ length: 1 + rnd(4) }, () => segs[rnd(segs.length)]).join('/') + (rnd(4) === 0 ? '/' : '');
        expect(bounded.ignores(path), `${JSON.stringify(text)} on ${path}`).toBe(plain.ignores(path));
        compared++;
      }
    }
    expect(compared).toBe(12_000);
  });

  it("the NFA answers like V8 on ignore's own regexes (case-insensitive)", () => {
    const parts = ['*', '**', '?', 'a', 'b', '/', '[a-c]', '[!a]', 'A', 'x/'];
    const segs = ['a', 'b', 'A', 'x', 'ab', 'B'];
    const rnd = rng(9);
    let compared = 0;
    for (let k = 0; k < 1500; k++) {
      const pattern = Array.from({ length: 1 + rnd(5) }, () => parts[rnd(parts.length)]).join('');
      const ig = ignore({ allowRelativePaths: true }).add(pattern);
      const rules = (ig as unknown as { _rules: { _rules: { regex: RegExp; checkRegex: RegExp }[] } })._rules._rules;
      for (const rule of rules) {
        for (const re of [rule.regex, rule.checkRegex]) {
          const lin = linearRegex(re.source, re.flags);
          for (let j = 0; j < 6; j++) {
            const path = Array.from({ length: 1 + rnd(4) }, () => segs[rnd(segs.length)]).join('/') + (rnd(3) === 0 ? '/' : '');
            expect(lin.test(path), `${re} on ${path}`).toBe(re.test(path));
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(5000);
  });
});
