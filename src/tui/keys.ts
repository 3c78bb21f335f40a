// Every key of the roz views, by view and mode: what the `?` overlay lists.
// The keymap (hooks/use-keymap.ts) acts on them; test/tui checks each listed
// key does something, so the two cannot drift apart unnoticed.
import type { Tab } from './components/TabBar.js';
import { HOTKEY_LABEL } from './screen/input-router.js';

export type KeyContext = Tab | 'trace-detail' | 'approvals-reason' | 'approvals-idle';

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
};

const GLOBAL_KEYS: KeyHelp = [
  ['1-5 Tab', 'switch view: trace, approvals, reviews, intents, stats'],
  ['v', "split: roz's panel beside or under Claude's pane, on/off"],
  [HOTKEY_LABEL, 'switch between Claude and roz'],
  ['q Esc', 'back to Claude'],
  ['?', 'this help (↑ ↓ scroll, ? or Esc close)'],
];

/** The keys of one view (and mode), then the ones every view has. */
export function keysFor(ctx: KeyContext): { view: KeyHelp; global: KeyHelp } {
  return { view: VIEW_KEYS[ctx], global: GLOBAL_KEYS };
}
