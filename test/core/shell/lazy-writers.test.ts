// Every write extractor moved to the on-demand module (lazy-writers.ts) is one the write
// analysis asks for by name: a name missing from the list would silently lose its writes.
import { describe, expect, it } from 'vitest';
import { lazyWriterName } from '../../../src/core/shell/effects-hint.js';
import { LAZY_WRITERS } from '../../../src/core/shell/lazy-writers.js';
import { WRITERS } from '../../../src/core/shell/write-rules.js';

describe('lazy writers', () => {
  it('are all named for the write analysis, and none is also a core writer', () => {
    expect(Object.keys(LAZY_WRITERS).filter((n) => !lazyWriterName(n))).toEqual([]);
    expect(Object.keys(LAZY_WRITERS).filter((n) => Object.hasOwn(WRITERS, n))).toEqual([]);
  });
});
