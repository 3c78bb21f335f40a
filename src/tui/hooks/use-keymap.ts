// All of the roz views' keyboard handling, in one place: which key does
// what depends on the view and its mode, never on which component drew it.
// src/tui/keys.ts lists the same keys for the `?` overlay.
import { useInput, type Key } from 'ink';
import { useRef } from 'react';
import type { Tab } from '../components/TabBar.js';
import { TABS } from '../components/TabBar.js';
import type { KeyContext } from '../keys.js';
import type { ApprovalsState } from './use-approvals.js';
import type { FleetState } from './use-fleet.js';
import type { IntentsState } from './use-intents.js';
import type { TraceState } from './use-trace.js';

export interface KeymapTargets {
  tab: Tab;
  setTab: (t: Tab) => void;
  trace: TraceState;
  approvals: ApprovalsState;
  intents: IntentsState;
  fleet: FleetState;
  help: { open: boolean; toggle(): void; scroll(delta: number): void };
  /** Leave the roz views (back to Claude). */
  leave: () => void;
  /** Roz's panel beside/under Claude's pane, on or off. */
  toggleSplit: () => void;
  /** Close this window and leave the agents running (a screen of a background supervisor); absent where it cannot. */
  detach?: () => void;
}

/** Which keys apply now: the view and its mode. */
export function keyContext(t: Pick<KeymapTargets, 'tab' | 'trace' | 'approvals' | 'fleet'>): KeyContext {
  if (t.tab === 'trace' && t.trace.detail) return 'trace-detail';
  if (t.tab === 'agents') {
    const m = t.fleet.modeNow();
    if (m === 'name') return 'agents-name';
    if (m === 'prompt') return 'agents-prompt';
    if (m === 'confirm-stop' || m === 'confirm-remove') return 'agents-confirm';
    if (m === 'diff' || m === 'review') return 'agents-diff';
  }
  if (t.tab === 'approvals') {
    if (t.approvals.modeNow() === 'reason') return 'approvals-reason';
    if (!t.approvals.current) return 'approvals-idle';
  }
  return t.tab;
}

