// The agents tab's view of an agent's work, in the App at 80×24: `+N −M ↑A ↓B`
// in the list, `d` opens the diff of the agent under the cursor (coloured,
// scrolled, every line within the pane, the agent's control characters shown
// and never sent), Esc closes it; `r` removes an agent after asking; and the
// work view's lines from a real `roz agent diff` shape (core/fleet/work-diff.ts).
import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initialAgent, nextAgent } from '../../src/core/fleet/agent-state.js';
import { patchLines, visibleText, type WorkDiff, type WorkOrError } from '../../src/core/fleet/work-diff.js';
import { App } from '../../src/tui/App.js';
import type { AgentRow } from '../../src/tui/fleet/AgentsView.js';
import type { FleetUi } from '../../src/tui/fleet/fleet-ui.js';
import { FakeSource, frameUntil } from './fake-source.js';

let unmount: (() => void) | null = null;
let level = chalk.level;
beforeEach(() => {
  // Colours on, as in a terminal (ink-testing-library's stream is no TTY).
  level = chalk.level;
  chalk.level = 1;
});
afterEach(() => {
  unmount?.();
  unmount = null;
  chalk.level = level;
});

const ESC = '\u001b';
/** The frame without its SGR colour codes (what the human reads). */
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

function work(): WorkDiff {
  const body = Array.from({ length: 40 }, (_, i) => `+added line ${i + 1}`).join('\n');
  const patch =
    'diff --git a/src/app.ts b/src/app.ts\nindex 1111111..2222222 100644\n--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,3 +1,3 @@\n keep\n-old line\n+new line\n' +
    `diff --git a/notes.txt b/notes.txt\nnew file mode 100644\n--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1,41 @@\n+${ESC}]0;pwned\u0007${ESC}[2Jhidden\n${body}\n` +
    `diff --git a/wide.txt b/wide.txt\n--- a/wide.txt\n+++ b/wide.txt\n@@ -1 +1 @@\n-${'x'.repeat(200)}\n+${'y'.repeat(200)} the last line\n`;
  return {
    agent: 'alpha',
    branch: 'roz/alpha',
    base_ref: 'refs/heads/main',
    base_commit: 'a'.repeat(40),
    head: 'b'.repeat(40),
    added: 43,
    removed: 2,
    files: 3,
    ahead: 2,
    behind: 1,
    commits: [
      { id: 'c'.repeat(40), subject: 'second' },
      { id: 'd'.repeat(40), subject: 'first' },
    ],
    changed: [
      { path: 'notes.txt', status: 'added', added: 41, removed: 0, committed: false, uncommitted: false, untracked: true },
      { path: 'src/app.ts', status: 'modified', added: 1, removed: 1, committed: true, uncommitted: false, untracked: false },
      { path: 'wide.txt', status: 'modified', added: 1, removed: 1, committed: true, uncommitted: true, untracked: false },
    ],
    patch,
  };
}

function fakeFleet(calls: string[], source: FakeSource): FleetUi & { view: string } {
  const rows: AgentRow[] = [
    {
      name: 'main',
      where: '(base checkout)',
      status: nextAgent(initialAgent(), { kind: 'prompt' }).status,
      pending: 0,
      review: 'idle',
      enforcement: 'enforced',
    },
    { name: 'alpha', where: 'roz/alpha', status: nextAgent(initialAgent(), { kind: 'prompt' }).status, pending: 0, review: 'idle', enforcement: 'enforced' },
    {
      name: 'beta',
      where: 'roz/beta',
      status: nextAgent(initialAgent(), { kind: 'exit', code: 0, signal: null }).status,
      pending: 0,
      review: 'idle',
      enforcement: 'enforced',
    },
  ];
  const f = {
    view: 'main',
    rows: () => rows,
    queue: () => [],
    current: () => f.view,
    select: (n: string) => {
      f.view = n;
      source.changed();
    },
    jump: () => null,
    open: () => {},
    add: async (n: string, prompt?: string) => (calls.push(`add ${n}${prompt === undefined ? '' : ` ${prompt}`}`), { ok: true, message: `started ${n}` }),
    registered: (n: string) => n === 'gamma',
    merge: async () => ({ ok: false, message: 'refused' }),
    stop: async (n: string) => (calls.push(`stop ${n}`), { ok: true, message: `stopped ${n}` }),
    remove: async (n: string) => (calls.push(`remove ${n}`), { ok: true, message: `removed the worktree /w/proj.roz/${n}; deleted the branch roz/${n}` }),
    work: {
      diff: async (n: string): Promise<WorkOrError> => (
        calls.push(`diff ${n}`), n === 'alpha' ? work() : { agent: n, error: `${n} shares /w/proj (no branch or base commit of its own)` }
      ),
      all: async (): Promise<WorkOrError[]> => (
        calls.push('all'),
        [
          { ...work(), patch: null },
          { agent: 'beta', error: 'the branch roz/beta is gone' },
        ]
      ),
    },
  };
  return f;
}

