// The approval prompt's state: which request is shown, whether the human is
// typing a block reason or inspecting, and the answers (the only path by
// which anything gets approved). Keys act on the request that is on screen,
// and mode lives in refs too, so keys arriving faster than React re-renders
// (a paste, a fast typist) can never approve what the human has not seen.
import { useEffect, useRef, useState } from 'react';
import type { PendingApproval } from '../../supervisor/approval-broker.js';
import type { SupervisorSource } from '../source.js';

/**
 * How long a request is on screen before a key can answer it. The prompt
 * takes the keyboard from Claude's pane: a key the human was typing for
 * Claude at that moment (an `a`, an `s`) must not approve what they have not
 * seen.
 */
export const ARM_MS = 500;

export type ApprovalMode = 'prompt' | 'reason' | 'inspect';

export interface ApprovalsState {
  pending: PendingApproval[];
  current: PendingApproval | null;
  mode: ApprovalMode;
  reason: string;
  /** Lines of the decided-requests history scrolled past. */
  historyTop: number;
  /** Lines of the request's input (or inspect view) scrolled past. */
  bodyTop: number;
  /** The request on screen has been there ARM_MS: answer keys work. */
  armed: boolean;
  /** The mode right now, even between renders: what the keymap consults. */
  modeNow(): ApprovalMode;
  /** Whether a request is on screen and still unanswered. */
  showing(): boolean;
  actions: {
    approveOnce(): void;
    approveSession(): void;
    /** `g`: add the asked path's glob to the intent (scope questions only). */
    widen(): void;
    startBlock(): void;
    typeReason(text: string): void;
    eraseReason(): void;
    submitBlock(): void;
    toggleInspect(): void;
    cancel(): void;
    scrollHistory(delta: number): void;
    scrollBody(delta: number): void;
  };
}

/** `canWiden`: whether the panel shows the glob `g` would add (it is never added unseen). */
export function useApprovals(source: SupervisorSource, pending: PendingApproval[], canWiden: (a: PendingApproval) => boolean = () => true): ApprovalsState {
  const current = pending[0] ?? null;
  const shown = useRef<string | null>(null);
  shown.current = current?.id ?? null;
  const modeRef = useRef<ApprovalMode>('prompt');
  const reasonRef = useRef('');
  const [mode, setModeState] = useState<ApprovalMode>('prompt');
  const [reason, setReasonState] = useState('');
  const [historyTop, setHistoryTop] = useState(0);
  const [bodyTop, setBodyTop] = useState(0);
  // A new request on screen starts at its first line.
  const bodyFor = useRef<string | null>(null);
  if (bodyFor.current !== (current?.id ?? null)) {
    bodyFor.current = current?.id ?? null;
    if (bodyTop !== 0) setBodyTop(0);
  }
  // Armed per request, ARM_MS after it was first drawn (effects run after the commit).
  const armedFor = useRef<string | null>(null);
  const [, rearm] = useState(0);
  const currentId = current?.id ?? null;
  useEffect(() => {
    if (!currentId) return;
    const timer = setTimeout(() => {
      armedFor.current = currentId;
      rearm((n) => n + 1);
    }, ARM_MS);
    return () => clearTimeout(timer);
  }, [currentId]);
  const armedNow = (): boolean => shown.current !== null && armedFor.current === shown.current;
  const setMode = (m: ApprovalMode): void => {
    modeRef.current = m;
    setModeState(m);
  };
  const setReason = (r: string): void => {
    reasonRef.current = r;
    setReasonState(r);
  };
  const answer = (fn: (id: string) => void): void => {
    const id = shown.current;
    if (!id) return;
    // Until the next render shows the next request, no key may answer it.
    shown.current = null;
    setMode('prompt');
    setReason('');
    fn(id);
  };
  if (!current && modeRef.current !== 'prompt') modeRef.current = 'prompt';
  return {
    pending,
    current,
    mode: current ? mode : 'prompt',
    reason,
    historyTop,
    bodyTop,
    armed: currentId !== null && armedFor.current === currentId,
    modeNow: () => modeRef.current,
    showing: () => shown.current !== null,
    actions: {
      approveOnce: () => armedNow() && answer((id) => source.answer(id, { action: 'approve-once' })),
      approveSession: () => armedNow() && answer((id) => source.answer(id, { action: 'approve-session' })),
      widen: () => {
        if (!armedNow() || !current?.widen || shown.current !== current.id || !canWiden(current)) return;
        answer((id) => source.answer(id, { action: 'widen' }));
      },
      startBlock: () => armedNow() && setMode('reason'),
      typeReason: (t) => setReason((reasonRef.current + t).slice(0, 500)),
      eraseReason: () => setReason(reasonRef.current.slice(0, -1)),
      submitBlock: () => {
        const why = reasonRef.current;
        answer((id) => source.answer(id, { action: 'block', reason: why }));
      },
      toggleInspect: () => {
        if (!shown.current) return;
        setMode(modeRef.current === 'inspect' ? 'prompt' : 'inspect');
        setBodyTop(0);
      },
      scrollBody: (d) => setBodyTop((t) => Math.max(0, t + d)),
      cancel: () => setMode('prompt'),
      scrollHistory: (d) => setHistoryTop((t) => Math.max(0, t + d)),
    },
  };
}
