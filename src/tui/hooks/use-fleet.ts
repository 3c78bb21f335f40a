// The agents tab's state: the human's mode (browsing, typing a new agent's
// name and its first prompt, confirming a stop or a removal, reading an
// agent's diff) and the outcome of the last action, shown until the next one.
// The actions themselves are the run screen's (fleet/fleet-ui.ts).
import { useEffect, useRef, useState } from 'react';
import { aheadBehind, plusMinus, workViewLines, type WorkSummary } from '../../core/fleet/work-diff.js';
import type { DiffViewLine } from '../fleet/DiffView.js';
import type { FleetOutcome, FleetUi } from '../fleet/fleet-ui.js';

export type FleetMode = 'list' | 'name' | 'prompt' | 'confirm-stop' | 'confirm-remove' | 'diff' | 'review';

/** The diff on screen: whose, its lines, the first line shown. */
export interface FleetDiff {
  agent: string;
  summary: string | null;
  lines: DiffViewLine[];
  top: number;
  /** A human's review: the branch and the commit shown (what `y` approves). */
  branch?: string;
  head?: string;
}

/** `+N −M ↑A ↓B` of a work summary. */
export const workLabel = (w: WorkSummary): string => `${plusMinus(w)} ${aheadBehind(w)}`;

/**
 * How often the list's `+N −M` is read again while the tab is in view: every
 * 10 s, or 5 times as long as the last reading took (roz hashes each agent's
 * work tree: ~1.2 s for 5,000 files), so it costs at most a fifth of a core.
 */
const WORK_EVERY_MS = 10_000;
const WORK_SHARE = 5;

export interface FleetState {
  mode: FleetMode;
  /** The new agent's name as typed so far. */
  name: string;
  /** Its first prompt as typed so far (after its name). */
  prompt: string;
  /** The agent a stop or removal asks about. */
  target: string;
  /** The diff in view (mode `diff`). */
  diff: FleetDiff | null;
  /** Each agent's `+N −M ↑A ↓B` (or `?` when it cannot be read), as last read. */
  work: ReadonlyMap<string, string>;
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
    typePrompt(text: string): void;
    erasePrompt(): void;
    submitPrompt(): void;
    cancel(): void;
    merge(): void;
    /** `y` on the review's diff: approve exactly that commit's tree, then merge. */
    approve(): void;
    askStop(): void;
    confirmStop(): void;
    askRemove(): void;
    confirmRemove(): void;
    openDiff(): void;
    /** Scroll the diff by `delta` lines (±Infinity: top, end). */
    scrollDiff(delta: number): void;
    /** A screen of the diff down (1) or up (-1). */
    pageDiff(dir: 1 | -1): void;
    /** Rows the diff view shows (set by the view as it renders, for paging and the end). */
    setDiffRows(rows: number): void;
  };
}

/** Names `roz agent add` accepts are checked there; here only what can be typed into one. */
const NAME_CHAR = /^[A-Za-z0-9._-]$/;

/** Control characters cannot be typed into a prompt (a pasted newline ends it). */
const PROMPT_CHAR = /^[^\u0000-\u001f\u007f-\u009f]$/u;

