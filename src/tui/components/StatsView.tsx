// One session's numbers: tool calls, denials by code, reviews and decisions,
// breaker trips, human wait time and block-template outcomes. Each value is
// a list of phrases packed to the width, so a line breaks between phrases.
import { Box, Text } from 'ink';
import type { SessionStats } from '../../supervisor/session-stats.js';
import { packPhrases } from '../wrap.js';

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const LABEL = 15;

export function statsRows(stats: SessionStats): Array<[label: string, phrases: string[]]> {
  const denials = Object.entries(stats.denials);
  const h = stats.human;
  return [
    ['tool calls', [`${stats.tool_calls} (${stats.tool_failures} failed)`]],
    // The engine counts both a deny and an ask (a human gate) per code.
    ['denied/asked', denials.length ? denials.map(([k, v]) => `${k}=${v}`) : ['none']],
    [
      'reviews',
      [
        `${stats.reviews}`,
        `decisions COMPLETE ${stats.decisions.complete}`,
        `ISSUES ${stats.decisions.issues}`,
        ...(stats.decisions.invalid ? [`not counted ${stats.decisions.invalid}`] : []),
      ],
    ],
    ['breaker trips', [`${stats.breaker_trips}`]],
    [
      'human gates',
      [
        `${h.decisions} decided (${h.approved} approved, ${h.denied} denied)`,
        `${h.timed_out} timed out`,
        `waited ${secs(h.wait_ms_total)} total, ${secs(h.wait_ms_max)} longest`,
      ],
    ],
    [
      'templates',
      stats.templates.length
        ? stats.templates.map(
            (t) => `${t.template_id}: ${t.blocks} blocks, ${t.reviews_spawned} spawned, ${t.complete + t.issues} decided, ${t.no_decision} no decision`,
          )
        : ['none used'],
    ],
  ];
}

export function StatsView({ stats, title, width = 100 }: { stats: SessionStats | null | undefined; title?: string; width?: number }) {
  if (stats === undefined) return <Text dimColor>Reading this session's stats from the supervisor…</Text>;
  if (!stats) return <Text dimColor>No session state recorded (no hook reached roz).</Text>;
  const lines: string[] = [];
  for (const [label, phrases] of statsRows(stats)) {
    const sep = label === 'denied/asked' ? ' ' : ' · ';
    packPhrases(phrases, Math.max(20, width - LABEL), sep).forEach((l, i) => lines.push(`${(i === 0 ? label : '').padEnd(LABEL)}${l}`));
  }
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {title ?? `${stats.agent ? `agent ${stats.agent} · ` : ''}session ${stats.session_id}`}
      </Text>
      {lines.map((l, i) => (
        <Text key={i} wrap="truncate">
          {l}
        </Text>
      ))}
    </Box>
  );
}
