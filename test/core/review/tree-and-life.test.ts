// The review's pure rules with a scripted worktree: decisions bound to the tree
// the reviewer saw, reviewer life from the client's facts, ISSUES as progress,
// the exact `roz decide` call, gate matching without global flags, outcomes.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOnDemand } from '../../../src/core/on-demand.js';
import { defaultConfig, type RozConfig } from '../../../src/core/config.js';
import * as policy from '../../../src/core/review/policy.js';
import { newSession, type SessionState } from '../../../src/core/session-state.js';
import { type TreeSnapshot } from '../../../src/core/review/state.js';
import { gateForms } from '../../../src/core/review/gate-match.js';
import { matchGate } from '../../../src/core/review/gates.js';
import { parseDecideArgs } from '../../../src/core/review/decide-args.js';
import { parseTaskNotification } from '../../../src/core/review/reviewer-life.js';
import { OUTCOME_EXIT, reviewVerdict, sessionOutcome } from '../../../src/core/review/outcome.js';
import { shellView } from '../../../src/engine/shell-view.js';
import type { HookInput } from '../../../src/core/hook-input.js';

beforeAll(() => loadOnDemand('shell'));

const SID = 's1';
const REV = 'agent-r1';

/** A world: a session, a clock, and a worktree whose tree hash the test sets. */
function world(over: (c: RozConfig) => void = () => {}) {
  const config = defaultConfig('/home/u');
  over(config);
  const state: SessionState = newSession(SID, new Date('2026-03-01T10:00:00Z'));
  let now = new Date('2026-03-01T10:00:00Z');
  let tree: string | null = 'T0';
  const files: Record<string, string[]> = {};
  let snapshots = 0;
  const ctx = (): policy.ReviewContext => ({
    now,
    config,
    rng: () => 0,
    loadTemplate: () => null,
    shell: shellView,
    writesStore: () => false,
    snapshot: (): TreeSnapshot | null => {
      snapshots++;
      return tree === null ? null : { head: 'H0', tree, at: now.toISOString() };
    },
    changedFiles: (a, b) => files[`${a}..${b}`] ?? [`${a}->${b}`],
  });
  const base = { session_id: SID, cwd: '/p', hook_event_name: '' };
  const w = {
    state,
    /** null: no git tree can be taken (outside git, git failing). */
    setTree: (t: string | null, changed?: Record<string, string[]>) => {
      tree = t;
      Object.assign(files, changed ?? {});
    },
    tick: (s: number) => (now = new Date(now.getTime() + s * 1000)),
    snapshots: () => snapshots,
    prompt: (prompt: string) => policy.onUserPrompt(state, { ...base, prompt } as HookInput<'UserPromptSubmit'>, ctx()),
    stop: (extra: Record<string, unknown> = {}) => policy.onStop(state, { ...base, ...extra } as HookInput<'Stop'>, ctx()),
    pre: (tool_name: string, tool_input: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      policy.onPreToolUse(state, { ...base, tool_name, tool_input, tool_use_id: 'tu', ...extra } as HookInput<'PreToolUse'>, ctx()),
    post: (tool_name: string, tool_input: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      policy.onPostToolUse(state, { ...base, hook_event_name: 'PostToolUse', tool_name, tool_input, ...extra } as HookInput<'PostToolUse'>, ctx()),
    startReviewer: (id = REV) => policy.onSubagentStart(state, { ...base, agent_id: id, agent_type: 'roz:roz' } as HookInput<'SubagentStart'>, ctx()),
    stopReviewer: (id = REV, active = false) =>
      policy.onSubagentStop(state, { ...base, agent_id: id, agent_type: 'roz:roz', stop_hook_active: active } as HookInput<'SubagentStop'>, ctx()),
    reviewerBash: (command: string, id = REV) => w.pre('Bash', { command }, { agent_id: id, agent_type: 'roz:roz' }),
  };
  return w;
}

describe('a review is about a tree', () => {
  it('records the base at the trigger, binds COMPLETE to the tree the reviewer saw, and says so once at the stop', () => {
    const w = world();
    w.prompt('#roz add a greeting');
    expect(w.state.review.base).toMatchObject({ head: 'H0', tree: 'T0' });
    expect(w.stop().verdict.kind).toBe('block');
    w.startReviewer();
    w.setTree('T1', { 'T0..T1': ['hello.txt'] });
    expect(w.reviewerBash(`roz context ${SID}`).verdict.kind).toBe('allow');
    expect(w.state.review.reviewers[REV]!.seen_tree).toBe('T1');
    const decided = w.reviewerBash(`roz decide ${SID} COMPLETE 'greeting is right' --opinions codex`);
    expect(decided.verdict).toMatchObject({ kind: 'allow' });
    expect(w.state.review.decision).toMatchObject({ kind: 'complete', tree: 'T1', covers: ['hello.txt'], opinions: ['codex'], agent_id: REV, valid: true });
    w.stopReviewer();
    const first = w.stop();
    expect(first.verdict.kind).toBe('none');
    expect(first.warnings.join('\n')).toMatch(/review APPROVED.*greeting is right.*1 changed file \(hello.txt\).*second opinions: codex/);
    expect(w.stop().warnings).toEqual([]);
  });

  it('a change after the reviewer read the diff (even before it decides) re-arms the gate, naming the files', () => {
    const w = world();
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    w.setTree('T1');
    w.reviewerBash(`roz context ${SID}`);
    // The agent writes while a background reviewer is still working.
    w.setTree('T2', { 'T1..T2': ['late.txt'] });
    const decided = w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    // Recorded, bound to what the reviewer saw, and re-armed at once for what it did not.
    expect(w.state.review.decision_history[0]!.tree).toBe('T1');
    expect((decided.verdict as { reason: string }).reason).toMatch(/COMPLETE.*Since then late\.txt changed/);
    expect(decided.notes.map((n) => n.type)).toEqual(['Decision', 'ReviewRearmed']);
    w.stopReviewer();
    const blocked = w.stop();
    expect(blocked.verdict.kind).toBe('block');
    expect((blocked.verdict as { reason: string }).reason).toMatch(/late\.txt was written while the review ran, after the reviewer last read the change/);
    expect(w.state.review.decision_history).toHaveLength(1);
  });

  it("changes to roz's and the client's own files (.orchestration/, .claude/) do not undo an approval", () => {
    const w = world();
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    w.stopReviewer();
    w.setTree('T5', { 'T0..T5': ['.orchestration/agent_trace.jsonl', '.claude/settings.local.json'] });
    expect(w.stop().verdict.kind).toBe('none');
    expect(w.state.review.status).toBe('approved');
  });

  it('a Write by the agent after COMPLETE re-arms at once; the reviewer reading files does not', () => {
    const w = world();
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    w.post('Read', { file_path: '/p/a.txt' }, { agent_id: REV, agent_type: 'roz:roz' });
    expect(w.state.review.status).toBe('approved');
    w.stopReviewer();
    w.post('Write', { file_path: '/p/b.txt', content: 'x' });
    expect(w.state.review.status).toBe('pending');
    expect(w.state.review.rearmed).toMatchObject({ files: ['/p/b.txt'] });
    expect(w.stop().verdict.kind).toBe('block');
  });

  it('a Bash write the parser sees re-arms at its PostToolUse; /dev/null does not', () => {
    const w = world();
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    w.stopReviewer();
    w.post('Bash', { command: 'ls > /dev/null' });
    expect(w.state.review.status).toBe('approved');
    w.post('Bash', { command: 'echo late > late.txt' });
    expect(w.state.review.rearmed).toMatchObject({ files: ['late.txt'], why: expect.stringMatching(/Bash/) });
    expect((w.stop().verdict as { reason: string }).reason).toMatch(/late\.txt was written by a Bash command after the review approved the work/);
  });

  it('an approved gate whose tree changed since the approval asks again and re-arms', () => {
    const w = world((c) => (c.review.approval_scope = 'session'));
    expect(w.pre('Bash', { command: 'gh issue close 1' }).verdict.kind).toBe('ask');
    w.startReviewer();
    w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    expect(w.pre('Bash', { command: 'gh issue close 1' }).verdict.kind).toBe('none');
    w.setTree('T9');
    expect(w.pre('Bash', { command: 'gh issue close 1' }).verdict.kind).toBe('ask');
    expect(w.state.review.status).toBe('pending');
  });

  it('takes no snapshot on ordinary tool calls', () => {
    const w = world();
    w.prompt('#roz task');
    const after = w.snapshots();
    w.pre('Bash', { command: 'ls -la' });
    w.pre('Write', { file_path: '/p/x', content: '' });
    w.post('Write', { file_path: '/p/x' });
    expect(w.snapshots()).toBe(after);
  });
});

describe('an approval covers only what the reviewer could have seen', () => {
  /** #roz, a blocked stop, a reviewer started at tree T1. */
  const reviewing = () => {
    const w = world();
    w.prompt('#roz task');
    w.setTree('T1', { 'T0..T1': ['hello.txt'] });
    w.stop();
    w.startReviewer();
    return w;
  };

  it('takes the tree when the reviewer starts: a reviewer that reads with plain git diff is bound to it, and a later write re-arms by name', () => {
    const w = reviewing();
    expect(w.state.review.reviewers[REV]).toMatchObject({ seen_tree: 'T1' });
    w.reviewerBash('git diff HEAD');
    // The agent (background reviewer) writes meanwhile.
    w.setTree('T2', { 'T1..T2': ['late.txt'], 'T0..T1': ['hello.txt'] });
    w.post('Write', { file_path: '/p/late.txt', content: 'x' });
    w.reviewerBash(`roz decide ${SID} COMPLETE 'hello.txt is right'`);
    expect(w.state.review.decision_history[0]).toMatchObject({ kind: 'complete', tree: 'T1', covers: ['hello.txt'] });
    expect(w.state.review.status).toBe('pending');
    expect(w.state.review.rearmed).toMatchObject({ files: ['late.txt'] });
    w.stopReviewer();
    const blocked = w.stop();
    expect((blocked.verdict as { reason: string }).reason).toMatch(/^roz: late\.txt was written while the review ran/);
  });

  it('a write the reviewer then saw through roz context is covered', () => {
    const w = reviewing();
    w.setTree('T2', { 'T0..T2': ['hello.txt', 'late.txt'] });
    w.post('Write', { file_path: '/p/late.txt', content: 'x' });
    w.reviewerBash(`roz context ${SID}`);
    expect(w.state.review.reviewers[REV]).toMatchObject({ seen_tree: 'T2' });
    expect(w.state.review.reviewers[REV]!.unseen_writes).toBeUndefined();
    w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    expect(w.state.review).toMatchObject({ status: 'approved', rearmed: null });
    expect(w.state.review.decision).toMatchObject({ tree: 'T2', covers: ['hello.txt', 'late.txt'] });
    w.stopReviewer();
    expect(w.stop().verdict.kind).toBe('none');
  });

  it('a write undone before the decision (same tree) is no change', () => {
    const w = reviewing();
    w.post('Write', { file_path: '/p/late.txt', content: 'x' });
    w.post('Bash', { command: 'rm late.txt' });
    w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    expect(w.state.review.status).toBe('approved');
  });

  it('without git, the writes PostToolUse saw by other agents re-arm; the reviewer own calls do not', () => {
    const w = world();
    w.setTree(null);
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    expect(w.state.review.reviewers[REV]).toMatchObject({ seen_tree: null });
    w.post('Bash', { command: 'echo x > notes.txt' }, { agent_id: REV, agent_type: 'roz:roz' });
    w.post('Write', { file_path: '/p/late.txt', content: 'x' }, { agent_id: 'helper-1', agent_type: 'general-purpose' });
    w.post('Bash', { command: 'echo y > other.txt' });
    expect(w.state.review.reviewers[REV]!.unseen_writes).toEqual(['/p/late.txt', 'other.txt']);
    w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    expect(w.state.review.rearmed).toMatchObject({ files: ['/p/late.txt', 'other.txt'] });
  });

  it('ISSUES with unseen writes stays ISSUES: the agent fixes and asks again anyway', () => {
    const w = reviewing();
    w.setTree('T2', { 'T1..T2': ['late.txt'] });
    w.reviewerBash(`roz decide ${SID} ISSUES 'wrong' --message 'fix it'`);
    expect(w.state.review).toMatchObject({ status: 'issues', rearmed: null });
  });

  it("covers lists the project's files, not roz's own (.orchestration/) or the client's (.claude/)", () => {
    const w = world();
    w.prompt('#roz task');
    w.setTree('T1', { 'T0..T1': ['.claude/settings.local.json', '.orchestration/active_intents.yaml', '.orchestration/agent_trace.jsonl', 'src/a.ts'] });
    w.stop();
    w.startReviewer();
    w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    expect(w.state.review.decision!.covers).toEqual(['src/a.ts']);
    w.stopReviewer();
    expect(w.stop().warnings.join('\n')).toMatch(/Covers 1 changed file \(src\/a\.ts\)/);
  });

  it('a run without a start snapshot (a session from before) takes it at its first tool call', () => {
    const w = reviewing();
    delete w.state.review.reviewers[REV]!.seen_tree;
    w.setTree('T2', { 'T1..T2': ['late.txt'] });
    w.pre('Read', { file_path: '/p/hello.txt' }, { agent_id: REV, agent_type: 'roz:roz' });
    expect(w.state.review.reviewers[REV]).toMatchObject({ seen_tree: 'T2' });
    w.setTree('T3', { 'T2..T3': ['later.txt'] });
    w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    expect(w.state.review.rearmed).toMatchObject({ files: ['later.txt'] });
  });
});

describe('reviewer life from the client facts', () => {
  const blockedAgainAfter = (end: (w: ReturnType<typeof world>) => void, why: string) => {
    const w = world();
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    end(w);
    expect(w.state.review.reviewers[REV]).toMatchObject({ end_reason: why });
    expect(w.state.review.attempts[0]!.outcome).toBe('no_decision');
    const next = w.stop({ background_tasks: [] });
    expect(next.verdict.kind).toBe('block');
    expect(next.notes.map((n) => n.type)).not.toContain('StopWhileReviewing');
    return w;
  };

  it('TaskStop naming the reviewer ends its run; the next stop is blocked again', () => {
    blockedAgainAfter((w) => w.post('TaskStop', { task_id: REV }), 'task_stop');
  });

  it('KillShell (the older name) with shell_id does the same', () => {
    blockedAgainAfter((w) => w.post('KillShell', { shell_id: REV }), 'task_stop');
  });

  it('a <task-notification> with status killed or failed ends it', () => {
    const note = (status: string) =>
      `<task-notification>\n<task-id>${REV}</task-id>\n<status>${status}</status>\n<summary>Agent "Independent review" was stopped</summary>\n</task-notification>`;
    expect(parseTaskNotification(note('killed'))).toEqual({ task_id: REV, status: 'killed' });
    blockedAgainAfter((w) => w.prompt(note('killed')), 'killed');
    blockedAgainAfter((w) => w.prompt(note('failed')), 'failed');
  });

  it('a Stop whose background_tasks does not list the reviewer ends it; one that lists it running lets the stop through', () => {
    const w = world();
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    const running = w.stop({ background_tasks: [{ id: REV, type: 'subagent', status: 'running', agent_type: 'roz:roz' }] });
    expect(running.verdict.kind).toBe('none');
    expect(running.notes.map((n) => n.type)).toContain('StopWhileReviewing');
    const gone = w.stop({ background_tasks: [] });
    expect(gone.verdict.kind).toBe('block');
    expect(w.state.review.reviewers[REV]!.end_reason).toBe('not_running');
    // Its next tool call proves it runs after all: it may still decide.
    expect(w.reviewerBash(`roz decide ${SID} COMPLETE ok`).verdict.kind).toBe('allow');
  });

  it('a reviewer past reviewer_timeout_seconds is ended at the next stop', () => {
    const w = world((c) => (c.review.reviewer_timeout_seconds = 600));
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    w.tick(601);
    expect(w.stop().verdict.kind).toBe('block');
    expect(w.state.review.reviewers[REV]!.end_reason).toBe('timeout');
  });

  it('a reviewer past its window cannot decide', () => {
    const w = world((c) => (c.review.reviewer_timeout_seconds = 600));
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    w.tick(601);
    expect(w.reviewerBash(`roz decide ${SID} COMPLETE ok`).verdict).toMatchObject({ kind: 'deny', code: 'SELF_APPROVAL' });
    expect(w.state.review.reviewers[REV]!.end_reason).toBe('timeout');
  });

  it('a killed reviewer cannot decide afterwards', () => {
    const w = world();
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    w.post('TaskStop', { task_id: REV });
    const late = w.reviewerBash(`roz decide ${SID} COMPLETE ok`);
    expect(late.verdict).toMatchObject({ kind: 'deny', code: 'SELF_APPROVAL' });
    expect(w.state.review.decision).toBeNull();
  });
});

describe('ISSUES is progress', () => {
  it('two ISSUES rounds then COMPLETE with max_blocks 2: every message delivered, no trip', () => {
    const w = world((c) => (c.circuit_breaker.max_blocks = 2));
    w.prompt('#roz task');
    expect(w.stop().verdict.kind).toBe('block');
    for (const [i, id] of ['r1', 'r2'].entries()) {
      w.startReviewer(id);
      w.reviewerBash(`roz decide ${SID} ISSUES 'round ${i}' --message 'fix ${i}'`, id);
      w.stopReviewer(id);
      expect(w.state.review.block_count).toBe(0);
      const told = w.stop();
      expect(told.verdict.kind).toBe('block');
      expect((told.verdict as { reason: string }).reason).toContain(`fix ${i}`);
      // Stopping again without a review is a retry, counted towards the breaker.
      if (i === 0) expect(w.stop().verdict.kind).toBe('block');
    }
    w.startReviewer('r3');
    w.reviewerBash(`roz decide ${SID} COMPLETE fixed`, 'r3');
    w.stopReviewer('r3');
    expect(w.stop().verdict.kind).toBe('none');
    expect(w.state.review.breaker.trips).toEqual([]);
  });
});

describe('the exact roz decide call', () => {
  const ready = () => {
    const w = world();
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    return w;
  };

  it.each([
    `roz decide ${SID} COMPLETE ok; touch x`,
    `roz decide ${SID} COMPLETE ok && true`,
    `roz decide ${SID} COMPLETE ok | cat`,
    `(roz decide ${SID} COMPLETE ok)`,
    `roz decide ${SID} COMPLETE ok > /tmp/out`,
    `X=1 roz decide ${SID} COMPLETE ok`,
    `roz decide ${SID} COMPLETE "$(cat summary)"`,
    `env roz decide ${SID} COMPLETE ok`,
    `bash -c "roz decide ${SID} COMPLETE ok"`,
    `roz decide ${SID} COMPLETE ok &`,
  ])('refuses %s whole and records nothing', (command) => {
    const w = ready();
    const r = w.reviewerBash(command);
    expect(r.verdict).toMatchObject({ kind: 'deny', code: 'DECISION_REFUSED' });
    expect(w.state.review.decision).toBeNull();
    expect(w.state.review.decision_history).toEqual([]);
  });

  it('refuses a decision for another session and bad arguments', () => {
    const w = ready();
    expect(w.reviewerBash('roz decide other COMPLETE ok').verdict).toMatchObject({ kind: 'deny', code: 'DECISION_REFUSED' });
    expect(w.reviewerBash(`roz decide ${SID} ISSUES 'no message'`).verdict).toMatchObject({ kind: 'deny', code: 'DECISION_REFUSED' });
    expect(w.state.review.decision_history).toEqual([]);
  });

  it('the main agent cannot decide, however it spells it', () => {
    const w = ready();
    for (const command of [`roz decide ${SID} COMPLETE ok`, `true; /x/bin/roz decide ${SID} COMPLETE ok`, `npx roz decide COMPLETE ok`]) {
      expect(w.pre('Bash', { command }).verdict).toMatchObject({ kind: 'deny', code: 'SELF_APPROVAL' });
    }
    expect(w.state.review.decision_history).toEqual([]);
  });

  it('second_opinion = "required" refuses COMPLETE without --opinions, and records --no-opinion otherwise', () => {
    const w = world((c) => (c.review.second_opinion = 'required'));
    w.prompt('#roz task');
    w.stop();
    w.startReviewer();
    expect(w.reviewerBash(`roz decide ${SID} COMPLETE ok --no-opinion 'none installed'`).verdict).toMatchObject({ kind: 'deny', code: 'DECISION_REFUSED' });
    expect(w.reviewerBash(`roz decide ${SID} COMPLETE ok --opinions claude`).verdict.kind).toBe('allow');
    expect(w.state.review.decision).toMatchObject({ opinions: ['claude'], opinion_policy: 'required' });
    expect(parseDecideArgs(['COMPLETE', 'ok', '--no-opinion', 'codex missing'])).toMatchObject({
      ok: true,
      args: { no_opinion: 'codex missing', session: null },
    });
  });
});

describe('gates match parsed commands', () => {
  it.each([
    ['gh -R o/r issue close 1', 'gh issue close 1'],
    ['gh issue -R o/r close 1', 'gh issue close 1'],
    ['gh issue close --repo=o/r 1', 'gh issue close 1'],
    ['/usr/bin/gh -Ro/r pr merge 3', 'gh pr merge 3'],
    ['git -c a=b push --force', 'git push --force'],
    ['git -C /x --no-pager push --force origin', 'git push --force origin'],
  ])('%s reads as %s', (command, expected) => {
    const argv = shellView(command).argvs()[0]!;
    expect(gateForms(argv)).toContain(expected);
  });

  it('gh issue -R o/r close and gh -R o/r pr merge hit the default gates; git -c push --force hits a push gate', () => {
    const gates = ['Bash:gh issue close*', 'Bash:gh pr merge*', 'Bash:git push --force*'];
    const hit = (c: string) => matchGate(gates, 'Bash', () => shellView(c).argvs())?.pattern;
    expect(hit('gh issue -R o/r close 1')).toBe('Bash:gh issue close*');
    expect(hit('gh -R o/r pr merge 4')).toBe('Bash:gh pr merge*');
    expect(hit('git -c a=b push --force')).toBe('Bash:git push --force*');
    expect(hit('gh issue list -R o/r')).toBeUndefined();
  });
});

describe('outcomes', () => {
  it('maps a final state to an outcome and exit code', () => {
    const now = new Date('2026-03-01T11:00:00Z');
    expect(sessionOutcome(null, now)).toMatchObject({ outcome: 'unreviewed', exit: OUTCOME_EXIT.unreviewed });
    const w = world((c) => (c.circuit_breaker.max_blocks = 1));
    expect(sessionOutcome(w.state, now)).toMatchObject({ outcome: 'not_requested', exit: 0 });
    w.prompt('#roz task');
    w.stop();
    expect(sessionOutcome(w.state, now)).toMatchObject({ outcome: 'unreviewed', exit: 6 });
    expect(reviewVerdict(w.state, now).label).toBe('pending');
    w.stop();
    expect(w.state.review.breaker.trips).toHaveLength(1);
    expect(sessionOutcome(w.state, now)).toMatchObject({ outcome: 'breaker_tripped', exit: 7 });
    w.prompt('#roz again');
    w.stop();
    w.startReviewer();
    w.reviewerBash(`roz decide ${SID} ISSUES bad --message fix`);
    expect(sessionOutcome(w.state, now)).toMatchObject({ outcome: 'issues_open', exit: 5 });
    expect(reviewVerdict(w.state, now)).toMatchObject({ label: 'issues' });
    w.startReviewer('r2');
    w.reviewerBash(`roz decide ${SID} COMPLETE good`, 'r2');
    expect(sessionOutcome(w.state, now)).toMatchObject({ outcome: 'approved', exit: 0 });
    expect(reviewVerdict(w.state, now).label).toBe('approved');
  });

  it('after a compaction the agent is told its work is under review', () => {
    const w = world();
    w.prompt('#roz task');
    const r = policy.onSessionStart(w.state, { session_id: SID, cwd: '/p', hook_event_name: 'SessionStart', source: 'compact' } as HookInput<'SessionStart'>);
    expect(r.verdict).toMatchObject({ kind: 'context' });
    expect((r.verdict as { text: string }).text).toMatch(/under independent review \(SESSION_ID=s1\).*roz:roz/);
    const startup = policy.onSessionStart(w.state, {
      session_id: SID,
      cwd: '/p',
      hook_event_name: 'SessionStart',
      source: 'startup',
    } as HookInput<'SessionStart'>);
    expect(startup.verdict.kind).toBe('none');
    // A resumed session is told too (2.1.197 drops the compaction's context on --resume).
    const resumed = policy.onSessionStart(w.state, {
      session_id: SID,
      cwd: '/p',
      hook_event_name: 'SessionStart',
      source: 'resume',
    } as HookInput<'SessionStart'>);
    expect(resumed.notes).toEqual([{ type: 'ReviewRecalled', status: 'pending', source: 'resume' }]);
    // Without a review nothing is said.
    const quiet = world();
    expect(
      policy.onSessionStart(quiet.state, { session_id: SID, cwd: '/p', hook_event_name: 'SessionStart', source: 'resume' } as HookInput<'SessionStart'>).verdict
        .kind,
    ).toBe('none');
  });
});

describe('the reviewer is roz’s (issue 24)', () => {
  it('an Agent or Task call for roz:roz that picks a model is refused, whatever the model; without one it spawns', () => {
    for (const tool of ['Agent', 'Task']) {
      for (const model of ['haiku', 'opus', 'claude-3-5-haiku-20241022']) {
        const w = world();
        w.prompt('#roz task');
        w.stop();
        const r = w.pre(tool, { description: 'review', prompt: `SESSION_ID=${SID}\nreview it`, subagent_type: 'roz:roz', model });
        expect(r.verdict).toMatchObject({ kind: 'deny', code: 'REVIEWER_MODEL' });
        expect((r.verdict as { reason: string }).reason).toMatch(/without the model parameter/);
        expect(r.notes).toContainEqual({ type: 'ReviewerModelRefused', model });
      }
    }
    const w = world();
    expect(w.pre('Agent', { description: 'review', prompt: `SESSION_ID=${SID}`, subagent_type: 'roz:roz' }).verdict.kind).toBe('none');
    // Other subagents choose their model freely.
    expect(w.pre('Agent', { description: 'x', prompt: 'y', subagent_type: 'general-purpose', model: 'haiku' }).verdict.kind).toBe('none');
  });

  it("a reviewer's roz context of another session (or --last) is not having seen this one, and it cannot approve on it", () => {
    const ready = () => {
      const w = world();
      w.prompt('#roz task');
      w.stop();
      w.startReviewer();
      w.setTree('T1', { 'T0..T1': ['backdoor.py'] });
      return w;
    };
    for (const other of ['roz context other-session', 'roz context --last', `roz context other-session | head`, `CLAUDE_CODE_SESSION_ID=other roz context`]) {
      const w = ready();
      w.reviewerBash(other);
      const run = w.state.review.reviewers[REV]!;
      // The other context moved nothing: what this reviewer saw is still the tree at its start, not T1.
      expect(run.seen_tree, other).not.toBe('T1');
      expect(run.read_own_context, other).toBeUndefined();
      expect(run.read_other_context, other).toBe(true);
      const decided = w.reviewerBash(`roz decide ${SID} COMPLETE 'looks harmless'`);
      expect(decided.verdict, other).toMatchObject({ kind: 'deny', code: 'DECISION_REFUSED' });
      expect((decided.verdict as { reason: string }).reason).toMatch(new RegExp(`roz context ${SID}`));
      expect(w.state.review.decision, other).toBeNull();
      // ISSUES is still recorded (it approves nothing).
      expect(w.reviewerBash(`roz decide ${SID} ISSUES 'could not check' --message 'show me this session'`).verdict.kind, other).toBe('allow');
    }
    // Reading this session's context afterwards makes it a review of this session.
    for (const mine of [`roz context ${SID}`, 'roz context', `roz context --json ${SID}`]) {
      const w = ready();
      w.reviewerBash('roz context other-session');
      w.reviewerBash(mine);
      expect(w.state.review.reviewers[REV]!.seen_tree, mine).toBe('T1');
      expect(w.reviewerBash(`roz decide ${SID} COMPLETE ok`).verdict.kind, mine).toBe('allow');
      expect(w.state.review.decision).toMatchObject({ kind: 'complete', tree: 'T1' });
    }
  });
});
