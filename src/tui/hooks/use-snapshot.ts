// The supervisor's current state as React state: re-read on every (already
// coalesced) change notification.
import { useEffect, useState } from 'react';
import type { SupervisorSnapshot } from '../../supervisor/view.js';
import type { SupervisorSource } from '../source.js';

/** `view`: the agent the source's snapshot is of; a change re-reads it at once. */
export function useSnapshot(source: SupervisorSource, view?: string): SupervisorSnapshot {
  const [snap, setSnap] = useState(() => source.snapshot());
  useEffect(() => {
    setSnap(source.snapshot());
    return source.subscribe(() => setSnap(source.snapshot()));
  }, [source, view]);
  return snap;
}
