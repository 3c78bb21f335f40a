// The fleet at a glance: one row per agent (name, branch or worktree, live
// state, requests waiting, review, enforcement) and, below, the one queue
// across agents in arrival order, each request naming its agent. The agent
// that needs the human is marked; the selected one is highlighted.
import { Box, Text } from 'ink';
import { type AgentStatus, needsHuman, statusLabel } from '../../core/fleet/agent-state.js';
import type { QueuedRequest } from '../../core/fleet/queue.js';
import { visible } from '../wrap.js';

export interface AgentRow {
  name: string;
  /** `roz/NAME`, or the directory when it shares the checkout. */
  where: string;
  status: AgentStatus;
  pending: number;
  review: string;
  enforcement: string;
}

export interface AgentsViewProps {
  agents: AgentRow[];
  queue: QueuedRequest[];
  /** The agent whose pty the main pane shows. */
  current: string | null;
  now: number;
  width: number;
  height: number;
  /** Each agent's `+N −M ↑A ↓B` against its base commit, as last read (absent: not known). */
  work?: ReadonlyMap<string, string>;
}

const cell = (s: string, w: number): string => {
  const t = visible(s);
  return t.length > w ? `${t.slice(0, Math.max(0, w - 1))}…` : t.padEnd(w);
};

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}`;
}

function colourOf(status: AgentStatus): string | undefined {
  if (needsHuman(status)) return 'yellow';
  if (status.kind === 'issues' || status.kind === 'breaker') return 'red';
  if (status.kind === 'approved') return 'green';
  if (status.kind === 'exited') return 'gray';
  return undefined;
}

export function AgentsView({ agents, queue, current, now, width, height, work }: AgentsViewProps) {
  const wide = width >= 100;
  // Columns: marker(2) name where state pending work review enforcement
  const nameW = 10;
  const pendW = 4;
  const workW = 17;
  const reviewW = wide ? 10 : 0;
  const enfW = wide ? 10 : 0;
  const stateW = 26;
  const whereW = Math.max(8, width - 2 - nameW - stateW - pendW - workW - reviewW - enfW - (wide ? 6 : 4));
  const header = `  ${cell('agent', nameW)} ${cell('branch', whereW)} ${cell('state', stateW)} ${cell('wait', pendW)} ${cell('work', workW)}${wide ? ` ${cell('review', reviewW)} ${cell('enforce', enfW)}` : ''}`;
  const waitingCount = agents.filter((a) => needsHuman(a.status)).length;
  // Leave room: title, header, the queue title and at least 3 queue lines, the keys line.
  const agentRows = Math.max(1, Math.min(agents.length, height - 7));
  const queueRows = Math.max(0, height - agentRows - 5);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold>{cell(`agents · ${agents.length} · ${waitingCount === 0 ? 'nobody waits for you' : `${waitingCount} waiting for you`}`, width)}</Text>
      <Text dimColor>{cell(header, width)}</Text>
      {agents.length === 0 ? (
        <Text dimColor>{cell('  no agents yet: roz agent add NAME', width)}</Text>
      ) : (
        agents.slice(0, agentRows).map((a) => {
          const mark = a.name === current ? '›' : needsHuman(a.status) ? '!' : ' ';
          const line = `${mark} ${cell(a.name, nameW)} ${cell(a.where, whereW)} ${cell(statusLabel(a.status), stateW)} ${cell(a.pending ? String(a.pending) : '·', pendW)} ${cell(work?.get(a.name) ?? '·', workW)}${
            wide ? ` ${cell(a.review, reviewW)} ${cell(a.enforcement, enfW)}` : ''
          }`;
          return (
            <Text key={a.name} color={colourOf(a.status)} inverse={a.name === current}>
              {cell(line, width)}
            </Text>
          );
        })
      )}
      <Text bold>{cell(`queue · ${queue.length} waiting, oldest first`, width)}</Text>
      {queue.length === 0 ? (
        <Text dimColor>{cell('  nothing waits for you', width)}</Text>
      ) : (
        queue
          .slice(0, queueRows)
          .map((q, i) => (
            <Text key={q.id}>
              {cell(`${String(i + 1).padStart(2)}. ${cell(q.agent, nameW)} ${cell(ago(now - q.since), 6)} ${q.tool}: ${q.summary}`, width)}
            </Text>
          ))
      )}
      {queue.length > queueRows && queueRows > 0 ? <Text dimColor>{cell(`  … ${queue.length - queueRows} more`, width)}</Text> : null}
    </Box>
  );
}
