// What the human reads at 80×24, through the same path as `roz run` (Ink into
// the virtual screen, composed with the status line, read back through
// xterm): which agent, what it wants to do, why in one line, the exact glob
// `g` would add, and the keys. The text written for the agent (how to select
// an intent, what print mode does, the project's absolute path) is not in the
// panel; `i` shows it.
import xtermHeadless from '@xterm/headless';
import { render } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { literalGlob } from '../../src/core/governance/literal-glob.js';
import { App } from '../../src/tui/App.js';
import { Compositor, paneRegions } from '../../src/tui/screen/compositor.js';
import { FocusState } from '../../src/tui/screen/focus.js';
import { InkStdin, InkStdout } from '../../src/tui/screen/ink-surface.js';
import { computeLayout } from '../../src/tui/screen/layout.js';
import { VirtualScreen } from '../../src/tui/screen/virtual-screen.js';
import { statusLine } from '../../src/tui/status-line.js';
import { FakeSource } from './fake-source.js';

const { Terminal } = xtermHeadless;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const COLS = 80;
const ROWS = 24;
const ROOT = '/home/alice/work/projects/payments-service-monorepo';

/** The agent's text as the policies write it: long, about MCP tools and print mode, with the absolute project path. */
const SCOPE_AGENT_TEXT =
  `roz: \`rm -rf build\` would write files under build, which is not in the owned_scope of intent INT-042 (src/**), so a human must approve it. ` +
  'If nobody can answer (claude -p, CI), the client turns this ask into a denial: then find another way or leave it to the human. ' +
  'Otherwise change only files matching that scope; if this file really must change, select an intent that owns it with the MCP tool ' +
  'select_active_intent (argument intent_id), or run `roz intent select ID` with Bash, or ask the human to widen the scope.\n' +
  `roz: \`rm -rf build\` is destructive (rm -rf deletes whole trees without asking: \`rm -rf build\`) in ${ROOT}, so a human must approve it. ` +
  'If nobody can answer (claude -p, CI), the client turns this ask into a denial: then find another way or leave it to the human. ' +
  'If it is refused: Find a non-destructive way (move to a backup instead of deleting, a new commit instead of a force push) or ask the human to run it.';

