// Intents from intent governance (built separately; its state section is
// read defensively so this view never breaks on a newer shape).
import { Box, Text } from 'ink';
import type { SessionState } from '../../core/review/state.js';
import { selectedIntent } from '../status-line.js';

function intentList(state: SessionState | null): string[] {
  const raw = state?.governance?.intents;
  const items = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? Object.entries(raw).map(([id, v]) => ({ id, ...(v as object) })) : [];
  return items.map((it) => {
    if (typeof it === 'string') return it;
    const o = it as Record<string, unknown>;
    const scope = Array.isArray(o.scope) ? ` · scope ${o.scope.join(', ')}` : '';
    return `${String(o.id ?? '?')} ${String(o.title ?? o.name ?? '')}${o.status ? ` [${String(o.status)}]` : ''}${scope}`;
  });
}

export function IntentsView({ state, height }: { state: SessionState | null; height: number }) {
  const list = intentList(state);
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>{`selected intent: ${selectedIntent(state) ?? '-'}`}</Text>
      {list.length === 0 ? <Text dimColor>No intents recorded in this session.</Text> : null}
      {list.slice(0, height - 1).map((l, i) => (
        <Text key={i} wrap="truncate">{`  ${l}`}</Text>
      ))}
    </Box>
  );
}
