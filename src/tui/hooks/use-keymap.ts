// All of the roz views' keyboard handling, in one place: which key does
// what depends on the view and its mode, never on which component drew it.
import { useInput, type Key } from 'ink';
import { useRef } from 'react';
import type { Tab } from '../components/TabBar.js';
import { TABS } from '../components/TabBar.js';
import type { ApprovalsState } from './use-approvals.js';
import type { TraceState } from './use-trace.js';

export interface KeymapTargets {
  tab: Tab;
  setTab: (t: Tab) => void;
  trace: TraceState;
  approvals: ApprovalsState;
  /** Leave the roz views (back to Claude). */
  leave: () => void;
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
  if (t.tab === 'approvals' && a.showing()) {
    if (input === 'a') return a.actions.approveOnce();
    if (input === 's') return a.actions.approveSession();
    if (input === 'g') return a.actions.widen();
    if (input === 'b') return a.actions.startBlock();
    if (input === 'i') return a.actions.toggleInspect();
    if (key.escape && a.modeNow() === 'inspect') return a.actions.cancel();
  }
  if (t.tab === 'trace') {
    const tr = t.trace;
    if (tr.detail) {
      if (key.escape || key.return) tr.actions.closeDetail();
      return;
    }
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
  const n = Number(input);
  if (Number.isInteger(n) && n >= 1 && n <= TABS.length) return t.setTab(TABS[n - 1]!);
  if (key.tab) return t.setTab(TABS[(TABS.indexOf(t.tab) + 1) % TABS.length]!);
  if (input === 'q' || key.escape) t.leave();
}

export function useKeymap(targets: KeymapTargets, active: boolean): void {
  // Read the latest render's targets: ink re-subscribes its handler only after
  // the commit, and a key can arrive in between.
  const latest = useRef(targets);
  latest.current = targets;
  useInput((input, key) => handleKey(input, key, latest.current), { isActive: active });
}
