// The circuit breaker: after max_blocks blocks in one review cycle the stop is
// let through, the trip is recorded, and automatic review stays off for
// cooldown_seconds so a stuck agent cannot loop forever.
import type { SessionState } from '../session-state.js';

export interface BreakerConfig {
  max_blocks: number;
  cooldown_seconds: number;
}

export function breakerOpen(state: SessionState, now: Date): boolean {
  const until = state.review.breaker.open_until;
  return until !== null && Date.parse(until) > now.getTime();
}

export function shouldTrip(state: SessionState, cfg: BreakerConfig): boolean {
  return state.review.block_count >= cfg.max_blocks;
}

/** Record a trip and end the review cycle. Returns the warning shown to the human. */
export function trip(state: SessionState, cfg: BreakerConfig, now: Date): string {
  const review = state.review;
  const attempt = review.attempts.at(-1);
  review.breaker.trips.push({
    at: now.toISOString(),
    block_count: review.block_count,
    attempt_id: attempt?.id ?? null,
    trigger: review.trigger?.kind ?? null,
  });
  review.breaker.open_until = new Date(now.getTime() + cfg.cooldown_seconds * 1000).toISOString();
  const blocks = review.block_count;
  review.enabled = false;
  review.status = 'idle';
  review.block_count = 0;
  return (
    `roz: circuit breaker opened after ${blocks} blocked stop${blocks === 1 ? '' : 's'} without a valid review; ` +
    `the agent may stop UNREVIEWED. Automatic review is paused for ${cfg.cooldown_seconds}s ` +
    `(a new #roz prompt re-arms it). Inspect with: roz debug ${state.session_id}`
  );
}
