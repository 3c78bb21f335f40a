// The one-line roz status shown under Claude's screen at all times. Pure: a
// snapshot in, a line of exactly `cols` characters out.
import type { SessionState } from '../core/review/state.js';
import type { SupervisorSnapshot } from '../supervisor/supervisor.js';
import { HOTKEY_LABEL } from './screen/input-router.js';

/** Intent governance is built elsewhere; read the selected intent defensively from its opaque section. */
export function selectedIntent(state: SessionState | null): string | null {
  const g = state?.governance;
  if (!g) return null;
  for (const key of ['selected_intent', 'active_intent', 'intent', 'selected']) {
    const v = g[key];
    if (typeof v === 'string' && v) return v;
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const name = o.title ?? o.name ?? o.id;
      if (typeof name === 'string') return name;
    }
  }
  return null;
}

export function breakerText(state: SessionState | null): string {
  if (!state) return 'breaker -';
  const b = state.review.breaker;
  const open = b.open_until !== null && Date.parse(b.open_until) > Date.now();
  return `breaker ${open ? 'OPEN' : 'closed'} ${state.review.block_count} blk/${b.trips.length} trip${b.trips.length === 1 ? '' : 's'}`;
}

export function statusLine(snap: SupervisorSnapshot, focus: 'child' | 'roz', cols: number): string {
  const s = snap.state;
  const last = snap.lastEvent;
  const lastText = last
    ? `${last.event}${last.tool_name ? ` ${last.tool_name}` : ''}${last.verdict.kind !== 'none' ? ` → ${last.verdict.kind}${last.code ? ` ${last.code}` : ''}` : ''}`
    : 'no events yet';
  const parts = [
    'roz',
    `review ${s ? s.review.status : '-'}`,
    breakerText(s),
    `intent ${selectedIntent(s) ?? '-'}`,
    snap.pending.length ? `⚠ ${snap.pending.length} approval${snap.pending.length === 1 ? '' : 's'} pending` : '0 pending',
    `last ${lastText}`,
  ];
  const hint = focus === 'child' ? `${HOTKEY_LABEL}: roz` : `${HOTKEY_LABEL}: claude`;
  let line = parts.join(' │ ');
  const room = cols - hint.length - 1;
  if (line.length > room) line = `${line.slice(0, Math.max(0, room - 1))}…`;
  return `${line.padEnd(room)} ${hint}`.slice(0, cols);
}
