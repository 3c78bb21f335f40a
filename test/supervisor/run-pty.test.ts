// `roz run` in a real pseudo-terminal with a fake claude: the child's screen
// in the pane, the status line, the focus hotkey, resize, Ctrl-C, a human gate
// answered from the keyboard, and the child's exit code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/store/file-store.js';
import { bundle, repoRoot } from './helpers/bundle.js';
import { startPtyScreen, type PtyScreen } from './helpers/pty-screen.js';
import { tempDir } from '../helpers/temp-dir.js';

const CTRL_RBRACKET = '\x1d';
let entry: string;
let fakeHook: string;
const fakeClaude = join(repoRoot, 'test/supervisor/fixtures/fake-claude.mjs');
let running: PtyScreen | null = null;

beforeAll(async () => {
  [entry, fakeHook] = await Promise.all([bundle('test/supervisor/fixtures/run-entry.ts'), bundle('test/supervisor/fixtures/fake-hook.ts')]);
}, 60_000);

afterEach(() => {
  running?.kill();
  running = null;
});

function start(cols = 100, rows = 30) {
  const home = tempDir('roz-run-home-');
  const store = join(home, 'store');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, ROZ_STORAGE_PATH: store, FAKE_HOOK: fakeHook, TERM: 'xterm-256color' };
  running = startPtyScreen(process.execPath, [entry, '--approval-timeout', '15', '--', process.execPath, fakeClaude], { cols, rows, env, cwd: home });
  return { pty: running, store, rows };
}

