// The intents view's state: a cursor over the project's intents and the
// human's select / clear, which go through the supervisor (trusted) and are
// recorded as the human's. The last outcome is shown until the next one.
import { useRef, useState } from 'react';
import type { ProjectIntents } from '../../supervisor/project-intents.js';
import type { SupervisorSource } from '../source.js';

export interface IntentsState {
  cursor: number;
  /** What the last select/clear did (or why it did not). */
  message: { ok: boolean; text: string } | null;
  actions: {
    move(delta: number): void;
    select(): void;
    clear(): void;
  };
}

export function useIntents(source: SupervisorSource, intents: ProjectIntents | null): IntentsState {
  // The cursor lives in a ref too: ↓ then ⏎ in one read must select the row moved to.
  const cursorRef = useRef(0);
  const [, setCursor] = useState(0);
  const [message, setMessage] = useState<IntentsState['message']>(null);
  const count = intents?.intents.length ?? 0;
  const clamp = (n: number): number => Math.max(0, Math.min(n, count - 1));
  const at = clamp(cursorRef.current);
  const run = (id: string | null): void => {
    setMessage({ ok: true, text: id ? `selecting ${id}…` : 'clearing…' });
    void source.selectIntent(id).then(
      (r) => setMessage({ ok: r.ok, text: r.message }),
      (err: Error) => setMessage({ ok: false, text: err.message }),
    );
  };
  return {
    cursor: at,
    message,
    actions: {
      move: (d) => {
        cursorRef.current = clamp(clamp(cursorRef.current) + d);
        setCursor(cursorRef.current);
      },
      select: () => {
        const it = intents?.intents[clamp(cursorRef.current)];
        if (it) run(it.id);
      },
      clear: () => run(null),
    },
  };
}