describe('the agents tab: an agent’s work at 80×24', () => {
  it('lists +N −M ↑A ↓B; d opens the coloured diff of the agent under the cursor, scrolls, stays in the pane; Esc closes', async () => {
    const calls: string[] = [];
    const source = new FakeSource();
    const fl = fakeFleet(calls, source);
    const r = render(<App source={source} fleet={fl} width={80} height={23} now={() => 0} />);
    unmount = r.unmount;
    r.stdin.write('6');
    let f = await frameUntil(r.lastFrame, (x) => x.includes('+43 −2 ↑2 ↓1'), 'the work column');
    expect(
      plain(f)
        .split('\n')
        .find((l) => l.includes(' alpha ')),
    ).toMatch(/alpha\s+roz\/alpha\s+.*\+43 −2 ↑2 ↓1/);
    expect(
      plain(f)
        .split('\n')
        .find((l) => l.includes(' beta ')),
    ).toMatch(/beta\s+roz\/beta\s+.*\s\?\s*$/);
    expect(plain(f)).toContain('d diff');

    // main has no work of its own: said, no view.
    r.stdin.write('d');
    await frameUntil(r.lastFrame, (x) => x.includes('main: main shares /w/proj'), 'the refusal');
    r.stdin.write('j');
    await frameUntil(r.lastFrame, (x) => /› alpha/.test(plain(x)), 'alpha under the cursor');
    r.stdin.write('d');
    f = await frameUntil(r.lastFrame, (x) => x.includes('diff · alpha'), 'the diff view');
    const lines = plain(f).split('\n');
    expect(lines.length).toBeLessThanOrEqual(23);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(plain(f)).toMatch(/diff · alpha · \+43 −2 ↑2 ↓1 · lines 1-20 of \d+/);
    expect(plain(f)).toMatch(/alpha: roz\/alpha from main at a{12}\n3 files changed, \+43 −2; 2 commits ahead, main has 1 more since/);
    expect(plain(f)).toMatch(/A notes\.txt\s+\+41 −0\s+untracked/);
    expect(plain(f)).toContain('Esc q close');
    // Colours: added green, removed red, hunks cyan.
    expect(f).toContain(`${ESC}[32m+new line`);
    expect(f).toContain(`${ESC}[31m-old line`);
    expect(f).toMatch(/\u001b\[36m@@ -1,3 \+1,3 @@/);
    // The agent's escape sequences are shown, never sent: only SGR colour codes leave the view.
    expect(f.replace(/\u001b\[[0-9;]*m/g, '')).not.toContain(ESC);

    // Scrolling: a line, a page, the end (the last line, cut to the width), the top.
    r.stdin.write('j');
    await frameUntil(r.lastFrame, (x) => x.includes('lines 2-21 of'), 'a line down');
    r.stdin.write(' ');
    await frameUntil(r.lastFrame, (x) => x.includes('lines 21-40 of'), 'a page down');
    r.stdin.write('G');
    f = await frameUntil(r.lastFrame, (x) => /lines \d+-(\d+) of \1\b/.test(plain(x)), 'the end');
    expect(plain(f)).toContain('+yyyyyyyy');
    expect(plain(f)).not.toContain('the last line'); // cut at the width with …
    expect(
      plain(f)
        .split('\n')
        .every((l) => l.length <= 80),
    ).toBe(true);
    r.stdin.write('g');
    f = await frameUntil(r.lastFrame, (x) => x.includes('lines 1-20 of'), 'the top');
    // Down to the agent's escape line: shown with visible stand-ins.
    for (let i = 0; i < 16; i++) r.stdin.write('j');
    f = await frameUntil(r.lastFrame, (x) => plain(x).includes('+␛]0;pwned␇␛[2Jhidden'), 'the escapes, visible');
    r.stdin.write('\u001b');
    await frameUntil(r.lastFrame, (x) => x.includes('queue · 0 waiting'), 'back to the list');
    expect(calls.filter((c) => c.startsWith('diff'))).toEqual(['diff main', 'diff alpha']);
  });

  it('r asks before removing the agent under the cursor, n keeps it; n on a recorded agent asks no prompt', async () => {
    const calls: string[] = [];
    const source = new FakeSource();
    const fl = fakeFleet(calls, source);
    const r = render(<App source={source} fleet={fl} width={80} height={23} now={() => 0} />);
    unmount = r.unmount;
    r.stdin.write('6');
    await frameUntil(r.lastFrame, (x) => x.includes('queue · 0 waiting'), 'the agents tab');
    r.stdin.write('j');
    r.stdin.write('j');
    await frameUntil(r.lastFrame, (x) => /› beta/.test(plain(x)), 'beta under the cursor');
    r.stdin.write('r');
    await frameUntil(r.lastFrame, (x) => x.includes("remove beta's worktree and branch? y removes them"), 'asked');
    r.stdin.write('n');
    await frameUntil(r.lastFrame, (x) => !x.includes('remove beta'), 'kept');
    expect(calls).not.toContain('remove beta');
    r.stdin.write('r');
    await frameUntil(r.lastFrame, (x) => x.includes('remove beta'), 'asked again');
    r.stdin.write('y');
    await frameUntil(r.lastFrame, (x) => x.includes('removed the worktree /w/proj.roz/beta'), 'removed');
    expect(calls).toContain('remove beta');

    // n on a name roz agent add already recorded: started as recorded, no prompt asked.
    r.stdin.write('n');
    await frameUntil(r.lastFrame, (x) => x.includes("new agent's name:"), 'the name');
    for (const ch of 'gamma') r.stdin.write(ch);
    await frameUntil(r.lastFrame, (x) => x.includes("new agent's name: gamma▏"), 'typed');
    r.stdin.write('\r');
    await frameUntil(r.lastFrame, (x) => x.includes('started gamma'), 'started as recorded');
    expect(calls.at(-1)).toBe('add gamma');
  });
});

describe('the work view lines', () => {
  it('kinds for colour, tabs as spaces, control and invisible characters visible', () => {
    const l = patchLines('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\tb\n+c\u001b[31m\u202e\n context\n');
    expect(l.map((x) => x.kind)).toEqual(['file', 'meta', 'meta', 'hunk', 'del', 'add', 'context']);
    expect(l[4]!.text).toBe('-a    b');
    expect(l[5]!.text).toBe('+c␛[31m<U+202E>');
    expect(visibleText('\u0000\u007f\u0085')).toBe('␀␡<U+0085>');
  });
});
