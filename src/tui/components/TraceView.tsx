// The live trace: one line per hook event, newest at the bottom, and the
// detail of one event on demand.
import { Box, Text } from 'ink';
import type { LiveEvent } from '../../supervisor/live-event.js';
import type { TraceFilter } from '../hooks/use-trace.js';
import { visible } from '../wrap.js';

const time = (ms: number): string => new Date(ms).toISOString().slice(11, 23);

function verdictColour(kind: string): string | undefined {
  return kind === 'deny' || kind === 'block' ? 'red' : kind === 'ask' ? 'yellow' : kind === 'allow' ? 'green' : undefined;
}

export interface TraceViewProps {
  rows: LiveEvent[];
  selected: LiveEvent | null;
  detail: LiveEvent | null;
  detailLines: string[];
  detailTop: number;
  follow: boolean;
  filter: TraceFilter;
  total: number;
  height: number;
  width: number;
  /** Several agents in the run: each line names its agent. */
  inFleet?: boolean;
}

/** Width of the agent column in a fleet (agent names are up to 40 characters; longer ones are cut). */
const AGENT_W = 8;

export function TraceView({ rows, selected, detail, detailLines, detailTop, follow, filter, total, height, inFleet = false }: TraceViewProps) {
  const header = `trace · ${follow ? 'following' : 'paused'} · event=${filter.event ?? 'all'} code=${filter.code ?? 'all'} · ${total} events · ? keys`;
  if (detail) {
    const room = Math.max(1, height - 1);
    const shown = detailLines.slice(detailTop, detailTop + room);
    const pos = detailLines.length > room ? ` · lines ${detailTop + 1}-${detailTop + shown.length} of ${detailLines.length} (↑↓)` : '';
    return (
      <Box flexDirection="column" height={height}>
        <Text
          bold
          wrap="truncate"
        >{`event #${detail.seq} ${detail.event}${detail.agent ? ` · agent ${detail.agent}` : ''} ${time(detail.at)}${pos} · Esc close`}</Text>
        {shown.map((l, i) => (
          <Text key={detailTop + i} wrap="truncate">
            {l}
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
          {inFleet ? <Text color="magenta">{`${(e.agent ?? '-').slice(0, AGENT_W).padEnd(AGENT_W)} `}</Text> : null}
          <Text bold>{e.event.padEnd(18)}</Text>
          {e.agent_type ? <Text color="cyan">{`[${e.agent_type}] `}</Text> : null}
          <Text>{visible(`${e.tool_name ? `${e.tool_name} ` : ''}${e.summary}`)}</Text>
          {e.verdict.kind !== 'none' ? (
            <Text color={verdictColour(e.verdict.kind)}>{` → ${e.verdict.kind}${e.code ? ` ${e.code}` : ''}${e.why ? `: ${visible(e.why)}` : ''}`}</Text>
          ) : null}
        </Text>
      ))}
    </Box>
  );
}
