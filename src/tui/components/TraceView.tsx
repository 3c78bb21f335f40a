// The live trace: one line per hook event, newest at the bottom, and the
// detail of one event on demand.
import { Box, Text } from 'ink';
import type { LiveEvent } from '../../supervisor/live-event.js';
import type { TraceFilter } from '../hooks/use-trace.js';

const time = (ms: number): string => new Date(ms).toISOString().slice(11, 23);

function verdictColour(kind: string): string | undefined {
  return kind === 'deny' || kind === 'block' ? 'red' : kind === 'ask' ? 'yellow' : kind === 'allow' ? 'green' : undefined;
}

export interface TraceViewProps {
  rows: LiveEvent[];
  selected: LiveEvent | null;
  detail: LiveEvent | null;
  follow: boolean;
  filter: TraceFilter;
  total: number;
  height: number;
  width: number;
}

export function TraceView({ rows, selected, detail, follow, filter, total, height, width }: TraceViewProps) {
  const header = `trace · ${follow ? 'following' : 'paused'} · event=${filter.event ?? 'all'} code=${filter.code ?? 'all'} · ${total} events · f follow  ↑↓ select  ⏎ detail  e event  c code  x clear`;
  if (detail) {
    const body = JSON.stringify({ event: detail.event, verdict: detail.verdict, input: detail.input }, null, 2).split('\n');
    return (
      <Box flexDirection="column" height={height}>
        <Text bold wrap="truncate">{`event #${detail.seq} ${detail.event} ${time(detail.at)} · Esc or ⏎ to close`}</Text>
        {body.slice(0, height - 1).map((l, i) => (
          <Text key={i} wrap="truncate">
            {l.slice(0, width)}
          </Text>
        ))}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={height}>
      <Text dimColor wrap="truncate">
        {header}
      </Text>
      {rows.length === 0 ? <Text dimColor>(no events yet)</Text> : null}
      {rows.map((e) => (
        <Text key={e.seq} inverse={!follow && selected?.seq === e.seq} wrap="truncate">
          <Text dimColor>{time(e.at)} </Text>
          <Text bold>{e.event.padEnd(18)}</Text>
          {e.agent_type ? <Text color="cyan">{`[${e.agent_type}] `}</Text> : null}
          <Text>{`${e.tool_name ? `${e.tool_name} ` : ''}${e.summary}`}</Text>
          {e.verdict.kind !== 'none' ? <Text color={verdictColour(e.verdict.kind)}>{` → ${e.verdict.kind}${e.code ? ` ${e.code}` : ''}`}</Text> : null}
        </Text>
      ))}
    </Box>
  );
}
