// The review gate end to end through the plugin's own hooks.json commands:
// every hook is a real `roz` process with JSON on stdin, state in real files.
import { describe, expect, it } from 'vitest';
import { payloads, roz, runHook, sandbox } from '../helpers/hooks.js';

const SID = '688753be-1f67-47fc-964b-f1aad3c7f0aa';

async function state(env: NodeJS.ProcessEnv, sid = SID) {
  const r = await roz(['debug', sid, '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

async function trace(env: NodeJS.ProcessEnv, sid = SID): Promise<Array<Record<string, any>>> {
  const r = await roz(['trace', sid, '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** The reviewer's run: SubagentStart, its `roz decide` Bash call (hook + the real CLI), SubagentStop. */
async function reviewerDecides(env: NodeJS.ProcessEnv, agentId: string, decideArgs: string[]) {
  const p = payloads(SID);
  expect((await runHook('SubagentStart', p.subagentStart(agentId), env)).stdout).toBe('');
  const as = { agent_id: agentId, agent_type: 'roz:roz' };
  const quoted = decideArgs.map((a) => JSON.stringify(a)).join(' ');
  // Chained to anything, the reviewer's own decide is refused whole, and nothing is recorded.
  const chained = await runHook('PreToolUse', p.pre('Bash', { command: `git diff --stat; roz decide ${SID} ${quoted}` }, as), env);
  expect(chained.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
  expect(chained.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(/DECISION_REFUSED.*of its own/);
  const command = `roz decide ${SID} ${quoted}`;
  const bash = p.pre('Bash', { command, description: 'Record the review decision' }, as);
  const pre = await runHook('PreToolUse', bash, env);
  expect(pre.json?.hookSpecificOutput?.permissionDecision).toBe('allow');
  // What the Bash tool then runs: the CLI, with the session from the client's env.
  const decided = await roz(['decide', ...decideArgs], { ...env, CLAUDE_CODE_SESSION_ID: SID });
  await runHook('PostToolUse', { ...bash, hook_event_name: 'PostToolUse', tool_response: { stdout: decided.stdout } }, env);
  const stop = await runHook('SubagentStop', p.subagentStop(agentId), env);
  return { decided, stop };
}

describe('review gate through hooks.json', () => {
  it('#roz task: stop blocked, self-approval denied, reviewer COMPLETE, stop allowed', async () => {
    const { env } = sandbox();
    const p = payloads(SID);
    await runHook('SessionStart', p.sessionStart(), env);

    const prompt = await runHook('UserPromptSubmit', p.prompt('#roz write hello.txt'), env);
    expect(prompt.code).toBe(0);
    expect(prompt.json?.hookSpecificOutput?.additionalContext).toContain(`SESSION_ID=${SID}`);

    await runHook('PreToolUse', p.pre('Write', { file_path: '/tmp/project/hello.txt', content: 'hello' }), env);
    const blocked = await runHook('Stop', p.stop(), env);
    expect(blocked.json?.decision).toBe('block');
    expect(blocked.json?.reason).toContain(`SESSION_ID=${SID}`);
    expect(blocked.json?.reason).toContain('roz:roz');

    // The main agent tries to approve itself.
    const self = await runHook('PreToolUse', p.pre('Bash', { command: `roz decide ${SID} COMPLETE "I checked it myself"` }), env);
    expect(self.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(self.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(/roz:roz/);
    // Even if it ran the CLI anyway (say, hidden in a script), the CLI records nothing.
    const sneaky = await roz(['decide', SID, 'COMPLETE', 'trust me'], env);
    expect(sneaky.code).toBe(4);
    expect(sneaky.stderr).toMatch(/NOTHING was recorded/);
    expect((await runHook('Stop', p.stop(true), env)).json?.decision).toBe('block');

    const spawn = await runHook(
      'PreToolUse',
      p.pre('Agent', { description: 'Independent review', prompt: `SESSION_ID=${SID}\nI wrote hello.txt`, subagent_type: 'roz:roz' }),
      env,
    );
    expect(spawn.json?.hookSpecificOutput?.permissionDecision).not.toBe('deny');
    const { decided, stop } = await reviewerDecides(env, 'a2cb00be235232124', ['COMPLETE', 'Read the diff; hello.txt is as asked']);
    expect(decided.code, decided.stderr).toBe(0);
    expect(stop.stdout).toBe('');

    const allowed = await runHook('Stop', p.stop(true), env);
    expect(allowed.code).toBe(0);
    expect(allowed.json?.decision).toBeUndefined();
    // The stop an approval lets through says so, once.
    expect(allowed.json?.systemMessage).toMatch(/review APPROVED.*Read the diff/);
    expect((await runHook('Stop', p.stop(true), env)).stdout).toBe('');

    const s = await state(env);
    expect(s.review.status).toBe('approved');
    expect(s.review.decision).toMatchObject({ kind: 'complete', valid: true, agent_id: 'a2cb00be235232124' });
    expect(s.review.decision_history).toHaveLength(1);
    expect(s.denials.SELF_APPROVAL).toBe(1);
    const events = (await trace(env)).map((r) => r.event);
    for (const e of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'roz:Decision']) {
      expect(events).toContain(e);
    }
  });

  it('ISSUES: the agent is told what to fix and blocked until a new review approves', async () => {
    const { env } = sandbox();
    const p = payloads(SID);
    await runHook('UserPromptSubmit', p.prompt('#roz add a greeting'), env);
    expect((await runHook('Stop', p.stop(), env)).json?.decision).toBe('block');
    const first = await reviewerDecides(env, 'rev-1', ['ISSUES', 'greeting misspelt', '--message', 'Fix the spelling of hello in hello.txt']);
    expect(first.decided.code, first.decided.stderr).toBe(0);

    const feedback = await runHook('Stop', p.stop(true), env);
    expect(feedback.json?.decision).toBe('block');
    expect(feedback.json?.reason).toContain('Fix the spelling of hello in hello.txt');
    expect(feedback.json?.reason).toContain(`SESSION_ID=${SID}`);
    expect((await state(env)).review.status).toBe('blocked');

    // Trying to stop again without a new review stays blocked.
    expect((await runHook('Stop', p.stop(true), env)).json?.decision).toBe('block');

    const second = await reviewerDecides(env, 'rev-2', ['COMPLETE', 'spelling fixed']);
    expect(second.decided.code).toBe(0);
    expect((await runHook('Stop', p.stop(true), env)).json?.decision).toBeUndefined();
    const s = await state(env);
    expect(s.review.status).toBe('approved');
    expect(s.review.decision_history.map((d: any) => d.kind)).toEqual(['issues', 'complete']);
  });

  it('a decision recorded after the reviewer stopped does not count', async () => {
    const { env } = sandbox();
    const p = payloads(SID);
    await runHook('UserPromptSubmit', p.prompt('#roz task'), env);
    await runHook('Stop', p.stop(), env);
    await runHook('SubagentStart', p.subagentStart('rev-x'), env);
    // The reviewer stops without deciding: nudged once, then let go.
    const nudge = await runHook('SubagentStop', p.subagentStop('rev-x'), env);
    expect(nudge.json?.decision).toBe('block');
    expect(nudge.json?.reason).toContain(`roz decide ${SID}`);
    await runHook('SubagentStop', p.subagentStop('rev-x', 'roz:roz', true), env);
    const late = await roz(['decide', SID, 'COMPLETE', 'late'], env);
    expect(late.code).toBe(4);
    expect((await runHook('Stop', p.stop(true), env)).json?.decision).toBe('block');
    const s = await state(env);
    expect(s.review.attempts[0].outcome).toBe('no_decision');
  });

  it('the circuit breaker opens after max_blocks and lets the session end, recording the trip', async () => {
    const { env } = sandbox({ ROZ_MAX_BLOCKS: '2', ROZ_COOLDOWN_SECONDS: '600' });
    const p = payloads(SID);
    await runHook('UserPromptSubmit', p.prompt('#roz task'), env);
    expect((await runHook('Stop', p.stop(), env)).json?.decision).toBe('block');
    expect((await runHook('Stop', p.stop(true), env)).json?.decision).toBe('block');
    const third = await runHook('Stop', p.stop(true), env);
    expect(third.code).toBe(0);
    expect(third.json?.decision).toBeUndefined();
    expect(third.json?.systemMessage).toMatch(/circuit breaker/);
    const s = await state(env);
    expect(s.review.breaker.trips).toHaveLength(1);
    expect(s.review.status).toBe('idle');
    expect(s.review.attempts.map((a: any) => a.outcome)).toEqual(['not_spawned', 'not_spawned']);
    const stats = JSON.parse((await roz(['stats', '--json'], env)).stdout);
    expect(stats.failures.breaker_trips).toBe(1);
    expect(stats.templates.reduce((n: number, t: any) => n + t.blocks, 0)).toBe(2);
    // A fresh #roz from the human re-arms the gate.
    await runHook('UserPromptSubmit', p.prompt('#roz try again'), env);
    expect((await runHook('Stop', p.stop(), env)).json?.decision).toBe('block');
  });

  it('a gated tool call starts a review and is allowed once the reviewer approves', async () => {
    const { env } = sandbox();
    const p = payloads(SID);
    await runHook('UserPromptSubmit', p.prompt('close the issue when done'), env);
    const gated = await runHook('PreToolUse', p.pre('Bash', { command: 'GH_TOKEN=x gh issue close 1' }), env);
    // An ask: a human may let this one call run (print mode turns it into a denial).
    expect(gated.json?.hookSpecificOutput?.permissionDecision).toBe('ask');
    expect(gated.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(/gh issue close\*.*print mode/);
    expect((await state(env)).review).toMatchObject({ enabled: true, status: 'pending', trigger: { kind: 'gate' } });
    // Unrelated commands are not gated.
    expect((await runHook('PreToolUse', p.pre('Bash', { command: 'gh issue list' }), env)).stdout).toBe('');

    await reviewerDecides(env, 'rev-g', ['COMPLETE', 'issue 1 is really fixed']);
    const retry = await runHook('PreToolUse', p.pre('Bash', { command: 'bash -c "gh issue close 1"' }), env);
    expect(retry.json?.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect((await runHook('Stop', p.stop(), env)).json?.decision).toBeUndefined();
    // Approval scope `prompt`: a new prompt closes the gate again; global flags do not hide the command.
    await runHook('UserPromptSubmit', p.prompt('now close issue 2'), env);
    const again = await runHook('PreToolUse', p.pre('Bash', { command: 'gh issue -R o/r close 2' }), env);
    expect(again.json?.hookSpecificOutput?.permissionDecision).toBe('ask');
  });

  it('without #roz nothing is blocked', async () => {
    const { env } = sandbox();
    const p = payloads(SID);
    await runHook('SessionStart', p.sessionStart(), env);
    expect((await runHook('UserPromptSubmit', p.prompt('write hello.txt'), env)).stdout).toBe('');
    expect((await runHook('PreToolUse', p.pre('Write', { file_path: '/tmp/project/hello.txt', content: 'hi' }), env)).stdout).toBe('');
    const stop = await runHook('Stop', p.stop(), env);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe('');
    expect((await state(env)).review.attempts).toHaveLength(0);
  });

  it('a reviewer spawned without the right SESSION_ID is refused with the right id', async () => {
    const { env } = sandbox();
    const p = payloads(SID);
    await runHook('UserPromptSubmit', p.prompt('#roz task'), env);
    await runHook('Stop', p.stop(), env);
    const bad = await runHook('PreToolUse', p.pre('Agent', { prompt: 'please review', subagent_type: 'roz:roz', description: 'r' }), env);
    expect(bad.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(bad.json?.hookSpecificOutput?.permissionDecisionReason).toContain(`SESSION_ID=${SID}`);
    expect((await state(env)).review.attempts[0].bad_session_id_spawns).toBe(1);
  });

  it("an Agent call for roz:roz that picks the model is refused (the reviewer is roz's); without model it is not (issue 24)", async () => {
    const { env } = sandbox();
    const p = payloads(SID);
    await runHook('UserPromptSubmit', p.prompt('#roz add a greeting'), env);
    const spawn = { description: 'Independent review', prompt: `SESSION_ID=${SID}\nReview it.`, subagent_type: 'roz:roz' };
    const withModel = await runHook('PreToolUse', p.pre('Agent', { ...spawn, model: 'haiku' }), env);
    expect(withModel.json?.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(withModel.json?.hookSpecificOutput?.permissionDecisionReason).toMatch(/REVIEWER_MODEL.*without the model parameter/);
    const plain = await runHook('PreToolUse', p.pre('Agent', spawn), env);
    expect(plain.json?.hookSpecificOutput?.permissionDecision ?? 'none').not.toBe('deny');
    expect((await trace(env)).some((e) => e.event === 'roz:ReviewerModelRefused' || e.type === 'ReviewerModelRefused')).toBe(true);
  });
});
