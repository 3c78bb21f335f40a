// roz's hooks run outside the sandbox and write into the project
// (`.orchestration/`: the ledger, the lessons, the intent map). The agent can
// put links there: every write must refuse them (store/no-follow.ts), an
// `.orchestration/` that appeared during the session is not roz's to write
// (engine/governance/orchestration-trust.ts), and the agent's text in a
// lesson stays text (core/inert-text.ts). Real built hook, JSON on stdin,
// real files; each attack has a control showing the plain write would land.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTENTS_YAML, makeProject } from '../governance/helpers.js';
import { payloads, runHook, sandbox, type ProcResult } from '../helpers/hooks.js';

const BASHRC = '# the user\'s shell start-up\nexport PS1="$ "\n';

/** A project, a fake HOME with a ~/.bashrc, and a hook environment pointing at both. */
function setup(opts: { intents?: string | null } = {}) {
  const proj = makeProject({ git: true, intents: opts.intents });
  const { env, home, store } = sandbox({ CLAUDE_PROJECT_DIR: proj.root });
  const bashrc = join(home, '.bashrc');
  writeFileSync(bashrc, BASHRC);
  return { proj, env, home, store, bashrc };
}

function failure(p: ReturnType<typeof payloads>, command: string, error: string) {
  const pre = p.pre('Bash', { command });
  return { ...pre, hook_event_name: 'PostToolUseFailure', error, is_interrupt: false };
}

const all = (r: ProcResult): string => `${r.stdout}\n${r.stderr}`;

/** What a shell sourcing `file` runs: bash -n would miss a $(…) that parses; source it with a marker for every command. */
function sourceRuns(file: string, dir: string): boolean {
  const marker = join(dir, 'ran');
  // Any command substitution or backtick in the lesson would run `touch`; the lesson text below asks for exactly that.
  // In `dir`, with `touch` the only program on PATH: whatever a line runs can do nothing else
  // (a careless control once ran a backticked `npm test` for real, in the worktree).
  const bin = join(dir, 'bin');
  if (!existsSync(bin)) {
    mkdirSync(bin);
    symlinkSync(execFileSync('sh', ['-c', 'command -v touch']).toString().trim(), join(bin, 'touch'));
  }
  try {
    execFileSync('/bin/bash', ['-c', `source ${JSON.stringify(file)} >/dev/null 2>&1; true`], {
      cwd: dir,
      env: { PATH: bin, HOME: dir, MARK: marker },
      stdio: 'ignore',
      timeout: 10_000,
    });
  } catch {
    /* a syntax error in the file is not a run */
  }
  return existsSync(marker);
}

