import { describe, expect, it } from 'vitest';
import { randomUuid } from '../../src/store/random-uuid.js';

describe('randomUuid', () => {
  it('is an RFC 4122 version 4 UUID, different every time', () => {
    const ids = Array.from({ length: 2000 }, randomUuid);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Random bits: every hex digit of the random positions shows up.
    expect(new Set(ids.join('').replaceAll('-', ''))).toHaveLength(16);
  });
});
