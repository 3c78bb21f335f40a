// The agents tab's state: the human's mode (browsing, typing a new agent's
// name, confirming a stop) and the outcome of the last action, shown until
// the next one. The actions themselves are the run screen's (fleet/fleet-ui.ts).
import { useRef, useState } from 'react';
import type { FleetOutcome, FleetUi } from '../fleet/fleet-ui.js';

export type FleetMode = 'list' | 'name' | 'confirm-stop';

export interface FleetState {
  mode: FleetMode;
  /** The new agent's name as typed so far. */
  name: string;
  /** What the last add / merge / stop / jump did (or why it did not); `busy` while it runs. */
  message: (FleetOutcome & { busy?: boolean }) | null;
  /** The mode as of the latest key (a read can carry several keys before React re-renders). */
  modeNow(): FleetMode;
  actions: {
    move(delta: number): void;
    open(): void;
    jump(): void;
    startAdd(): void;
    typeName(text: string): void;
    eraseName(): void;
    submitName(): void;
    cancel(): void;
    merge(): void;
    askStop(): void;
    confirmStop(): void;
  };
}

/** Names `roz agent add` accepts are checked there; here only what can be typed into one. */
const NAME_CHAR = /^[A-Za-z0-9._-]$/;

export function useFleet(fleet: FleetUi | null): FleetState {
  const mode = useRef<FleetMode>('list');
  const name = useRef('');
  const [, redraw] = useState(0);
  const [message, setMessage] = useState<FleetState['message']>(null);
  const set = (m: FleetMode, n = name.current): void => {
    mode.current = m;
    name.current = n;
    redraw((x) => x + 1);
  };
  const run = (what: string, p: Promise<FleetOutcome>): void => {
    setMessage({ ok: true, message: `${what}…`, busy: true });
    p.then(
      (r) => setMessage(r),
      (err: Error) => setMessage({ ok: false, message: err.message }),
    );
  };
  const move = (d: number): void => {
    if (!fleet) return;
    const rows = fleet.rows();
    const at = rows.findIndex((r) => r.name === fleet.current());
    const next = rows[Math.max(0, Math.min(rows.length - 1, at + d))];
    if (next) fleet.select(next.name);
  };
  return {
    mode: mode.current,
    name: name.current,
    message,
    modeNow: () => mode.current,
    actions: {
      move,
      open: () => fleet?.open(),
      jump: () => {
        if (!fleet) return;
        const to = fleet.jump();
        setMessage(to ? { ok: true, message: `jumped to ${to}` } : { ok: true, message: 'nobody waits for you' });
      },
      startAdd: () => set('name', ''),
      typeName: (text) => set('name', name.current + [...text].filter((ch) => NAME_CHAR.test(ch)).join('')),
      eraseName: () => set('name', name.current.slice(0, -1)),
      submitName: () => {
        const n = name.current;
        set('list', '');
        if (!fleet || n === '') return;
        run(`adding ${n}`, fleet.add(n));
      },
      cancel: () => set('list', ''),
      merge: () => {
        if (!fleet) return;
        const n = fleet.current();
        run(`merging ${n}`, fleet.merge(n));
      },
      askStop: () => set('confirm-stop'),
      confirmStop: () => {
        set('list');
        if (!fleet) return;
        const n = fleet.current();
        run(`stopping ${n}`, fleet.stop(n));
      },
    },
  };
}
