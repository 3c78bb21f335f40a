import { describe, expect, it } from 'vitest';
import { hookCliNames, parseHookInput } from '../../src/core/hook-input.js';

const base = { session_id: 's-1', cwd: '/p', hook_event_name: 'PreToolUse', transcript_path: '/t.jsonl' };

describe('parseHookInput', () => {
  it('accepts a reference payload, passes unknown fields through and fills defaults', () => {
    const r = parseHookInput('PreToolUse', JSON.stringify({ ...base, tool_name: 'Bash', future_field: { x: 1 } }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.input.tool_input).toEqual({});
    expect(r.input.future_field).toEqual({ x: 1 });
    const sub = parseHookInput('SubagentStart', JSON.stringify({ ...base, hook_event_name: 'SubagentStart', agent_id: 'a1' }));
    expect(sub.ok && sub.input.agent_type).toBe('');
  });

  it('names every missing or mistyped field', () => {
    const r = parseHookInput('PreToolUse', JSON.stringify({ cwd: '', hook_event_name: 'PreToolUse', tool_name: 3, tool_input: [], tool_use_id: null }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBe(
      'invalid PreToolUse payload: session_id: required, missing; cwd: expected a non-empty string; tool_name: expected a string, got number; ' +
        'tool_input: expected an object, got array; tool_use_id: expected a string, got null',
    );
  });

  it('checks event-specific fields: prompt, booleans, numbers', () => {
    expect(parseHookInput('UserPromptSubmit', JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit' }))).toMatchObject({
      ok: false,
      error: expect.stringContaining('prompt: required, missing'),
    });
    expect(parseHookInput('Stop', JSON.stringify({ ...base, stop_hook_active: 'yes' }))).toMatchObject({
      ok: false,
      error: expect.stringContaining('stop_hook_active: expected a boolean, got string'),
    });
    expect(parseHookInput('PostToolUse', JSON.stringify({ ...base, tool_name: 'Read', duration_ms: 'fast' }))).toMatchObject({
      ok: false,
      error: expect.stringContaining('duration_ms: expected a number'),
    });
    expect(parseHookInput('SubagentStop', JSON.stringify({ ...base, agent_id: '' }))).toMatchObject({
      ok: false,
      error: expect.stringContaining('agent_id: expected a non-empty string'),
    });
  });

  it('reports bad JSON and non-objects without throwing', () => {
    expect(parseHookInput('Stop', '{"session_id":')).toMatchObject({ ok: false, error: expect.stringMatching(/^stdin is not valid JSON/) });
    expect(parseHookInput('Stop', '[1,2]')).toEqual({ ok: false, error: 'stdin must be a JSON object' });
    expect(parseHookInput('Stop', 'null')).toEqual({ ok: false, error: 'stdin must be a JSON object' });
  });

  it('knows every CLI spelling hooks.json uses', () => {
    expect(Object.values(hookCliNames)).toEqual(
      expect.arrayContaining([
        'SessionStart',
        'UserPromptSubmit',
        'PreToolUse',
        'PostToolUse',
        'PostToolUseFailure',
        'Stop',
        'SubagentStart',
        'SubagentStop',
        'SessionEnd',
      ]),
    );
  });
});
