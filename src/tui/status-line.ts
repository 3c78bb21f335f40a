// The one-line roz status shown under Claude's screen at all times. Pure: a
// snapshot in, a line of exactly `cols` characters out. Segments have a rank:
// when the line is too long the least important go first, so a pending
// approval (always first) and the hotkey survive on any width.
import type { SessionState } from '../core/session-state.js';
import { selectedIntentId, type ProjectIntents } from '../supervisor/project-intents.js';
import type { SupervisorSnapshot } from '../supervisor/view.js';
import { paneName } from './pane-name.js';
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
  const open = breakerOpen(state);
  return `breaker ${open ? 'OPEN' : 'closed'} ${state.review.block_count} blk/${b.trips.length} trip${b.trips.length === 1 ? '' : 's'}`;
}

function breakerOpen(state: SessionState): boolean {
  const until = state.review.breaker.open_until;
  return until !== null && Date.parse(until) > Date.now();
}

/** `enforced` or `advisory` once the session knows (SessionStart records it); null before. */
export function enforcementMode(state: SessionState | null): string | null {
  const mode = state?.enforcement?.mode;
  return typeof mode === 'string' ? mode : null;
}

/** What the verdict covers: the files changed since the review base, at the tree the reviewer saw. */
function coverage(d: NonNullable<SessionState['review']['decision']>): string {
  const covers = d.covers as unknown;
  const files = Array.isArray(covers) ? `${covers.length} file${covers.length === 1 ? '' : 's'}` : typeof covers === 'string' && covers ? covers : '';
  const tree = typeof d.tree === 'string' && d.tree ? `@${d.tree.slice(0, 7)}` : '';
  return files || tree ? ` covers ${[files, tree].filter(Boolean).join(' ')}` : '';
}

/** Review status, the verdict that set it and, when recorded, what it covers. */
export function reviewText(state: SessionState | null): string {
  if (!state) return 'review -';
  const r = state.review;
  const d = r.decision;
  if (!d) return `review ${r.status}`;
  return `review ${r.status} (${d.kind.toUpperCase()}${d.valid ? '' : ' not counted'}${coverage(d)})`;
}

/**
 * The status line is written to the real terminal as text (the panes are
 * copied cell by cell): no control character from the agent's command, an
 * intent name or a file path may reach it as an escape sequence.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const safe = (text: string): string => text.replace(CONTROL, '?');

interface Segment {
  text: string;
  /** Lower is more important; the highest rank is dropped first. */
  rank: number;
  /** May be cut with … instead of dropped (the last event, the intent). */
  clip?: boolean;
}

const SEP = ' │ ';

const cut = (text: string, n: number): string => (text.length > n ? `${text.slice(0, Math.max(0, n - 1))}…` : text);

/**
 * The first pending request in `room` columns: `!! APPROVAL: Bash rm -rf build
 * — deletes the tree build/ · a/s/b to answer`. How to answer is never cut;
 * the command and the human's reason share what is left: the command keeps
 * enough to say which one (20 columns, or 40 % of the room), the reason the rest.
 */
function pendingLead(snap: SupervisorSnapshot, focus: 'child' | 'roz', room: number): string {
  const n = snap.pending.length;
  const first = snap.pending[0]!;
  const what = String(first.tool_input.command ?? first.tool_input.file_path ?? first.tool_input.url ?? '');
  const head = `!! ${n === 1 ? 'APPROVAL' : `${n} APPROVALS`}: `;
  const answer = focus === 'child' ? `${HOTKEY_LABEL} to answer` : first.widen ? 'a/s/g/b to answer' : 'a/s/b to answer';
  const tail = ` · ${answer}`;
  const call = `${safe(first.tool_name)}${what ? ` ${safe(what.replace(/\s+/g, ' '))}` : ''}`;
  const why = first.human ? ` — ${safe(first.human)}` : '';
  const free = Math.max(0, room - head.length - tail.length);
  if (call.length + why.length <= free) return `${head}${call}${why}${tail}`;
  const callMin = Math.min(call.length, Math.max(20, Math.floor(free * 0.4)));
  const whyRoom = Math.min(why.length, free - callMin);
  return `${head}${cut(call, free - whyRoom)}${cut(why, whyRoom)}${tail}`;
}

export function statusLine(snap: SupervisorSnapshot, focus: 'child' | 'roz', cols: number): string {
  const s = snap.state;
  const last = snap.lastEvent;
  const lastText = last
    ? `${last.event}${last.tool_name ? ` ${last.tool_name}` : ''}${last.verdict.kind !== 'none' ? ` → ${last.verdict.kind}${last.code ? ` ${last.code}` : ''}` : ''}`
    : 'no events yet';
  const lastWhy = last?.why ? `: ${last.why}` : '';
  const mode = enforcementMode(s);
  const segments: Segment[] = [
    { text: 'roz', rank: 6 },
    ...(mode ? [{ text: mode === 'advisory' ? 'ADVISORY' : mode, rank: mode === 'advisory' ? 1 : 5 }] : []),
    { text: reviewText(s), rank: 2 },
    { text: breakerText(s), rank: s && breakerOpen(s) ? 2 : 4 },
    // Cut rather than dropped: the intent's name may be long, its id is what matters.
    { text: `intent ${selectedIntent(s, snap.intents) ?? '-'}`, rank: 3, clip: true },
    { text: `last ${lastText}${lastWhy}`, rank: 7, clip: true },
  ];
  // In a fleet: which agent is in view, and requests waiting in other agents (never dropped: the jump key answers them).
  const fleet = snap.fleet && snap.fleet.agents > 1 ? snap.fleet : null;
  if (fleet) segments.splice(1, 0, { text: `agent ${fleet.agent}`, rank: 1 });
  const elsewhere = fleet?.waitingElsewhere
    ? `!! ${fleet.waitingElsewhere} waiting in ${fleet.elsewhere.join(',')} · ${focus === 'child' ? `${HOTKEY_LABEL} w` : 'w'} to jump`
    : '';
  const hint = snap.pending.length || elsewhere ? '' : focus === 'child' ? `${HOTKEY_LABEL}: roz` : `${HOTKEY_LABEL}: ${paneName(snap.client)}`;
  // The pending request leads and is never dropped; only its command and reason are shortened.
  // From 120 columns on it leaves room for the review and the intent.
  const own = snap.pending.length ? pendingLead(snap, focus, (cols >= 120 ? cols - 36 : cols) - (elsewhere ? elsewhere.length + SEP.length : 0)) : '';
  const lead = [own, safe(elsewhere)].filter(Boolean).join(SEP);
  const room = cols - (hint ? hint.length + 1 : 0) - (lead ? lead.length + SEP.length : 0);
  for (const seg of segments) seg.text = safe(seg.text);
  const kept = [...segments];
  const join = (xs: Segment[]): string => xs.map((x) => x.text).join(SEP);
  while (kept.length && join(kept).length > room) {
    const worst = kept.reduce((w, x) => (x.rank > w.rank ? x : w));
    const others = join(kept.filter((x) => x !== worst));
    const spare = room - others.length - (others ? SEP.length : 0);
    if (worst.clip && spare >= 12) {
      worst.text = `${worst.text.slice(0, spare - 1)}…`;
      break;
    }
    kept.splice(kept.indexOf(worst), 1);
  }
  const body = [lead, join(kept)].filter(Boolean).join(SEP);
  const line = hint ? `${body.padEnd(cols - hint.length - 1)} ${hint}` : body;
  return line.padEnd(cols).slice(0, cols);
}
