// The reviewer roz starts itself at a Codex agent's stop (core/review/launched-reviewer.ts,
// engine/reviewer-launch.ts), with the built hook as a process and a stand-in for the reviewer's
// client (ROZ_CLAUDE): a script that does what a client does, starting roz's hook the way Claude
// Code does (`/bin/sh -c <hooks.json command>`, the event on a pipe) for the tool calls its mode
// names. The real clients: test/e2e/codex-review.e2e.test.ts. Here: the decision is read from that
// run's own hook only while the run roz registered is open; a run roz did not register, or one that
// has ended, decides nothing; the reviewer is read-only; one that decides nothing leaves the stop blocked.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookCommand, runHook, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The stand-in reviewer client: its `--session-id` is its run id; FAKE_REVIEWER says what it does. */
const FAKE_CLIENT = `#!/usr/bin/env node
const { spawnSync } = require('node:child_process');
const { appendFileSync } = require('node:fs');
const args = process.argv.slice(2);
const run = args[args.indexOf('--session-id') + 1];
const sid = /SESSION_ID=([A-Za-z0-9_-]+)/.exec(args[args.indexOf('-p') + 1])[1];
const hook = (event, payload) => {
  const r = spawnSync('/bin/sh', ['-c', process.env[event === 'Stop' ? 'FAKE_STOP_HOOK' : 'FAKE_PRE_HOOK']], {
    input: JSON.stringify({ session_id: run, cwd: process.cwd(), hook_event_name: event, ...payload }),
    env: process.env,
    detached: true,
  });
  appendFileSync(process.env.FAKE_LOG, JSON.stringify({ event, run, out: String(r.stdout) }) + '\\n');
};
const bash = (command, id) => hook('PreToolUse', { tool_name: 'Bash', tool_use_id: id, tool_input: { command } });
const mode = process.env.FAKE_REVIEWER;
if (mode === 'write') hook('PreToolUse', { tool_name: 'Write', tool_use_id: 'w1', tool_input: { file_path: process.cwd() + '/x.txt', content: 'x' } });
if (mode === 'write') bash('echo x > x.txt', 'w2');
if (mode === 'complete') bash('roz decide ' + sid + ' COMPLETE "looks right"', 'd1');
if (mode === 'issues') bash('roz decide ' + sid + ' ISSUES "wrong" --message "fix the greeting"', 'd1');
hook('Stop', { stop_hook_active: true });
`;

function setUp(mode: string) {
  const dir = tempDir('roz-launched-');
  const project = join(dir, 'project');
  const bin = join(dir, 'fake-claude');
  writeFileSync(bin, FAKE_CLIENT);
  chmodSync(bin, 0o755);
  const log = join(dir, 'hooks.log');
  const { store, env } = sandbox({
    ROZ_CLIENT: 'codex',
    ROZ_CLAUDE: bin,
    FAKE_REVIEWER: mode,
    FAKE_LOG: log,
    FAKE_PRE_HOOK: hookCommand('PreToolUse'),
    FAKE_STOP_HOOK: hookCommand('Stop'),
  });
  mkdirSync(project);
  const payload = (event: string, over: Record<string, unknown> = {}) => ({ session_id: 'agent-1', cwd: project, hook_event_name: event, ...over });
  const logged = (): Array<{ event: string; run: string; out: string }> =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  const state = () => JSON.parse(readFileSync(join(store, 'sessions', 'agent-1', 'state.json'), 'utf8'));
  return { env: { ...env, CLAUDE_PROJECT_DIR: project }, payload, logged, state };
}

async function stopAfterReview(mode: string) {
  const t = setUp(mode);
  await runHook('UserPromptSubmit', t.payload('UserPromptSubmit', { prompt: '#roz greet' }), t.env);
  const stop = await runHook('Stop', t.payload('Stop', { stop_hook_active: false }), t.env);
  return { ...t, stop };
}

