// Live trace state: follow mode, filters by event type or denial code, the
// selected event. Reads a bounded window of the supervisor's ring, so a
// thousand events a second cost one tail() per repaint, not per event.
import { useCallback, useMemo, useState } from 'react';
import type { LiveEvent } from '../../supervisor/live-event.js';
import type { SupervisorSource } from '../source.js';
import { wrapText } from '../wrap.js';

/** How far back the trace view can scroll (the ring itself may hold more). */
export const TRACE_WINDOW = 1_000;

export interface TraceFilter {
  event: string | null;
  code: string | null;
}

export interface TraceState {
  rows: LiveEvent[];
  follow: boolean;
  filter: TraceFilter;
  selected: LiveEvent | null;
  detail: LiveEvent | null;
  /** The open detail, wrapped to the width, and the first line shown. */
  detailLines: string[];
  detailTop: number;
  total: number;
  actions: {
    toggleFollow(): void;
    move(delta: number): void;
    cycleEvent(): void;
    cycleCode(): void;
    clearFilter(): void;
    openDetail(): void;
    closeDetail(): void;
    /** Scroll the detail by lines; Infinity and -Infinity go to the end and the top. */
    scrollDetail(delta: number): void;
  };
}

function cycle(values: string[], current: string | null): string | null {
  if (values.length === 0) return null;
  if (current === null) return values[0]!;
  const i = values.indexOf(current);
  return i < 0 || i === values.length - 1 ? null : values[i + 1]!;
}

/** `total` is the ring's push count: a cheap dependency that changes whenever events arrive. */
export function detailText(e: LiveEvent): string {
  return JSON.stringify({ event: e.event, verdict: e.verdict, input: e.input }, null, 2);
}

export function useTrace(source: SupervisorSource, total: number, height: number, width = 80): TraceState {
  const [follow, setFollow] = useState(true);
  const [filter, setFilter] = useState<TraceFilter>({ event: null, code: null });
  const [selectedSeq, setSelectedSeq] = useState<number | null>(null);
  const [detail, setDetail] = useState<LiveEvent | null>(null);
  const [detailTop, setDetailTop] = useState(0);
  const detailLines = useMemo(() => (detail ? wrapText(detailText(detail), width) : []), [detail, width]);
  // One row is the detail's title.
  const maxTop = Math.max(0, detailLines.length - Math.max(1, height - 1));

  const matching = useMemo(
    () => source.events.tail(TRACE_WINDOW, (e) => (filter.event === null || e.event === filter.event) && (filter.code === null || e.code === filter.code)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [source, total, filter],
  );
  const known = useMemo(() => {
    const events = new Set<string>();
    const codes = new Set<string>();
    for (const e of source.events.tail(TRACE_WINDOW)) {
      events.add(e.event);
      if (e.code) codes.add(e.code);
    }
    return { events: [...events].sort(), codes: [...codes].sort() };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, total]);

  let selIndex = matching.length - 1;
  if (!follow && selectedSeq !== null) {
    const i = matching.findIndex((e) => e.seq === selectedSeq);
    if (i >= 0) selIndex = i;
  }
  const rowsShown = Math.max(1, height);
  const start = Math.max(0, Math.min(selIndex - rowsShown + 1, matching.length - rowsShown));
  const rows = matching.slice(Math.max(0, start), Math.max(0, start) + rowsShown);
  const selected = matching[selIndex] ?? null;

  const move = useCallback(
    (delta: number) => {
      setFollow(false);
      const i = Math.max(0, Math.min(matching.length - 1, selIndex + delta));
      setSelectedSeq(matching[i]?.seq ?? null);
    },
    [matching, selIndex],
  );

  return {
    rows,
    follow,
    filter,
    selected,
    detail,
    detailLines,
    detailTop: Math.min(detailTop, maxTop),
    total,
    actions: {
      toggleFollow: () => {
        setFollow((f) => !f);
        setSelectedSeq(selected?.seq ?? null);
      },
      move,
      cycleEvent: () => setFilter((f) => ({ ...f, event: cycle(known.events, f.event) })),
      cycleCode: () => setFilter((f) => ({ ...f, code: cycle(known.codes, f.code) })),
      clearFilter: () => setFilter({ event: null, code: null }),
      openDetail: () => {
        setDetail(selected);
        setDetailTop(0);
      },
      closeDetail: () => setDetail(null),
      scrollDetail: (delta) => setDetailTop((t) => Math.max(0, Math.min(maxTop, Math.min(t, maxTop) + delta))),
    },
  };
}