export function useFleet(fleet: FleetUi | null, tabShown = false): FleetState {
  const mode = useRef<FleetMode>('list');
  const name = useRef('');
  const prompt = useRef('');
  const target = useRef('');
  const diff = useRef<FleetDiff | null>(null);
  const diffRowsNow = useRef(20);
  const [work, setWork] = useState<ReadonlyMap<string, string>>(new Map());
  const [, redraw] = useState(0);
  const [message, setMessage] = useState<FleetState['message']>(null);
  const set = (m: FleetMode, n = name.current): void => {
    mode.current = m;
    name.current = n;
    redraw((x) => x + 1);
  };
  // The list's `+N −M ↑A ↓B`: read when the tab comes into view, then every WORK_EVERY_MS while it stays.
  useEffect(() => {
    if (!tabShown || !fleet?.work) return;
    let live = true;
    let timer: NodeJS.Timeout | null = null;
    const read = (): void => {
      const started = Date.now();
      const again = (): void => {
        if (live) timer = setTimeout(read, Math.max(WORK_EVERY_MS, WORK_SHARE * (Date.now() - started)));
      };
      fleet.work!.all().then((all) => {
        if (!live) return;
        const m = new Map<string, string>();
        for (const w of all) m.set(w.agent, 'error' in w ? '?' : workLabel(w));
        setWork(m);
        again();
      }, again);
    };
    read();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [tabShown, fleet]);
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
  const scrollDiff = (delta: number): void => {
    const d = diff.current;
    if (!d) return;
    const max = Math.max(0, d.lines.length - diffRowsNow.current);
    const top = Math.max(0, Math.min(max, Math.min(d.top, max) + delta));
    diff.current = { ...d, top: Number.isFinite(top) ? top : delta < 0 ? 0 : max };
    redraw((x) => x + 1);
  };
  return {
    mode: mode.current,
    name: name.current,
    prompt: prompt.current,
    target: target.current,
    diff: diff.current,
    work,
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
      // The name, then its first prompt (an agent `roz agent add` already made starts as it was recorded).
      submitName: () => {
        const n = name.current;
        if (!fleet || n === '') return set('list', '');
        if (fleet.rows().some((r) => r.name === n) || fleet.registered?.(n)) {
          set('list', '');
          run(`starting ${n}`, fleet.add(n));
          return;
        }
        prompt.current = '';
        set('prompt');
      },
      typePrompt: (text) => {
        prompt.current += [...text].filter((ch) => PROMPT_CHAR.test(ch)).join('');
        redraw((x) => x + 1);
      },
      erasePrompt: () => {
        prompt.current = [...prompt.current].slice(0, -1).join('');
        redraw((x) => x + 1);
      },
      submitPrompt: () => {
        const n = name.current;
        const p = prompt.current.trim();
        prompt.current = '';
        set('list', '');
        if (!fleet || n === '') return;
        run(`adding ${n}`, fleet.add(n, p === '' ? undefined : p));
      },
      cancel: () => {
        prompt.current = '';
        diff.current = null;
        set('list', '');
      },
      // The gate; refused for want of an approval of this tree, the human may review it here: the
      // branch's diff (exactly what merges), then `y`. The keyboard is the human's (docs/fleet.md).
      merge: () => {
        if (!fleet) return;
        const n = fleet.current();
        setMessage({ ok: true, message: `merging ${n}…`, busy: true });
        fleet.merge(n).then(
          (r) => {
            setMessage(r);
            if (!r.review || !fleet.humanMerge || !fleet.work) return;
            fleet.work.diff(n, { branch: true }).then(
              (w) => {
                if ('error' in w) return setMessage({ ok: false, message: `${r.message} · ${n}'s branch cannot be read: ${w.error}` });
                diff.current = { agent: n, summary: workLabel(w), lines: workViewLines(w), top: 0, branch: w.branch, head: w.head };
                set('review');
              },
              (err: Error) => setMessage({ ok: false, message: err.message }),
            );
          },
          (err: Error) => setMessage({ ok: false, message: err.message }),
        );
      },
      approve: () => {
        const d = diff.current;
        diff.current = null;
        set('list');
        if (!fleet?.humanMerge || !d?.head) return;
        run(`approving ${d.agent} and merging`, fleet.humanMerge(d.agent, d.head));
      },
      askStop: () => {
        if (!fleet) return;
        target.current = fleet.current();
        set('confirm-stop');
      },
      confirmStop: () => {
        set('list');
        if (!fleet) return;
        const n = target.current;
        run(`stopping ${n}`, fleet.stop(n));
      },
      askRemove: () => {
        if (!fleet?.remove) return;
        target.current = fleet.current();
        set('confirm-remove');
      },
      confirmRemove: () => {
        set('list');
        if (!fleet?.remove) return;
        const n = target.current;
        run(`removing ${n}`, fleet.remove(n));
      },
      openDiff: () => {
        if (!fleet?.work) return;
        const n = fleet.current();
        setMessage({ ok: true, message: `reading ${n}'s work…`, busy: true });
        fleet.work.diff(n).then(
          (w) => {
            if ('error' in w) return setMessage({ ok: false, message: `${n}: ${w.error}` });
            setMessage(null);
            setWork((m) => new Map(m).set(n, workLabel(w)));
            diff.current = { agent: n, summary: workLabel(w), lines: workViewLines(w), top: 0 };
            set('diff');
          },
          (err: Error) => setMessage({ ok: false, message: err.message }),
        );
      },
      scrollDiff,
      pageDiff: (dir) => scrollDiff(dir * Math.max(1, diffRowsNow.current - 1)),
      setDiffRows: (rows) => {
        diffRowsNow.current = rows;
      },
    },
  };
}
