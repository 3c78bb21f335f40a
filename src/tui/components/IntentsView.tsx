// The governed project's intents, the selected one marked, with status and
// owned scope; a cursor to select or clear one as the human; or why there
// are none.
import { Box, Text } from 'ink';
import type { ProjectIntents } from '../../supervisor/project-intents.js';
import type { IntentsState } from '../hooks/use-intents.js';
import { visible } from '../wrap.js';

export interface IntentsViewProps {
  intents: ProjectIntents | null;
  selected: string | null;
  height: number;
  cursor?: number;
  message?: IntentsState['message'];
}

export function IntentsView({ intents, selected, height, cursor = -1, message = null }: IntentsViewProps) {
  if (!intents) {
    return (
      <Box flexDirection="column" height={height}>
        <Text>{`selected intent: ${selected ?? '-'}`}</Text>
        <Text dimColor>Intent governance is off for this session (no .orchestration/active_intents.yaml in its project).</Text>
      </Box>
    );
  }
  const room = Math.max(0, height - 2 - intents.problems.length);
  const start = Math.max(0, Math.min(cursor - room + 1, intents.intents.length - room));
  return (
    <Box flexDirection="column" height={height}>
      <Text bold wrap="truncate">{`selected intent: ${selected ?? '-'} · ${intents.file}`}</Text>
      {intents.problems.map((p, i) => (
        <Text key={`p${i}`} color="red" wrap="truncate">{`invalid: ${p}`}</Text>
      ))}
      {intents.intents.slice(start, start + room).map((it, i) => (
        <Text key={it.id} inverse={start + i === cursor} bold={it.id === selected} wrap="truncate">
          {visible(`${it.id === selected ? '▶' : ' '} ${it.id} ${it.name} [${it.status}] · scope ${it.owned_scope.join(', ') || '-'}`)}
        </Text>
      ))}
      <Box flexGrow={1} />
      <Text color={message ? (message.ok ? 'green' : 'red') : undefined} dimColor={!message} wrap="truncate">
        {message ? message.text : '⏎ select for this session · x clear · ? keys'}
      </Text>
    </Box>
  );
}
