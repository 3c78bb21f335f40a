// The `?` overlay and the keymap cannot drift apart: every key the overlay
// lists for a view, pressed in that view, does something.
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { handleKey, type KeymapTargets } from '../../src/tui/hooks/use-keymap.js';
import { keysFor, type KeyContext } from '../../src/tui/keys.js';

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const NAMED: Record<string, Partial<Key>> = {
  '↑': { upArrow: true },
  '↓': { downArrow: true },
  PgUp: { pageUp: true },
  PgDn: { pageDown: true },
  Home: { home: true },
  End: { end: true },
  '⏎': { return: true },
  Esc: { escape: true },
  '⌫': { backspace: true },
  Tab: { tab: true },
};

/** Targets whose every action counts its calls, set up for one view and mode. */
function targets(ctx: KeyContext, calls: string[]): KeymapTargets {
  const spy =
    (name: string) =>
    (..._: unknown[]): void =>
      void calls.push(name);
  const actions = <T extends string>(names: T[]) => Object.fromEntries(names.map((n) => [n, spy(n)])) as Record<T, () => void>;
  const tab =
    ctx === 'trace-detail' ? 'trace' : ctx.startsWith('approvals') ? 'approvals' : ctx.startsWith('agents') ? 'agents' : (ctx as KeymapTargets['tab']);
  const current = ctx === 'approvals-idle' ? null : ({ id: 'x', widen: { intent_id: 'I', globs: ['a'] } } as never);
  return {
    tab,
    setTab: spy('setTab'),
    trace: {
      detail: ctx === 'trace-detail' ? ({} as never) : null,
      actions: actions(['toggleFollow', 'move', 'cycleEvent', 'cycleCode', 'clearFilter', 'openDetail', 'closeDetail', 'scrollDetail']),
    } as never,
    approvals: {
      current,
      modeNow: () => (ctx === 'approvals-reason' ? 'reason' : 'prompt'),
      showing: () => current !== null,
      actions: actions([
        'approveOnce',
        'approveSession',
        'widen',
        'startBlock',
        'typeReason',
        'eraseReason',
        'submitBlock',
        'toggleInspect',
        'cancel',
        'scrollHistory',
        'scrollBody',
      ]),
    } as never,
    intents: { actions: actions(['move', 'select', 'clear']) } as never,
    fleet: {
      modeNow: () => ({ 'agents-name': 'name', 'agents-prompt': 'prompt', 'agents-confirm': 'confirm-stop', 'agents-diff': 'diff' })[ctx as string] ?? 'list',
      actions: actions([
        'move',
        'open',
        'jump',
        'startAdd',
        'typeName',
        'eraseName',
        'submitName',
        'typePrompt',
        'erasePrompt',
        'submitPrompt',
        'cancel',
        'merge',
        'askStop',
        'confirmStop',
        'askRemove',
        'confirmRemove',
        'openDiff',
        'scrollDiff',
        'pageDiff',
      ]),
    } as never,
    help: { open: false, toggle: spy('help'), scroll: spy('helpScroll') },
    leave: spy('leave'),
    toggleSplit: spy('toggleSplit'),
    detach: spy('detach'),
  };
}

const CONTEXTS: KeyContext[] = [
  'trace',
  'trace-detail',
  'approvals',
  'approvals-reason',
  'approvals-idle',
  'reviews',
  'intents',
  'stats',
  'agents',
  'agents-name',
  'agents-prompt',
  'agents-confirm',
  'agents-diff',
];

describe('the ? overlay lists only keys that act', () => {
  it.each(CONTEXTS)('%s: each listed key does something there', (ctx) => {
    const { view, global } = keysFor(ctx);
    // In the reason field every key is text, so the global keys do not apply there.
    const listed = [
      ...view,
      ...(ctx === 'approvals-reason' || ctx === 'agents-name' || ctx === 'agents-prompt' || ctx === 'agents-confirm' || ctx === 'agents-diff' ? [] : global),
    ];
    for (const [keys] of listed) {
      if (keys === 'Ctrl-]') continue; // the run screen's hotkey, never reaches the views
      for (const token of keys.split(' ')) {
        const presses = token === '1-6' ? ['1', '6'] : token === 'Space' ? [' '] : [token];
        for (const p of presses) {
          const calls: string[] = [];
          const named = NAMED[p];
          handleKey(named ? '' : p, { ...NO_KEY, ...named }, targets(ctx, calls));
          expect(calls, `${ctx}: "${p}" (listed as "${keys}") did nothing`).not.toEqual([]);
        }
      }
    }
  });
});
