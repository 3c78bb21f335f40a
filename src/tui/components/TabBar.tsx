// The row of view names at the top of the roz pane.
import { Box, Text } from 'ink';

export const TABS = ['trace', 'approvals', 'reviews', 'intents', 'stats'] as const;
export type Tab = (typeof TABS)[number];

export function TabBar({ tab, pending, hotkey }: { tab: Tab; pending: number; hotkey: string }) {
  return (
    <Box>
      {TABS.map((t, i) => (
        <Text key={t} inverse={t === tab} color={t === 'approvals' && pending > 0 ? 'yellow' : undefined}>
          {` ${i + 1} ${t}${t === 'approvals' && pending > 0 ? ` (${pending})` : ''} `}
        </Text>
      ))}
      <Text dimColor>{`  ${hotkey} back to claude · q too`}</Text>
    </Box>
  );
}
