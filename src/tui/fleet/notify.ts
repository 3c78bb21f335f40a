// A request for an agent the human is not looking at: the bell and a
// terminal desktop notification (OSC 9, which many terminals turn into an OS
// notification; no dependency). Pure: the caller writes the bytes to its tty.
import type { QueuedRequest } from '../../core/fleet/queue.js';

/** Control characters and the OSC terminator must never reach the terminal from request text. */
const unsafe = (s: string): string => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 200);

/**
 * The bytes to write for requests that arrived since `seen` and belong to an
 * agent other than `lookingAt` (all of them when the terminal is not focused).
 * Empty when there is nothing new to tell.
 */
export function fleetNotification(queue: ReadonlyArray<QueuedRequest>, seen: ReadonlySet<string>, lookingAt: string | null, focused = true): string {
  const fresh = queue.filter((q) => !seen.has(q.id) && (!focused || q.agent !== lookingAt));
  if (fresh.length === 0) return '';
  const first = fresh[0]!;
  const more = fresh.length > 1 ? ` (+${fresh.length - 1} more)` : '';
  return `\u0007\u001b]9;roz: ${unsafe(first.agent)} waits for you: ${unsafe(`${first.tool}: ${first.summary}`)}${more}\u0007`;
}