function humanDecisions(store: string): Array<Record<string, unknown>> {
  const text = readFileSync(join(store, 'sessions', 'fake-session-1', 'trace.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.event === 'roz:HumanDecision');
}

describe('roz run in a pseudo-terminal', () => {
  it("shows the child's screen above a roz status line and passes keys, Ctrl-C and resizes through", async () => {
    const { pty, rows } = start();
    await pty.waitFor('FAKE CLAUDE READY size=100x29 socket=yes', 'the child on a pane one row shorter than the terminal');
    expect(pty.row(rows - 1)).toMatch(/^roz │ review - │ .*Ctrl-\]: roz/);
    pty.write('x');
    await pty.waitFor('KEY 78', 'a key typed into the child');
    pty.write('\x03');
    await pty.waitFor('GOT CTRL-C', 'Ctrl-C delivered to the child');
    pty.resize(90, 25);
    await pty.waitFor('RESIZED 90x24', 'the child resized with the terminal');
    await pty.waitFor((s) => (s.split('\n')[24] ?? '').startsWith('roz │'), 'status line on the new last row');
    pty.write('q');
    expect(await pty.exited).toBe(3);
    expect(pty.raw()).toContain('\x1b[?1049l');
  });

  it('the hotkey switches to the roz views and back; keys typed there never reach the child', async () => {
    const { pty } = start();
    await pty.waitFor('FAKE CLAUDE READY');
    pty.write(CTRL_RBRACKET);
    await pty.waitFor(/1 trace\s+2 approvals\s+3 reviews\s+4 intents\s+5 stats/, 'the roz tab bar');
    expect(pty.screen()).not.toContain('FAKE CLAUDE READY');
    pty.write('x'); // not for the child while roz has focus
    pty.write(CTRL_RBRACKET);
    await pty.waitFor('FAKE CLAUDE READY', "Claude's screen back");
    expect(pty.screen()).not.toContain('KEY 78');
    pty.write('q');
    expect(await pty.exited).toBe(3);
  });

  it('an ask verdict brings up the approval prompt; keys approve once or block with a typed reason', async () => {
    const { pty, store, rows } = start();
    await pty.waitFor('FAKE CLAUDE READY');
    pty.write('h');
    await pty.waitFor(/APPROVAL NEEDED · Bash · DESTRUCTIVE_BLOCKED[\s\S]*\[a\] approve once/, 'the approval prompt, focused automatically, its keys armed');
    const prompt = pty.screen();
    expect(prompt).toContain('$ rm -rf build');
    expect(prompt).toContain('why: deletes the tree build/');
    expect(prompt).not.toContain('rm -rf deletes files for good'); // the agent's text, under i
    expect(prompt).toContain('[a] approve once');
    expect(pty.row(rows - 1)).toMatch(/^!! APPROVAL: Bash rm -rf build — deletes the tree build\/ · a\/s\/b to answer/);
    pty.write('a');
    await pty.waitFor('HOOK ANSWER allow: roz: approved by the human', 'the hook printing the human approval');

    pty.write('h');
    await pty.waitFor('[a] approve once');
    pty.write('b');
    await pty.waitFor('block reason:', 'the reason field');
    pty.write('too risky');
    await pty.waitFor('block reason: too risky');
    pty.write('\r');
    await pty.waitFor('HOOK ANSWER deny: roz: blocked by the human: too risky');

    // The live trace has the hook event and the human's decisions.
    pty.write(CTRL_RBRACKET);
    pty.write('1');
    await pty.waitFor(/PreToolUse\s+Bash rm -rf build → ask DESTRUCTIVE_BLOCKED/, 'the ask in the live trace');
    await pty.waitFor(/roz:HumanDecision\s+deny Bash by human/, 'the human decision in the live trace');

    const decisions = humanDecisions(store);
    expect(decisions.map((d) => [d.decided_by, d.decision, d.scope])).toEqual([
      ['human', 'allow', 'once'],
      ['human', 'deny', 'once'],
    ]);
    expect(decisions[1]!.reason).toBe('too risky');
    for (const d of decisions) expect(typeof d.wait_ms).toBe('number');

    // The engine would have counted the tool calls; seed that, then quit: the session's stats follow.
    await new FileSessionStore(store).update('fake-session-1', new Date(), (st) => {
      st.counters.PreToolUse = 2;
      st.denials.DESTRUCTIVE_BLOCKED = 2;
      return { value: null, trace: [] };
    });
    pty.write(CTRL_RBRACKET);
    pty.write('q');
    expect(await pty.exited).toBe(3);
    const after = await pty.waitFor('human gates', 'the stats view after the session');
    expect(after).toContain('session fake-session-1');
    expect(after).toMatch(/tool calls\s+2/);
    expect(after).toContain('DESTRUCTIVE_BLOCKED=2');
    expect(after).toMatch(/human gates\s+2 decided \(1 approved, 1 denied\)/);
  });

  it("at 80x24, a request left waiting for Claude's pane stays on screen under it (bell once), keys still reach Claude; answered, Claude gets the whole pane back", async () => {
    const { pty, rows } = start(80, 24);
    await pty.waitFor('FAKE CLAUDE READY size=80x23');
    pty.write('h');
    await pty.waitFor('APPROVAL NEEDED · Bash · DESTRUCTIVE_BLOCKED', 'the approval prompt, focused automatically');
    expect(pty.row(rows - 1)).toMatch(/^!! APPROVAL: Bash rm -rf build — deletes the tree build\/ · a\/s\/b to answer/);
    // The human goes back to Claude while the hook waits.
    pty.write(CTRL_RBRACKET);
    const split = await pty.waitFor((s) => s.includes('RESIZED 80x13') && s.includes('APPROVAL NEEDED'), "Claude's pane and the approval panel under it");
    const lines = split.split('\n');
    expect(lines[13]).toMatch(/^── roz ─{73}$/);
    expect(lines.slice(14, 23).join('\n')).toContain('Ctrl-] to answer here');
    expect(lines.slice(14, 23).join('\n')).toContain('why: deletes the tree build/');
    expect(pty.row(rows - 1)).toMatch(/^!! APPROVAL: Bash rm -rf build — deletes the tree build\/ · Ctrl-\] to answer/);
    // Keys typed in Claude's pane go to Claude, never to the request.
    pty.write('a');
    await pty.waitFor('KEY 61', "the key in Claude's pane");
    expect(pty.screen()).toContain('APPROVAL NEEDED');
    pty.write(CTRL_RBRACKET);
    await pty.waitFor('[a] once', 'the keyboard in the panel, its keys armed');
    pty.write('a');
    await pty.waitFor('HOOK ANSWER allow: roz: approved by the human', 'answered from the panel');
    await pty.waitFor((s) => s.includes('RESIZED 80x23') && !s.includes('APPROVAL NEEDED'), 'the whole pane back for Claude');
    pty.write('y');
    await pty.waitFor('KEY 79', 'the keyboard back with Claude after the answer');
    expect(pty.raw().split('\x07').length - 1).toBe(1);

    // v: the split layout by choice, trace and Claude together.
    pty.write(CTRL_RBRACKET);
    pty.write('v');
    await pty.waitFor((s) => s.includes('RESIZED 80x13') && /1 trace/.test(s) && /roz:HumanDecision/.test(s), 'the trace panel under Claude');
    pty.write(CTRL_RBRACKET);
    pty.write('z');
    await pty.waitFor('KEY 7a', 'keys to Claude with the panel still on screen');
    expect(pty.screen()).toMatch(/1 trace/);
    pty.write('q');
    expect(await pty.exited).toBe(3);
  });

  it('forwards SIGTERM to the child, returns its code and restores the terminal', async () => {
    const { pty } = start();
    await pty.waitFor('FAKE CLAUDE READY');
    pty.signal('SIGTERM');
    expect(await pty.exited).toBe(143);
    expect(pty.raw()).toMatch(/\x1b\[\?25h\x1b\[\?1049l/);
  });

  it('approve for this session answers the same request again without asking', async () => {
    const { pty, store } = start();
    await pty.waitFor('FAKE CLAUDE READY');
    pty.write('h');
    await pty.waitFor('[a] approve once');
    pty.write('s');
    await pty.waitFor('HOOK ANSWER allow: roz: approved by the human for this session');
    pty.write('h');
    await pty.waitFor('HOOK ANSWER allow: roz: approved by the human earlier in this session', 'a remembered approval, no prompt');
    expect(humanDecisions(store).map((d) => d.decided_by)).toEqual(['human', 'session-rule']);
    pty.write('q');
    expect(await pty.exited).toBe(3);
  });
});
