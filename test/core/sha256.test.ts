// core/sha256.ts hashes in JavaScript below 256 KiB and with node:crypto above:
// both must give node:crypto's digest, for text (as UTF-8) and bytes, at the edge too.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/sha256.js';

const native = (d: string | Uint8Array): string => createHash('sha256').update(d).digest('hex');

describe('sha256', () => {
  it('matches the FIPS 180-2 vectors', () => {
    expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it("is node:crypto's digest at every length across the first blocks' padding edges (the JavaScript hash, core/sha256.ts)", () => {
    // Lengths 55/56 and 119/120 move the length field into a block of its own; 64k+ are block edges.
    for (let size = 0; size <= 200; size++) {
      const bytes = randomBytes(size);
      expect(sha256(bytes), `bytes ${size}`).toBe(native(bytes));
    }
    const ff = new Uint8Array(1000).fill(0xff);
    expect(sha256(ff), 'all bits set').toBe(native(ff));
  });

  it("is node:crypto's digest for text, unicode and bytes, either side of the switch to node:crypto", () => {
    for (const size of [1, 63, 64, 65, 1000, 256 * 1024 - 1, 256 * 1024, 256 * 1024 + 1, 1024 * 1024]) {
      const bytes = randomBytes(size);
      expect(sha256(bytes), `bytes ${size}`).toBe(native(bytes));
      const text = `é✓${'x'.repeat(size)}`;
      expect(sha256(text), `text ${size}`).toBe(native(text));
    }
  });
});
