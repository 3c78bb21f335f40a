// Review state and history: each decision with the reviewer's summary,
// message and second opinions, then the review attempts.
import { Box, Text } from 'ink';
import type { SessionState } from '../../core/session-state.js';
import { breakerText } from '../status-line.js';

export function ReviewsView({ state, height }: { state: SessionState | null; height: number }) {
  if (!state) return <Text dimColor>No session yet: the review state appears after the agent's first hook.</Text>;
  const r = state.review;
  const lines: Array<{ text: string; colour?: string; bold?: boolean }> = [
    { text: `review ${r.enabled ? 'on' : 'off'} · status ${r.status} · trigger ${r.trigger?.kind ?? '-'} · ${breakerText(state)}`, bold: true },
    { text: 'decisions', bold: true },
  ];
  for (const d of r.decision_history) {
    lines.push({
      text: `  ${d.decided_at.slice(11, 19)} ${d.kind.toUpperCase()} ${d.valid ? '' : `(not counted: ${d.invalid_reason}) `}— ${d.summary}`,
      colour: d.valid ? (d.kind === 'complete' ? 'green' : 'yellow') : 'red',
    });
    if (d.message) lines.push({ text: `      asked: ${d.message}` });
    // The opinions (or why none could be had) are part of the decision record.
    if (d.opinions?.length) lines.push({ text: `      second opinions: ${d.opinions.join(', ')}` });
    else if (d.no_opinion) lines.push({ text: `      no second opinion: ${d.no_opinion}` });
    else if (d.valid) lines.push({ text: '      no second opinion recorded' });
    if (d.covers) lines.push({ text: `      covers ${d.covers.length} file(s) at tree ${d.tree ? d.tree.slice(0, 12) : '-'}` });
  }
  if (r.decision_history.length === 0) lines.push({ text: '  (none)' });
  lines.push({ text: 'review attempts', bold: true });
  for (const a of r.attempts) lines.push({ text: `  #${a.id} ${a.blocked_at.slice(11, 19)} template ${a.template_id} · ${a.reason} · ${a.outcome}` });
  if (r.attempts.length === 0) lines.push({ text: '  (none)' });
  return (
    <Box flexDirection="column" height={height}>
      {lines.slice(-height).map((l, i) => (
        <Text key={i} color={l.colour} bold={l.bold} wrap="truncate">
          {l.text}
        </Text>
      ))}
    </Box>
  );
}
