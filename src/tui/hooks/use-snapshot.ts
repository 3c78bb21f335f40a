// The supervisor's current state as React state: re-read on every (already
// coalesced) change notification.
import { useEffect, useState } from 'react';
import type { SupervisorSnapshot } from '../../supervisor/supervisor.js';
import type { SupervisorSource } from '../source.js';

export function useSnapshot(source: SupervisorSource): SupervisorSnapshot {
  const [snap, setSnap] = useState(() => source.snapshot());
  useEffect(() => {
    setSnap(source.snapshot());
    return source.subscribe(() => setSnap(source.snapshot()));
  }, [source]);
  return snap;
}
