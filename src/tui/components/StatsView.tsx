// One session's numbers: tool calls, denials by code, reviews and decisions,
// breaker trips, human wait time and block-template outcomes.
import { Box, Text } from 'ink';
import type { SessionStats } from '../../supervisor/session-stats.js';

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

export function StatsView({ stats, title }: { stats: SessionStats | null; title?: string }) {
  if (!stats) return <Text dimColor>No session state recorded (no hook reached roz).</Text>;
  const denials = Object.entries(stats.denials);
  const h = stats.human;
  return (
    <Box flexDirection="column">
      <Text bold>{title ?? `session ${stats.session_id}`}</Text>
      <Text>{`tool calls     ${stats.tool_calls} (${stats.tool_failures} failed)`}</Text>
      {/* The engine counts both a deny and an ask (a human gate) per code. */}
      <Text>{`denied/asked   ${denials.length ? denials.map(([k, v]) => `${k}=${v}`).join(' ') : 'none'}`}</Text>
      <Text>{`reviews        ${stats.reviews} · decisions COMPLETE ${stats.decisions.complete} · ISSUES ${stats.decisions.issues}${stats.decisions.invalid ? ` · not counted ${stats.decisions.invalid}` : ''}`}</Text>
      <Text>{`breaker trips  ${stats.breaker_trips}`}</Text>
      <Text>{`human gates    ${h.decisions} decided (${h.approved} approved, ${h.denied} denied) · ${h.timed_out} timed out · waited ${secs(h.wait_ms_total)} total, ${secs(h.wait_ms_max)} longest`}</Text>
      <Text>{`templates      ${stats.templates.length ? stats.templates.map((t) => `${t.template_id}: ${t.blocks} blocks, ${t.reviews_spawned} spawned, ${t.complete + t.issues} decided, ${t.no_decision} no decision`).join(' · ') : 'none used'}`}</Text>
    </Box>
  );
}
