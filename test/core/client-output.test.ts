// A verdict as each client reads it (engine/client-output.ts): Codex reports a
// PreToolUse `permissionDecision: "allow"` as a failed hook (observed in its
// TUI), so a human's allow from roz's queue reaches it as no decision at all;
// Gemini reads a refusal as a top-level decision; Claude Code gets its shapes.
import { describe, expect, it } from 'vitest';
import { clientById } from '../../src/core/clients.js';
import { refuseUnanswered, renderForClient } from '../../src/engine/client-output.js';

const allow = { kind: 'allow', reason: 'approved by the human' } as const;
const ask = { kind: 'ask', code: 'DESTRUCTIVE_BLOCKED', reason: 'deletes the tree build/' } as const;

describe('renderForClient', () => {
  it("says a human's allow to Claude Code, and nothing to Codex (no decision lets the call run)", () => {
    expect(JSON.parse(renderForClient('PreToolUse', allow, [], clientById('claude'))).hookSpecificOutput).toMatchObject({ permissionDecision: 'allow' });
    expect(renderForClient('PreToolUse', allow, [], clientById('codex'))).toBe('');
    expect(JSON.parse(renderForClient('PreToolUse', allow, ['w'], clientById('codex')))).toEqual({ systemMessage: 'w' });
  });
  it('renders a refusal in each client shape', () => {
    const deny = { kind: 'deny', code: 'HUMAN_GATE', reason: 'keep it', bare: true } as const;
    expect(JSON.parse(renderForClient('PreToolUse', deny, [], clientById('codex'))).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'keep it',
    });
    expect(JSON.parse(renderForClient('PreToolUse', deny, [], clientById('gemini')))).toEqual({ decision: 'deny', reason: 'keep it' });
  });
});

describe('refuseUnanswered', () => {
  it('turns an ask into a deny for a client that does not obey ask, and leaves it for Claude Code', () => {
    expect(refuseUnanswered(ask, clientById('codex'), 'the supervisor did not answer')).toEqual({
      kind: 'deny',
      code: 'DESTRUCTIVE_BLOCKED',
      reason: 'deletes the tree build/ (roz would ask a human, but the supervisor did not answer: refused)',
    });
    expect(refuseUnanswered(ask, clientById('claude'), 'x')).toBe(ask);
    expect(refuseUnanswered(allow, clientById('codex'), 'x')).toBe(allow);
  });
});
