// The governed project's intents, the selected one marked, with status and
// owned scope; or why there are none.
import { Box, Text } from 'ink';
import type { ProjectIntents } from '../../supervisor/project-intents.js';

export function IntentsView({ intents, selected, height }: { intents: ProjectIntents | null; selected: string | null; height: number }) {
  if (!intents) {
    return (
      <Box flexDirection="column" height={height}>
        <Text>{`selected intent: ${selected ?? '-'}`}</Text>
        <Text dimColor>Intent governance is off for this session (no .orchestration/active_intents.yaml in its project).</Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={height}>
      <Text bold wrap="truncate">{`selected intent: ${selected ?? '-'} · ${intents.file}`}</Text>
      {intents.problems.map((p, i) => (
        <Text key={`p${i}`} color="red" wrap="truncate">{`invalid: ${p}`}</Text>
      ))}
      {intents.intents.slice(0, Math.max(0, height - 1 - intents.problems.length)).map((it) => (
        <Text key={it.id} inverse={it.id === selected} wrap="truncate">
          {`${it.id === selected ? '▶' : ' '} ${it.id} ${it.name} [${it.status}] · scope ${it.owned_scope.join(', ') || '-'}`}
        </Text>
      ))}
    </Box>
  );
}
