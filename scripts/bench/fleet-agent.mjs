// A busy agent for the keypress-latency bench (scripts/bench/fleet-keys.ts),
// run by `roz run -- node fleet-agent.mjs` and by `roz agent add` (which
// starts an agent with main's command). It draws like a Claude Code pane at
// work: output scrolls in a region at the top (coloured lines, a few KB every
// 20-50 ms, with a spinner line under it), and an input box on the last row
// where each key typed is echoed with a marker that is unique per key:
// `KEY#<n>@<agent>:<char>`, n counting this agent's keys from 1. The bench
// measures the time from writing a key to roz's pty until that marker shows
// in the bytes roz paints. The input box stays put while the output scrolls,
// as Claude's does, so the marker stays on screen until the next key. Like
// client 2.1.330 (its binary has both: a DECSTBM scroll region outside tmux,
// and synchronized updates once DECRQM 2026 says the terminal has them), the
// output scrolls in a region and each frame is one synchronized update
// (CSI ? 2026 h … l), unless FLEET_SYNC=0.
//
// FLEET_STREAM=0: no output stream (echo only). FLEET_STREAM_BYTES (default
// 3000), FLEET_STREAM_MIN_MS / FLEET_STREAM_MAX_MS (20 / 50): each tick's size
// and the random pause between ticks.
const out = (s) => process.stdout.write(s);
const agent = process.env.ROZ_AGENT ?? 'main';
const stream = process.env.FLEET_STREAM !== '0';
const bytes = Number(process.env.FLEET_STREAM_BYTES ?? 3000);
const minMs = Number(process.env.FLEET_STREAM_MIN_MS ?? 20);
const maxMs = Number(process.env.FLEET_STREAM_MAX_MS ?? 50);
const sync = process.env.FLEET_SYNC !== '0';
/** One frame, drawn as one synchronized update. */
const frame = (s) => out(sync ? `\x1b[?2026h${s}\x1b[?2026l` : s);

let rows = process.stdout.rows || 24;
let cols = process.stdout.columns || 80;
let keys = 0;
let input = '> ';
let tick = 0;
const started = Date.now();

/** The cursor back in the input box, after the prompt, as Claude leaves it. */
const home = () => `\x1b[${rows};${Math.min(cols, input.length + 1)}H`;
/** The scroll region for output: every row but the spinner line and the input box. */
function layout() {
  out(`\x1b[2J\x1b[1;${Math.max(1, rows - 2)}r`);
  out(`\x1b[${rows};1H\x1b[2K${input}${home()}`);
}

const WORDS = 'the supervisor reads each hook event and the agent writes code while tests run in the sandbox of its own worktree'.split(' ');
let seed = agent.split('').reduce((a, c) => a * 31 + c.charCodeAt(0), 7) >>> 0;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 2 ** 32;
};

function chunk() {
  let s = `\x1b[${Math.max(1, rows - 2)};1H`;
  let n = 0;
  while (n < bytes) {
    const width = Math.max(10, Math.floor(cols * (0.4 + rnd() * 0.55)));
    let text = '';
    while (text.length < width) text += `${WORDS[Math.floor(rnd() * WORDS.length)]} `;
    const colour = 31 + Math.floor(rnd() * 6);
    const line = `\r\n\x1b[2m${String(tick).padStart(6)}\x1b[0m \x1b[${colour}m${text.slice(0, width - 8)}\x1b[0m`;
    s += line;
    n += line.length;
  }
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  s += `\x1b[${rows - 1};1H\x1b[2K\x1b[38;5;209m✻ Working… (${secs}s · ↑ ${tick} tokens · ${agent})\x1b[0m`;
  return s + home();
}

function loop() {
  tick += 1;
  frame(chunk());
  setTimeout(loop, minMs + rnd() * (maxMs - minMs));
}

process.stdin.setRawMode(true);
process.stdin.resume();
process.on('SIGWINCH', () => {
  rows = process.stdout.rows || rows;
  cols = process.stdout.columns || cols;
  layout();
});
layout();
out(`\x1b[1;1HFLEET AGENT READY agent=${agent}${home()}`);
if (stream) setTimeout(loop, minMs);

process.stdin.on('data', (buf) => {
  for (const ch of buf.toString('utf8')) {
    if (ch === '\x03') process.exit(130);
    keys += 1;
    input = `> KEY#${keys}@${agent}:${ch}`;
    frame(`\x1b[${rows};1H\x1b[2K${input}${home()}`);
  }
});