describe('roz never writes through a link', () => {
  it('a test-failure lesson: .orchestration/CLAUDE.md linked to ~/.bashrc stays untouched, the human is told; control: the same append lands without the link', async () => {
    const { proj, env, bashrc } = setup();
    const lessons = join(proj.root, '.orchestration', 'CLAUDE.md');
    const p = payloads('link-lesson', proj.root);
    await runHook('SessionStart', p.sessionStart(), env);
    symlinkSync(bashrc, lessons);
    const r = await runHook('PostToolUseFailure', failure(p, 'npm test', 'FAIL `touch "$MARK"` $(touch "$MARK")'), env);
    expect(r.code).toBe(0);
    expect(readFileSync(bashrc, 'utf8')).toBe(BASHRC);
    expect(all(r)).toMatch(/lesson.*symbolic link/);
    // Control: without the link the lesson lands (so the attack above was aimed right).
    const q = payloads('link-lesson-control', proj.root);
    await runHook('SessionStart', q.sessionStart(), env);
    execFileSync('rm', [lessons]);
    await runHook('PostToolUseFailure', failure(q, 'npm test', 'FAIL boom'), env);
    expect(readFileSync(lessons, 'utf8')).toMatch(/'npm test' failed: 'FAIL boom'/);
  }, 60_000);

  it('a hard link of ~/.bashrc as CLAUDE.md is refused too', async () => {
    const { proj, env, bashrc } = setup();
    const p = payloads('hardlink-lesson', proj.root);
    await runHook('SessionStart', p.sessionStart(), env);
    linkSync(bashrc, join(proj.root, '.orchestration', 'CLAUDE.md'));
    const r = await runHook('PostToolUseFailure', failure(p, 'npm test', 'FAIL x'), env);
    expect(readFileSync(bashrc, 'utf8')).toBe(BASHRC);
    expect(all(r)).toMatch(/hard links/);
  }, 60_000);

  it('the ledger: agent_trace.jsonl linked outside is not appended to, the intent map not written through a link; control: unlinked, both are written', async () => {
    const { proj, env, home } = setup();
    const outside = join(home, 'victim.txt');
    const mapVictim = join(home, 'map-victim.txt');
    writeFileSync(outside, 'keep\n');
    writeFileSync(mapVictim, 'keep\n');
    const orch = join(proj.root, '.orchestration');
    const p = payloads('link-ledger', proj.root);
    await runHook('SessionStart', p.sessionStart(), env);
    symlinkSync(outside, join(orch, 'agent_trace.jsonl'));
    symlinkSync(mapVictim, join(orch, 'intent_map.md'));
    // Bind the intent (the MCP tool call), then a recorded Write.
    await runHook('PostToolUse', p.post('mcp__plugin_roz_roz__select_active_intent', { intent_id: 'INT-001' }), env);
    const file = proj.write('src/auth/a.ts', 'export const a = 1;\n');
    const w = await runHook('PostToolUse', p.post('Write', { file_path: file, content: 'export const a = 1;\n' }), env);
    expect(readFileSync(outside, 'utf8')).toBe('keep\n');
    expect(readFileSync(mapVictim, 'utf8')).toBe('keep\n');
    expect(all(w)).toMatch(/symbolic link/);
    // Control: the same Write with the links gone is recorded.
    execFileSync('rm', [join(orch, 'agent_trace.jsonl'), join(orch, 'intent_map.md')]);
    await runHook('PostToolUse', p.post('Write', { file_path: file, content: 'export const a = 1;\n' }), env);
    expect(readFileSync(join(orch, 'agent_trace.jsonl'), 'utf8')).toMatch(/src\/auth\/a\.ts/);
    expect(readFileSync(join(orch, 'intent_map.md'), 'utf8')).toMatch(/src\/auth\/a\.ts/);
  }, 60_000);

  it('a linked parent: .orchestration/ replaced by a link to a directory outside gets no write', async () => {
    const { proj, env, home } = setup();
    const orch = join(proj.root, '.orchestration');
    const elsewhere = join(home, 'elsewhere');
    const p = payloads('link-parent', proj.root);
    await runHook('SessionStart', p.sessionStart(), env);
    renameSync(orch, elsewhere);
    symlinkSync(elsewhere, orch);
    const r = await runHook('PostToolUseFailure', failure(p, 'npm test', 'FAIL x'), env);
    expect(existsSync(join(elsewhere, 'CLAUDE.md'))).toBe(false);
    expect(all(r)).toMatch(/symbolic link/);
  }, 60_000);

  it('an .orchestration/ made during the session is refused for roz writes and said (advisory); control: one there at the start is written', async () => {
    const { proj, env, bashrc } = setup({ intents: null });
    const p = payloads('appeared', proj.root);
    await runHook('SessionStart', p.sessionStart(), env);
    // The agent makes the folder (the sandbox cannot protect a path that did not exist), switches governance on.
    proj.write('.orchestration/active_intents.yaml', INTENTS_YAML);
    const r = await runHook('PostToolUseFailure', failure(p, 'npm test', 'FAIL x'), env);
    expect(existsSync(join(proj.root, '.orchestration', 'CLAUDE.md'))).toBe(false);
    expect(all(r)).toMatch(/did not exist when this session started.*advisory/);
    expect(readFileSync(bashrc, 'utf8')).toBe(BASHRC);
    // Control: a new session, which saw the folder at its start, records the lesson.
    const q = payloads('appeared-control', proj.root);
    await runHook('SessionStart', q.sessionStart(), env);
    await runHook('PostToolUseFailure', failure(q, 'npm test', 'FAIL x'), env);
    expect(readFileSync(join(proj.root, '.orchestration', 'CLAUDE.md'), 'utf8')).toMatch(/'npm test' failed/);
  }, 60_000);

  it('an .orchestration/ replaced during the session (same name, another folder) is refused', async () => {
    const { proj, env, home } = setup();
    const orch = join(proj.root, '.orchestration');
    const p = payloads('replaced', proj.root);
    await runHook('SessionStart', p.sessionStart(), env);
    renameSync(orch, join(home, 'old-orch'));
    proj.write('.orchestration/active_intents.yaml', INTENTS_YAML);
    const r = await runHook('PostToolUseFailure', failure(p, 'npm test', 'FAIL x'), env);
    expect(existsSync(join(orch, 'CLAUDE.md'))).toBe(false);
    expect(all(r)).toMatch(/replaced during this session/);
  }, 60_000);

  it("the agent's error text in a lesson is quoted: sourcing CLAUDE.md runs nothing; control: the unquoted line would run", async () => {
    const { proj, env, home } = setup();
    const p = payloads('quoted', proj.root);
    await runHook('SessionStart', p.sessionStart(), env);
    // A quote to end roz's quoting, a `;` and `#` to run a command and comment out the rest, substitutions.
    const evil = 'FAIL `touch "$MARK"` $(touch "$MARK") \'; touch "$MARK" #';
    await runHook('PostToolUseFailure', failure(p, 'npm test $(touch "$MARK")', evil), env);
    await runHook('PostToolUseFailure', failure(p, 'npm test', 'FAIL x; touch "$MARK" #'), env);
    const lessons = join(proj.root, '.orchestration', 'CLAUDE.md');
    const lines = readFileSync(lessons, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('- '));
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain('`');
    const dir = join(home, 'shell');
    mkdirSync(dir);
    expect(sourceRuns(lessons, dir)).toBe(false);
    // Control: the line as roz wrote it before (agent text bare or in backticks) runs the marker.
    const old = join(dir, 'old.md');
    writeFileSync(old, '- 2026-01-01T00:00Z [INT-001] `true` failed: FAIL x; touch "$MARK" # (session x)\n');
    expect(sourceRuns(old, dir)).toBe(true);
  }, 60_000);

  it("roz's store: a session's trace.jsonl linked outside is not appended to", async () => {
    const { env, store, home } = setup();
    const victim = join(home, 'trace-victim');
    writeFileSync(victim, 'keep\n');
    const p = payloads('store-link');
    await runHook('SessionStart', p.sessionStart(), env);
    const trace = join(store, 'sessions', 'store-link', 'trace.jsonl');
    execFileSync('rm', ['-f', trace]);
    symlinkSync(victim, trace);
    const r = await runHook('UserPromptSubmit', p.prompt('hello'), env);
    expect(r.code).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('keep\n');
    appendFileSync(victim, ''); // still a plain file
  }, 60_000);
});
