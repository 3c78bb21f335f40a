// The one-line roz status shown under Claude's screen at all times. Pure: a
// snapshot in, a line of exactly `cols` characters out.
import type { SessionState } from '../core/review/state.js';
import { selectedIntentId, type ProjectIntents } from '../supervisor/project-intents.js';
import type { SupervisorSnapshot } from '../supervisor/supervisor.js';
import { HOTKEY_LABEL } from './screen/input-router.js';

/** The selected intent's id, and its name when the project's intents are known. */
export function selectedIntent(state: SessionState | null, intents: ProjectIntents | null = null): string | null {
  const id = selectedIntentId(state);
  if (!id) return null;
  const name = intents?.intents.find((i) => i.id === id)?.name;
  return name ? `${id} ${name}` : id;
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
    `intent ${selectedIntent(s, snap.intents) ?? '-'}`,
    snap.pending.length ? `! ${snap.pending.length} approval${snap.pending.length === 1 ? '' : 's'} pending` : '0 pending',
    `last ${lastText}`,
  ];
  const hint = focus === 'child' ? `${HOTKEY_LABEL}: roz` : `${HOTKEY_LABEL}: claude`;
  let line = parts.join(' │ ');
  const room = cols - hint.length - 1;
  if (line.length > room) line = `${line.slice(0, Math.max(0, room - 1))}…`;
  return `${line.padEnd(room)} ${hint}`.slice(0, cols);
}
