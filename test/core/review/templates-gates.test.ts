import { beforeAll, describe, expect, it } from 'vitest';
import { loadOnDemand } from '../../../src/core/on-demand.js';
import { chooseTemplate, DEFAULT_TEMPLATE_ID, renderBlockMessage } from '../../../src/core/review/templates.js';
import { commandGlob, isGateApproved, matchGate } from '../../../src/core/review/gates.js';
import { newSession } from '../../../src/core/session-state.js';
import { shellView } from '../../../src/engine/shell-view.js';

// shellView parses with core/shell, which the engine loads on demand for Bash calls.
beforeAll(() => loadOnDemand('shell'));

describe('templates', () => {
  it('weighted choice follows the weights', () => {
    let i = 0;
    const rng = () => (i++ % 100) / 100;
    const counts: Record<string, number> = {};
    for (let n = 0; n < 100; n++) {
      const id = chooseTemplate('random', { v1: 70, v2: 30 }, rng);
      counts[id] = (counts[id] ?? 0) + 1;
    }
    expect(counts).toEqual({ v1: 70, v2: 30 });
    expect(chooseTemplate('v2', { v1: 100 }, rng)).toBe('v2');
    expect(chooseTemplate('random', { v1: 0 }, rng)).toBe(DEFAULT_TEMPLATE_ID);
  });

  it('substitutes the session id and falls back to the default with a warning', () => {
    const ok = renderBlockMessage('v1', 'abc', () => 'spawn with SESSION_ID={{session_id}} now');
    expect(ok).toEqual({ template_id: 'v1', text: 'spawn with SESSION_ID=abc now' });
    const missing = renderBlockMessage('v9', 'abc', () => null);
    expect(missing.template_id).toBe(DEFAULT_TEMPLATE_ID);
    expect(missing.text).toContain('SESSION_ID=abc');
    expect(missing.warning).toMatch(/v9/);
    // A template that forgets the id still tells the agent which session it is.
    expect(renderBlockMessage('v3', 'abc', () => 'review please').text).toContain('SESSION_ID=abc');
  });
});

describe('gates', () => {
  const gates = ['Bash:gh issue close*', 'mcp__tissue__close_issue'];
  const cmds = (c: string) => () => shellView(c).argvs();

  it.each([
    'gh issue close 123',
    'GH_TOKEN=x gh issue close 123',
    'env VAR=x gh issue close 1',
    'echo y | gh issue close 123',
    'bash -c "gh issue close 123"',
    'true && command gh issue close 1',
    "sh -c 'exec gh issue close 9'",
  ])('matches %s', (c) => {
    expect(matchGate(gates, 'Bash', cmds(c))?.pattern).toBe('Bash:gh issue close*');
  });

  it.each(['gh issue list', 'echo "gh issue close 1"', 'ghx issue close 1'])('does not match %s', (c) => {
    expect(matchGate(gates, 'Bash', cmds(c))).toBeNull();
  });

  it('matches tools by name', () => {
    expect(matchGate(gates, 'mcp__tissue__close_issue', () => [])?.pattern).toBe('mcp__tissue__close_issue');
    expect(matchGate(gates, 'Write', () => [])).toBeNull();
  });

  it('command globs treat / and . as ordinary characters', () => {
    expect(commandGlob('git push*')('git push origin feature/x.y')).toBe(true);
    expect(commandGlob('rm ?')('rm a')).toBe(true);
    expect(commandGlob('rm ?')('rm ab')).toBe(false);
  });

  it('approval scopes and ttl', () => {
    const s = newSession('s', new Date('2026-01-01T00:00:00Z'));
    s.review.decision = { kind: 'complete', summary: 'ok', decided_at: '2026-01-01T00:01:00Z', agent_id: 'a', valid: true };
    s.review.gate_approved_at = '2026-01-01T00:01:00Z';
    s.review.last_prompt_at = '2026-01-01T00:00:30Z';
    const at = new Date('2026-01-01T00:02:00Z');
    expect(isGateApproved(s, { approval_scope: 'prompt', approval_ttl_seconds: 0 }, at)).toBe(true);
    expect(isGateApproved(s, { approval_scope: 'prompt', approval_ttl_seconds: 30 }, at)).toBe(false);
    s.review.last_prompt_at = '2026-01-01T00:01:30Z';
    expect(isGateApproved(s, { approval_scope: 'prompt', approval_ttl_seconds: 0 }, at)).toBe(false);
    expect(isGateApproved(s, { approval_scope: 'session', approval_ttl_seconds: 0 }, at)).toBe(true);
    s.review.decision.valid = false;
    expect(isGateApproved(s, { approval_scope: 'session', approval_ttl_seconds: 0 }, at)).toBe(false);
  });
});
