// Every key of the roz views, by view and mode: what the `?` overlay lists.
// The keymap (hooks/use-keymap.ts) acts on them; test/tui checks each listed
// key does something, so the two cannot drift apart unnoticed.
import type { Tab } from './components/TabBar.js';
import { HOTKEY_LABEL } from './screen/input-router.js';

export type KeyContext = Tab | 'trace-detail' | 'approvals-reason' | 'approvals-idle' | 'agents-name' | 'agents-prompt' | 'agents-confirm' | 'agents-diff';

export type KeyHelp = ReadonlyArray<readonly [key: string, does: string]>;

const VIEW_KEYS: Record<KeyContext, KeyHelp> = {
  trace: [
    ['f', 'follow new events on/off'],
    ['↑ ↓ PgUp PgDn', 'select an event (pauses following)'],
    ['⏎', 'detail of the selected event'],
    ['e', 'cycle the event-type filter'],
    ['c', 'cycle the denial-code filter'],
    ['x', 'clear the filters'],
  ],
  'trace-detail': [
    ['↑ ↓ PgUp PgDn', 'scroll'],
    ['Home End', 'top, bottom'],
    ['Esc ⏎', 'close the detail'],
  ],
  approvals: [
    ['a', 'approve once'],
    ['s', 'approve for this session (same tool, same command or file, same code)'],
    ['g', "when the request suggests it: add the glob shown above the keys (the asked path, taken literally) to the intent's owned_scope, then allow"],
    ['b', 'block: type a reason, ⏎ sends it to the agent'],
    ['i', 'inspect: what roz tells the agent, the raw tool input and ids (i or Esc back)'],
    ['↑ ↓ PgUp PgDn', 'scroll a long input'],
  ],
  'approvals-reason': [
    ['⏎', 'block with the typed reason'],
    ['Esc', 'back to the request'],
    ['⌫', 'erase'],
  ],
  'approvals-idle': [['↑ ↓', 'scroll the history of decided requests']],
  reviews: [],
  intents: [
    ['↑ ↓', 'move the cursor'],
    ['⏎', "select the intent under the cursor for this session (recorded as the human's)"],
    ['x', 'clear the selected intent'],
  ],
  stats: [],
  agents: [
    ['↑ ↓ j k', "show the previous / next agent in the main pane (its screen, its requests, its session's views)"],
    ['⏎', "go to the agent's pane"],
    [
      'n',
      'new agent: type a name, ⏎ creates its worktree and branch roz/NAME (as `roz agent add`) and starts it like main; an agent `roz agent add` already made is started as recorded (its prompt, its arguments)',
    ],
    ['d', "the agent's work against the commit it started from: its commits, uncommitted and untracked files, coloured (as `roz agent diff`)"],
    ['m', 'merge the agent in view into the branch it started from, through the merge gate (as `roz agent merge`)'],
    ['x', 'stop the agent in view (asks first)'],
    ['r', 'remove the agent in view: its worktree and branch, as `roz agent rm` (asks first; refused while it runs, or with unmerged or uncommitted work)'],
  ],
  'agents-name': [
    ['⏎', 'next: its first prompt'],
    ['Esc', 'cancel'],
    ['⌫', 'erase'],
  ],
  'agents-prompt': [
    ['⏎', 'create and start the agent with this first prompt (empty: none)'],
    ['Esc', 'cancel'],
    ['⌫', 'erase'],
  ],
  'agents-confirm': [
    ['y', 'do it (a stop: SIGTERM, SIGKILL after 3 s; a removal: as `roz agent rm`)'],
    ['n Esc', 'keep it'],
  ],
  'agents-diff': [
    ['↑ ↓ j k', 'scroll'],
    ['PgUp PgDn b Space', 'a screen up, down'],
    ['g G Home End', 'top, end'],
    ['Esc q d', 'close the diff'],
  ],
};

const GLOBAL_KEYS: KeyHelp = [
  ['1-6 Tab', 'switch view: trace, approvals, reviews, intents, stats, agents'],
  ['w', 'jump to the next agent that needs you (its oldest request first)'],
  ['v', "split: roz's panel beside or under the agent's pane, on/off"],
  [HOTKEY_LABEL, "switch between the agent's pane and roz"],
  ['D', 'detach: close this window, the agents keep running in the background (roz attach comes back); an advisory run has none'],
  ['q Esc', "back to the agent's pane"],
  ['?', 'this help (↑ ↓ scroll, ? or Esc close)'],
];

/** The keys of one view (and mode), then the ones every view has. */
export function keysFor(ctx: KeyContext): { view: KeyHelp; global: KeyHelp } {
  return { view: VIEW_KEYS[ctx], global: GLOBAL_KEYS };
}
