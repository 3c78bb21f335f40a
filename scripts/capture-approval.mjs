// Captures `roz run` at 80×24 with an approval pending, as text, for the
// README: the demo (real client, scripted model) in a real pty, read back
// through @xterm/headless. Run `npm run build` first.
//   node scripts/capture-approval.mjs [cols] [rows]
// Prints two screens: the approval prompt as it comes up, and Claude's pane
// with the prompt in the panel under it after the human pressed Ctrl-].
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import xtermHeadless from '@xterm/headless';
import * as pty from '@lydell/node-pty';

const root = fileURLToPath(new URL('..', import.meta.url));
const cols = Number(process.argv[2] ?? 80);
const rows = Number(process.argv[3] ?? 24);
const dir = mkdtempSync(join(tmpdir(), 'roz-capture-'));
const env = { ...process.env, TERM: 'xterm-256color', ROZ_DEMO_DIR: dir, ROZ_DEMO_NO_WAIT: '1' };
const term = new xtermHeadless.Terminal({ cols, rows, allowProposedApi: true });
const proc = pty.spawn(process.execPath, [join(root, 'scripts', 'demo.mjs')], { name: 'xterm-256color', cols, rows, env, cwd: root });
proc.onData((d) => term.write(d));

const screen = () =>
  Array.from({ length: rows }, (_, y) => term.buffer.active.getLine(term.buffer.active.viewportY + y)?.translateToString(true) ?? '').join('\n');
async function waitFor(test, what, ms = 90_000) {
  const start = Date.now();
  while (!test(screen())) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}\n${screen()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // Let the frame finish painting (Ink and the compositor repaint within a few ms).
  let last = '';
  while (last !== screen()) {
    last = screen();
    await new Promise((r) => setTimeout(r, 150));
  }
  return last;
}
/** Every process under `root` (Linux /proc). */
function descendants(root) {
  const children = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      /* gone */
    }
  }
  const out = [];
  const walk = (pid) => {
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

const frame = (title, text) =>
  `${title}\n${'┌'}${'─'.repeat(cols)}┐\n${text
    .split('\n')
    .map((l) => `│${l.padEnd(cols)}│`)
    .join('\n')}\n└${'─'.repeat(cols)}┘\n`;

try {
  const prompt = await waitFor((s) => s.includes('APPROVAL NEEDED') && s.includes('[a] once'), 'the approval prompt, its keys armed');
  process.stdout.write(frame('roz run, an approval pending (it took the keyboard):', prompt));
  proc.write('\x1d');
  const split = await waitFor(
    (s) => s.includes('Ctrl-] to answer') && s.includes('─'.repeat(cols)) && s.includes('APPROVAL NEEDED'),
    "Claude's pane with the panel",
  );
  process.stdout.write(frame("after Ctrl-] (back in Claude's pane; the request stays on screen):", split));
} finally {
  // The demo, roz run, claude and its hooks: found before anything dies (orphans get re-parented).
  const tree = descendants(proc.pid);
  const exited = new Promise((r) => proc.onExit(r));
  proc.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  for (const pid of [proc.pid, ...tree]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
