import { describe, expect, it } from 'vitest';
import { parseReplyFrame, PROTOCOL_VERSION } from '../../src/supervisor/hooks/channel-frames.js';

const v = PROTOCOL_VERSION;

describe('parseReplyFrame (the hook reads the supervisor without zod)', () => {
  it('accepts each reply the supervisor sends, keeping only known fields', () => {
    expect(parseReplyFrame({ v, id: 'r1', type: 'ack', extra: 1 })).toEqual({ v, id: 'r1', type: 'ack' });
    expect(parseReplyFrame({ v, id: 'r1', type: 'heartbeat' })).toEqual({ v, id: 'r1', type: 'heartbeat' });
    expect(parseReplyFrame({ v, id: 'r1', type: 'pending', timeout_ms: 120_000 })).toEqual({ v, id: 'r1', type: 'pending', timeout_ms: 120_000 });
    expect(parseReplyFrame({ v, id: 'r1', type: 'answer', decision: 'deny', reason: 'no' })).toEqual({
      v,
      id: 'r1',
      type: 'answer',
      decision: 'deny',
      reason: 'no',
    });
    expect(parseReplyFrame({ v, id: 'r1', type: 'error', code: 'BAD_TOKEN', message: 'm' })).toEqual({
      v,
      id: 'r1',
      type: 'error',
      code: 'BAD_TOKEN',
      message: 'm',
    });
  });

  it('refuses anything else: other versions, unknown types, missing or mistyped fields, non-objects', () => {
    for (const bad of [
      null,
      [],
      'ack',
      { v: 2, id: 'r1', type: 'ack' },
      { v, type: 'ack' },
      { v, id: 7, type: 'ack' },
      { v, id: 'r1', type: 'approve' },
      { v, id: 'r1', type: 'answer', decision: 'maybe', reason: 'x' },
      { v, id: 'r1', type: 'answer', decision: 'allow' },
      { v, id: 'r1', type: 'pending', timeout_ms: '5' },
      { v, id: 'r1', type: 'error', code: 'X' },
    ]) {
      expect(parseReplyFrame(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});
