// The compiled scope matcher (globs filed under their literal base) must give
// exactly the answers of picomatch testing every glob in turn. Property-style:
// random globs and paths from a small alphabet that includes every character
// picomatch treats specially, plus paths built to sit on and around each base.
import { describe, expect, it } from 'vitest';
import { scopeMatcher, scopeMatcherPerGlob } from '../../src/core/governance/scope.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGMENTS = ['src', 'lib', 'a', 'b', '.x', '.', '..', 'a.ts', 'b.js', 'ab', ''];
const GLOB_PARTS = ['*', '**', '?', '*.ts', 'a*', '[ab]', '{a,b}', '{src,lib}', '+(a)', '@(a|b)', '!(a)', '(a|b)', 'a\\*', '\\', '!', '+', '$', '^', '#'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function randomGlob(r: () => number): string {
  const n = 1 + Math.floor(r() * 4);
  const segs: string[] = [];
  for (let i = 0; i < n; i++) segs.push(r() < 0.6 ? pick(r, SEGMENTS) : pick(r, GLOB_PARTS));
  let g = segs.join('/');
  const x = r();
  if (x < 0.08) g = `!${g}`;
  else if (x < 0.14) g = `./${g}`;
  else if (x < 0.2) g = `${g}/`;
  else if (x < 0.24) g = `/${g}`;
  return g;
}

function randomPath(r: () => number, globs: readonly string[]): string {
  if (r() < 0.4) {
    // On or below a glob's literal text: where a wrong index would show.
    const g = pick(r, globs).replace(/^!|^\.\//, '');
    const cut = g
      .split('/')
      .slice(0, 1 + Math.floor(r() * 3))
      .join('/');
    return r() < 0.5 ? cut : `${cut}/${pick(r, SEGMENTS)}`;
  }
  const n = 1 + Math.floor(r() * 4);
  const segs: string[] = [];
  for (let i = 0; i < n; i++) segs.push(pick(r, [...SEGMENTS, 'x', 'ab.ts', '[ab]', '{a,b}', '*']));
  return segs.join('/');
}

describe('compiled scope matcher', () => {
  it('agrees with per-glob picomatch on random globs and paths', () => {
    const r = rng(17);
    let compared = 0;
    let matched = 0;
    for (let round = 0; round < 400; round++) {
      const globs = Array.from({ length: 1 + Math.floor(r() * 12) }, () => randomGlob(r));
      const fast = scopeMatcher(globs);
      const slow = scopeMatcherPerGlob(globs);
      for (let i = 0; i < 60; i++) {
        const p = randomPath(r, globs);
        const want = slow(p);
        if (fast(p) !== want) throw new Error(`globs ${JSON.stringify(globs)} path ${JSON.stringify(p)}: compiled ${!want}, per-glob ${want}`);
        compared += 1;
        if (want) matched += 1;
      }
    }
    // The generator must exercise both answers, or the comparison proves little.
    expect(compared).toBe(24000);
    expect(matched).toBeGreaterThan(2000);
    expect(compared - matched).toBeGreaterThan(2000);
  });

  it('keeps the documented shapes', () => {
    const m = scopeMatcher(['src/auth/', './lib/*.ts', 'packages/p1/src/**/*.ts', 'docs/**', '**/*.md', 'README']);
    expect(m('src/auth')).toBe(true);
    expect(m('src/auth/a/b.ts')).toBe(true);
    expect(m('src/authz/a.ts')).toBe(false);
    expect(m('lib/x.ts')).toBe(true);
    expect(m('lib/sub/x.ts')).toBe(false);
    expect(m('packages/p1/src/deep/x.ts')).toBe(true);
    expect(m('packages/p1/src/deep/x.js')).toBe(false);
    expect(m('docs/.hidden/x')).toBe(true);
    expect(m('any/where/n.md')).toBe(true);
    expect(m('README')).toBe(true);
    expect(m('README/x')).toBe(false);
  });
});