export function handleKey(input: string, key: Key, t: KeymapTargets): void {
  const a = t.approvals;
  // Typing a block reason captures every key until Enter or Esc.
  if (t.tab === 'approvals' && a.modeNow() === 'reason') {
    if (key.return) a.actions.submitBlock();
    else if (key.escape) a.actions.cancel();
    else if (key.backspace || key.delete) a.actions.eraseReason();
    else if (input && !key.ctrl && !key.meta) a.actions.typeReason(input);
    return;
  }
  const f = t.fleet;
  // Typing a new agent's name, likewise.
  if (t.tab === 'agents' && f.modeNow() === 'name') {
    if (key.return) f.actions.submitName();
    else if (key.escape) f.actions.cancel();
    else if (key.backspace || key.delete) f.actions.eraseName();
    else if (input.includes('\r') && !key.ctrl && !key.meta) {
      // A name and Enter in one read (pasted, or typed fast): the name, then Enter.
      f.actions.typeName(input.slice(0, input.indexOf('\r')));
      f.actions.submitName();
    } else if (input && !key.ctrl && !key.meta) f.actions.typeName(input);
    return;
  }
  // Then its first prompt, likewise (Enter alone: none).
  if (t.tab === 'agents' && f.modeNow() === 'prompt') {
    if (key.return) f.actions.submitPrompt();
    else if (key.escape) f.actions.cancel();
    else if (key.backspace || key.delete) f.actions.erasePrompt();
    else if (input.includes('\r') && !key.ctrl && !key.meta) {
      f.actions.typePrompt(input.slice(0, input.indexOf('\r')));
      f.actions.submitPrompt();
    } else if (input && !key.ctrl && !key.meta) f.actions.typePrompt(input);
    return;
  }
  // Stopping or removing an agent asks first: y does it, anything else keeps it.
  if (t.tab === 'agents' && f.modeNow() === 'confirm-stop') {
    if (input === 'y') return f.actions.confirmStop();
    return f.actions.cancel();
  }
  if (t.tab === 'agents' && f.modeNow() === 'confirm-remove') {
    if (input === 'y') return f.actions.confirmRemove();
    return f.actions.cancel();
  }
  // An agent's diff takes the keys until it is closed; a review's, `y` approves it.
  if (t.tab === 'agents' && f.modeNow() === 'review') {
    if (input === 'y') return f.actions.approve();
    if (input === 'n') return f.actions.cancel();
  }
  if (t.tab === 'agents' && (f.modeNow() === 'diff' || f.modeNow() === 'review')) {
    if (key.escape || input === 'q' || input === 'd') return f.actions.cancel();
    if (key.upArrow || input === 'k') return f.actions.scrollDiff(-1);
    if (key.downArrow || input === 'j') return f.actions.scrollDiff(1);
    if (key.pageUp || input === 'b') return f.actions.pageDiff(-1);
    if (key.pageDown || input === ' ') return f.actions.pageDiff(1);
    if (key.home || input === 'g') return f.actions.scrollDiff(-Infinity);
    if (key.end || input === 'G') return f.actions.scrollDiff(Infinity);
    return;
  }
  if (t.help.open) {
    if (input === '?' || key.escape || input === 'q') return t.help.toggle();
    if (key.upArrow) return t.help.scroll(-1);
    if (key.downArrow) return t.help.scroll(1);
    if (key.pageUp) return t.help.scroll(-10);
    if (key.pageDown) return t.help.scroll(10);
    return;
  }
  if (input === '?') return t.help.toggle();
  if (t.tab === 'approvals' && a.showing()) {
    if (input === 'a') return a.actions.approveOnce();
    if (input === 's') return a.actions.approveSession();
    if (input === 'g') return a.actions.widen();
    if (input === 'b') return a.actions.startBlock();
    if (input === 'i') return a.actions.toggleInspect();
    if (key.escape && a.modeNow() === 'inspect') return a.actions.cancel();
    if (key.upArrow) return a.actions.scrollBody(-1);
    if (key.downArrow) return a.actions.scrollBody(1);
    if (key.pageUp) return a.actions.scrollBody(-10);
    if (key.pageDown) return a.actions.scrollBody(10);
  } else if (t.tab === 'approvals') {
    if (key.upArrow) return a.actions.scrollHistory(-1);
    if (key.downArrow) return a.actions.scrollHistory(1);
  }
  if (t.tab === 'trace') {
    const tr = t.trace;
    if (tr.detail) {
      if (key.escape || key.return) return tr.actions.closeDetail();
      if (key.upArrow) return tr.actions.scrollDetail(-1);
      if (key.downArrow) return tr.actions.scrollDetail(1);
      if (key.pageUp) return tr.actions.scrollDetail(-10);
      if (key.pageDown) return tr.actions.scrollDetail(10);
      if (key.home) return tr.actions.scrollDetail(-Infinity);
      if (key.end) return tr.actions.scrollDetail(Infinity);
    } else {
      if (key.upArrow) return tr.actions.move(-1);
      if (key.downArrow) return tr.actions.move(1);
      if (key.pageUp) return tr.actions.move(-10);
      if (key.pageDown) return tr.actions.move(10);
      if (key.return) return tr.actions.openDetail();
      if (input === 'f') return tr.actions.toggleFollow();
      if (input === 'e') return tr.actions.cycleEvent();
      if (input === 'c') return tr.actions.cycleCode();
      if (input === 'x') return tr.actions.clearFilter();
    }
  }
  if (t.tab === 'intents') {
    const it = t.intents;
    if (key.upArrow) return it.actions.move(-1);
    if (key.downArrow) return it.actions.move(1);
    if (key.return) return it.actions.select();
    if (input === 'x') return it.actions.clear();
  }
  if (t.tab === 'agents') {
    if (key.upArrow || input === 'k') return f.actions.move(-1);
    if (key.downArrow || input === 'j') return f.actions.move(1);
    if (key.return) return f.actions.open();
    if (input === 'n') return f.actions.startAdd();
    if (input === 'm') return f.actions.merge();
    if (input === 'x') return f.actions.askStop();
    if (input === 'r') return f.actions.askRemove();
    if (input === 'd') return f.actions.openDiff();
  }
  if (input === 'w') return f.actions.jump();
  const n = Number(input);
  if (Number.isInteger(n) && n >= 1 && n <= TABS.length) return t.setTab(TABS[n - 1]!);
  if (key.tab) return t.setTab(TABS[(TABS.indexOf(t.tab) + 1) % TABS.length]!);
  if (input === 'v') return t.toggleSplit();
  if (input === 'D' && t.detach) return t.detach();
  if (input === 'q' || key.escape) t.leave();
}

export function useKeymap(targets: KeymapTargets, active: boolean): void {
  // Read the latest render's targets: ink re-subscribes its handler only after
  // the commit, and a key can arrive in between.
  const latest = useRef(targets);
  latest.current = targets;
  useInput((input, key) => handleKey(input, key, latest.current), { isActive: active });
}
