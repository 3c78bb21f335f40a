// What each demo prints before it starts: written for an 80-column terminal
// (a new user's default). Text that depends on the run (the temp project's
// path, a prompt) is wrapped under its label; test/process/demo-intros.test.ts
// checks every line's width.
import { FLEET_AGENTS } from './fleet-scenario.js';
import { DEMO_INTENT, DEMO_PROMPT, DESTRUCTIVE_COMMAND, IN_SCOPE_FILE, OUT_OF_SCOPE_FILE } from './scenario.js';

export const INTRO_COLUMNS = 80;

/** Width on screen: without SGR codes. */
export const visibleWidth = (s: string): number => [...s.replace(/\x1b\[[0-9;]*m/g, '')].length;

/**
 * `label` then `text`, wrapped at spaces so that no line is wider than
 * `width`; later lines under the text. A word longer than a line (a deep temp
 * path) is never cut — it goes whole on a line of its own, to be copied.
 */
export function labelled(label: string, text: string, width = INTRO_COLUMNS): string[] {
  const indent = ' '.repeat(visibleWidth(label));
  const room = Math.max(10, width - indent.length);
  const out: string[] = [];
  let line = '';
  const push = (): void => {
    out.push(`${out.length === 0 ? label : indent}${line}`);
    line = '';
  };
  for (const word of text.split(' ')) {
    if (line && visibleWidth(line) + 1 + visibleWidth(word) > room) push();
    line = line ? `${line} ${word}` : word;
  }
  if (line || out.length === 0) push();
  return out;
}

export interface IntroStyle {
  /** Bold (the keys and `you`), or the text as is. */
  b(s: string): string;
}

export function demoIntro(o: { client: string; repo: string } & IntroStyle): string[] {
  const { b } = o;
  const step = (what: string, then: string[]): string[] => [`  ${what}`, ...then.map((t) => `       ${t}`)];
  return [
    `${b('roz demo')}: \`roz run claude\` with the real Claude Code client (${o.client})`,
    'and a scripted model. Offline: no API key, no network; all of it happens in a',
    'fresh temp directory.',
    '',
    ...labelled('  project  ', o.repo),
    '           (git, governed by .orchestration/active_intents.yaml)',
    ...labelled('  prompt   ', `"${DEMO_PROMPT}"`),
    '           (a prompt starting with #roz turns on the review gate)',
    '',
    'What the scripted agent does, and what roz does about it:',
    ...step(`1. selects intent ${DEMO_INTENT} (scope: src/**, build/)`, ["with roz's MCP tool select_active_intent"]),
    ...step(`2. writes ${IN_SCOPE_FILE}`, ['-> allowed: in scope']),
    ...step(`3. writes ${OUT_OF_SCOPE_FILE}`, [
      `-> SCOPE_VIOLATION (out of scope): roz asks ${b('you')}. ${b('g')} adds`,
      `   ${OUT_OF_SCOPE_FILE} to ${DEMO_INTENT}'s scope (or ${b('b')} blocks it)`,
    ]),
    ...step(`4. runs \`${DESTRUCTIVE_COMMAND}\``, [
      `-> roz asks ${b('you')} again: destructive. Keys: ${b('a')} approve once,`,
      `   ${b('s')} for the session, ${b('b')} block, ${b('i')} inspect`,
    ]),
    ...step('5. says "done"', ['-> the stop is BLOCKED by the review gate; the roz:roz reviewer', '   reads the diff, records COMPLETE']),
    ...step(`6. when it says "Demo finished", type ${b('/exit')} and Enter:`, ["roz prints the session's stats."]),
    '',
    `The last line is roz's status line. ${b('Ctrl-]')} switches to roz's views (1 trace,`,
    '2 approvals, 3 reviews, 4 intents, 5 stats; q goes back to Claude). Claude Code',
    'itself asks nothing: the demo pre-authorises its tools, so every prompt you see',
    "is roz's.",
    '',
  ];
}

export function fleetIntro(o: { client: string; repo: string; codex?: { name: string; prompt: string; does: string } } & IntroStyle): string[] {
  const { b } = o;
  const key = (k: string, what: string): string[] => labelled(`  ${b(k.padEnd(9))} `, what);
  return [
    `${b('roz fleet demo')}: one \`roz run claude\`, several real Claude Code clients`,
    `(${o.client}), a scripted model. Offline: no API key, no network; all of it`,
    'happens in a fresh temp directory, removed at the end.',
    '',
    ...labelled('  project   ', o.repo),
    '            (git, governed by .orchestration/active_intents.yaml)',
    '  main      Claude Code in the base checkout, idle',
    ...FLEET_AGENTS.flatMap((a) => [
      ...labelled(`  ${a.name.padEnd(9)} `, `added once roz runs, by \`roz agent add ${a.name} --prompt "${a.prompt}"\``),
      ...labelled('            ', `${a.name} ${a.does}`),
      ...(a.notes ? ['            (its branch also gets a commit of draft notes nobody reviewed)'] : []),
    ]),
    ...(o.codex
      ? [
          ...labelled(`  ${o.codex.name.padEnd(9)} `, `added once roz runs, by \`roz agent add ${o.codex.name} --agent codex --prompt "${o.codex.prompt}"\``),
          ...labelled('            ', `${o.codex.name}: ${o.codex.does} (Codex CLI's TUI in its pane, inside Codex's sandbox as roz configures it)`),
        ]
      : []),
    '',
    'What to try:',
    ...key('Ctrl-] 6', 'the agents tab: main, b and c, their state, their work (+N −M), and the queue of requests waiting for you'),
    ...key('w', 'jump to the agent that needs you: its request comes up'),
    ...key('a / b', "approve once / block it (the agent reads the result), roz's request or Claude Code's own question; w again for the next one"),
    ...key('j / k', 'switch agents in the tab; ⏎ its pane (Ctrl-] goes back to roz)'),
    ...key('d', "the selected agent's work: its diff against where it started (Esc closes)"),
    ...key(
      'm',
      "merge the selected agent's branch through roz's gate: b is refused (never reviewed; y would approve it yourself, n leaves it), c merges once its reviewer approved",
    ),
    ...key('x', 'stop the selected agent; stop them all (main too) and the demo ends'),
    '',
  ];
}