describe('the reviewer roz starts at a Codex agent stop (built hook, stand-in reviewer client)', () => {
  it("COMPLETE from the registered run's own roz decide lets the stop through", async () => {
    const { stop, state, logged } = await stopAfterReview('complete');
    expect(stop.json?.decision, stop.stdout + stop.stderr).toBeUndefined();
    const s = state();
    const [runId, run] = Object.entries(s.review.reviewers)[0] as [string, { launched: string; decided: boolean; stopped_at: string | null }];
    expect(run).toMatchObject({ launched: 'claude', decided: true });
    expect(run.stopped_at).not.toBeNull();
    expect(s.review.decision).toMatchObject({ kind: 'complete', agent_id: runId, tool_use_id: 'd1' });
    expect(logged().map((l) => l.run)).toEqual([runId, runId]);
  });

  it("ISSUES blocks the stop with the reviewer's findings", async () => {
    const { stop, state } = await stopAfterReview('issues');
    expect(stop.json?.decision).toBe('block');
    expect(stop.json?.reason).toContain('What to fix: fix the greeting');
    expect(stop.json?.reason).toContain('roz starts the reviewer (Claude Code reviewer) again at your next stop');
    expect(state().review.decision).toMatchObject({ kind: 'issues', message: 'fix the greeting' });
  });

  it('a reviewer that decides nothing leaves the stop blocked, and says so', async () => {
    const { stop, state } = await stopAfterReview('silent');
    expect(stop.json?.decision).toBe('block');
    expect(stop.json?.reason).toContain('ended without recording a decision');
    expect(stop.stdout).toContain('recorded no decision');
    expect(state().review.decision).toBeNull();
  });

  it('the circuit breaker still ends the loop: after max_blocks stops with no decision the stop goes through, unmissably, and no reviewer is started for it', async () => {
    const t = setUp('silent');
    const env = { ...t.env, ROZ_MAX_BLOCKS: '2' };
    await runHook('UserPromptSubmit', t.payload('UserPromptSubmit', { prompt: '#roz greet' }), env);
    const stops = [];
    for (const active of [false, true, true]) stops.push(await runHook('Stop', t.payload('Stop', { stop_hook_active: active }), env));
    expect(stops.map((r) => r.json?.decision ?? 'none')).toEqual(['block', 'block', 'none']);
    expect(stops[2]!.json?.systemMessage).toContain('UNREVIEWED');
    // Two reviewer runs (one per blocked stop), none for the stop the breaker let through.
    expect(Object.keys(t.state().review.reviewers)).toHaveLength(2);
    expect(t.state().review.breaker.trips).toHaveLength(1);
  });

  it("a Codex agent's gated call is told to finish its turn (roz starts the reviewer), not to spawn a subagent it does not have", async () => {
    const t = setUp('silent');
    const r = await runHook('PreToolUse', t.payload('PreToolUse', { tool_name: 'Bash', tool_use_id: 'g1', tool_input: { command: 'gh pr merge 7' } }), t.env);
    expect(r.json?.hookSpecificOutput?.permissionDecision, r.stdout).toBe('deny');
    expect(r.json?.hookSpecificOutput?.permissionDecisionReason).toContain('Finish your turn: roz starts the reviewer (Claude Code reviewer)');
    expect(r.json?.hookSpecificOutput?.permissionDecisionReason).not.toContain('Agent tool');
  });

  it('the reviewer is read-only: its Write and its writing Bash are refused by its own hook', async () => {
    const { logged } = await stopAfterReview('write');
    const outs = logged().filter((l) => l.event === 'PreToolUse');
    expect(outs).toHaveLength(2);
    for (const o of outs) expect(JSON.parse(o.out).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    expect(outs[0]!.out).toContain('[REVIEWER_READ_ONLY]');
    expect(outs[1]!.out).toContain('this command would write');
  });

  it('a decision from a run roz did not register, or from a run that has ended, is not recorded', async () => {
    const { env, payload, state } = await stopAfterReview('silent');
    const [ended] = Object.keys(state().review.reviewers);
    const decide = (run: string) =>
      runHook(
        'PreToolUse',
        { ...payload('PreToolUse'), session_id: run, tool_name: 'Bash', tool_use_id: 'x', tool_input: { command: 'roz decide agent-1 COMPLETE ok' } },
        { ...env, ROZ_REVIEW_OF: 'agent-1' },
      );
    for (const run of ['not-registered', ended!]) {
      const r = await decide(run);
      expect(r.json?.hookSpecificOutput, r.stdout).toMatchObject({ permissionDecision: 'deny' });
      expect(r.stdout).toContain('[SELF_APPROVAL]');
    }
    expect(state().review.decision).toBeNull();
    expect(state().review.decision_history).toEqual([]);
  });

  it("the reviewer's client is found on a PATH without the project's folders: a `claude` planted in node_modules/.bin never runs (control: first on PATH)", async () => {
    const t = setUp('issues');
    const project = t.env.CLAUDE_PROJECT_DIR!;
    // The honest stand-in as `claude` in a folder outside the project; the agent's plant in the project's node_modules/.bin, first on PATH.
    const honest = join(project, '..', 'bin');
    mkdirSync(honest);
    const stand = join(honest, 'claude');
    writeFileSync(stand, FAKE_CLIENT);
    chmodSync(stand, 0o755);
    const planted = join(project, 'node_modules', '.bin');
    mkdirSync(planted, { recursive: true });
    const ran = join(project, '..', 'planted-ran');
    writeFileSync(join(planted, 'claude'), `#!/bin/sh\ntouch '${ran}'\n`);
    chmodSync(join(planted, 'claude'), 0o755);
    const env: NodeJS.ProcessEnv = { ...t.env };
    delete env.ROZ_CLAUDE;
    env.PATH = `${planted}:${honest}:${process.env.PATH}`;
    // The control: that PATH finds the plant first.
    expect(spawnSync('/bin/sh', ['-c', 'command -v claude'], { env, encoding: 'utf8' }).stdout.trim()).toBe(join(planted, 'claude'));
    await runHook('UserPromptSubmit', t.payload('UserPromptSubmit', { prompt: '#roz greet' }), env);
    const stop = await runHook('Stop', t.payload('Stop', { stop_hook_active: false }), env);
    expect(existsSync(ran), stop.stdout + stop.stderr).toBe(false);
    expect(stop.json?.decision).toBe('block');
    expect(t.state().review.decision).toMatchObject({ kind: 'issues', message: 'fix the greeting' });
  });
});
