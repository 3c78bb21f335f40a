// core/first-wait.ts: the hook's deadline is armed at the first wait, once.
import { describe, expect, it } from 'vitest';
import { aboutToWait, onFirstWait } from '../../src/core/first-wait.js';

describe('first wait', () => {
  it('runs what was registered at the first aboutToWait only, and nothing without a registration', () => {
    aboutToWait();
    let armed = 0;
    onFirstWait(() => {
      armed += 1;
    });
    expect(armed).toBe(0);
    aboutToWait();
    aboutToWait();
    expect(armed).toBe(1);
  });
});