async function until(cond: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > 5_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The whole terminal after the panel shows `ready`; `keys` are typed into the panel first. */
async function frame(source: FakeSource, ready: string, keys: Array<[string, string]> = []): Promise<string[]> {
  const focus = new FocusState();
  focus.setPending(source.pending.map((p) => p.id));
  const layout = computeLayout(COLS, ROWS, focus.split);
  const child = new VirtualScreen(layout.child.cols, layout.child.rows);
  const roz = new VirtualScreen(layout.roz.cols, layout.roz.rows, 0);
  const stdin = new InkStdin();
  const ink = render(<App source={source} width={layout.roz.cols} height={layout.roz.rows} split={layout.split} focused={focus.focus === 'roz'} />, {
    stdout: new InkStdout(roz, layout.roz.cols, layout.roz.rows) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  cleanups.push(() => ink.unmount());
  await until(() => roz.text().includes('[a] once'), 'the prompt drawn, its keys armed');
  for (const [key, shows] of keys) {
    stdin.push(key);
    await until(() => roz.text().includes(shows), `${JSON.stringify(key)} to show ${shows}`);
  }
  await until(() => roz.text().includes(ready), ready);
  const real = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
  let out = '';
  const comp = new Compositor(
    (s) => (out += s),
    COLS,
    ROWS,
    () => ({
      ...paneRegions(layout, focus.focus, child, roz),
      status: statusLine(source.snapshot(), focus.focus, COLS),
      alert: true,
      cursor: null,
      modes: null,
    }),
  );
  comp.paint();
  await new Promise<void>((r) => real.write(out, r));
  return Array.from({ length: ROWS }, (_, y) => real.buffer.active.getLine(y)!.translateToString(true));
}

const KEYS_80 = "[a] once  [s] session  [g] add glob  [b] block  [i] agent's text  [?] keys";

describe('the approval panel at 80×24 says why in one line', () => {
  it('a destructive command outside the scope: agent, command, one why line, keys; no agent text, no project path', async () => {
    const s = new FakeSource();
    s.ask({
      tool_input: { command: 'rm -rf build' },
      cwd: ROOT,
      reason: SCOPE_AGENT_TEXT,
      human: "build/ is outside INT-042's scope: src/**; deletes the tree build/",
      widen: { intent_id: 'INT-042', globs: ['build/**'] },
    });
    const lines = await frame(s, 'why:');
    const screen = lines.join('\n');
    expect(lines[1]).toMatch(/^APPROVAL NEEDED · Bash · DESTRUCTIVE_BLOCKED · main agent · \d+s left$/);
    expect(lines[2]).toBe("why: build/ is outside INT-042's scope: src/**; deletes the tree build/");
    expect(lines[3]).toBe('$ rm -rf build');
    expect(lines[ROWS - 2]).toBe(KEYS_80);
    expect(lines[ROWS - 4]).toBe("[g] adds to INT-042's owned_scope exactly:");
    expect(lines[ROWS - 3]).toBe('  build/**');
    expect(lines[ROWS - 1]).toBe("!! APPROVAL: Bash rm -rf build — build/ is outside INT-042'… · a/s/g/b to answer");
    // The agent's instructions and the absolute path are not what the human reads.
    expect(screen).not.toContain('If nobody can answer');
    expect(screen).not.toContain('select_active_intent');
    expect(screen).not.toContain(ROOT);
  });

  it('a scope question for a Write: the file as a project path with its diff, why, the glob g adds, keys', async () => {
    const s = new FakeSource();
    s.ask({
      tool_name: 'Write',
      code: 'SCOPE_VIOLATION',
      tool_input: { file_path: `${ROOT}/src/billing/invoice.ts`, content: 'export const total = 1;\nexport const tax = 0;' },
      cwd: ROOT,
      reason: SCOPE_AGENT_TEXT,
      human: "src/billing/invoice.ts is outside INT-042's scope: src/auth/**, build/",
      widen: { intent_id: 'INT-042', globs: ['src/billing/invoice.ts'] },
      agent: { type: 'Explore', id: 'agent-7f3a' },
    });
    const lines = await frame(s, 'why:');
    const screen = lines.join('\n');
    expect(lines[1]).toMatch(/^APPROVAL NEEDED · Write · SCOPE_VIOLATION · subagent Explore · \d+s left$/);
    expect(lines[2]).toBe("why: src/billing/invoice.ts is outside INT-042's scope: src/auth/**, build/");
    expect(lines[3]).toBe('@@ src/billing/invoice.ts (whole file)');
    expect(lines[4]).toBe('+ export const total = 1;');
    expect(lines[5]).toBe('+ export const tax = 0;');
    expect(lines[ROWS - 3]).toBe('  src/billing/invoice.ts');
    expect(lines[ROWS - 2]).toBe(KEYS_80);
    expect(screen).not.toContain(ROOT);
    expect(screen).not.toContain('If nobody can answer');
  });

  it('i shows the text written for the agent, and the ids; the keys stay', async () => {
    const s = new FakeSource();
    s.ask({ tool_input: { command: 'rm -rf build' }, cwd: ROOT, reason: SCOPE_AGENT_TEXT, human: 'deletes the tree build/' });
    const lines = await frame(s, 'what roz tells the agent', [['i', 'what roz tells the agent']]);
    const flat = lines.join(' ').replace(/\s+/g, ' ');
    expect(flat).toContain('If nobody can answer (claude -p, CI), the client turns this ask into a denial');
    expect(flat).toContain('select_active_intent (argument intent_id)');
    expect(lines[ROWS - 2]).toBe("[a] once  [s] session  [b] block  [i] agent's text  [?] keys");
  });

  it.each(['**', '*', 'src/*', '[!x]*'])('a file named %s: the panel shows the escaped glob g adds, in full, at 80 columns', async (name) => {
    const s = new FakeSource();
    const glob = literalGlob(name)!;
    s.ask({
      tool_name: 'Write',
      code: 'SCOPE_VIOLATION',
      tool_input: { file_path: `${ROOT}/${name}`, content: 'x' },
      cwd: ROOT,
      human: `${name} is outside INT-001's scope: src/auth/**`,
      widen: { intent_id: 'INT-001', globs: [glob] },
    });
    const lines = await frame(s, 'exactly:');
    expect(glob).not.toBe(name);
    expect(lines[ROWS - 3]).toBe(`  ${glob}`);
    expect(lines[ROWS - 2]).toBe(KEYS_80);
  });

  it('a glob too long to show in the pane is not offered: no [g], and g does nothing', async () => {
    const s = new FakeSource();
    const long = `src/${'deep/'.repeat(400)}x.ts`;
    s.ask({ tool_name: 'Write', code: 'SCOPE_VIOLATION', tool_input: { file_path: long }, human: 'outside', widen: { intent_id: 'INT-001', globs: [long] } });
    const lines = await frame(s, 'why:', [['g', '[a] once']]);
    expect(lines.join('\n')).not.toContain('[g]');
    expect(s.answers).toEqual([]);
  });
});
