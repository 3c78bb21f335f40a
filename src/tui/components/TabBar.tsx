// The row of view names at the top of the roz pane.
import { Box, Text } from 'ink';

export const TABS = ['trace', 'approvals', 'reviews', 'intents', 'stats'] as const;
export type Tab = (typeof TABS)[number];

export function TabBar({ tab, pending, hotkey }: { tab: Tab; pending: number; hotkey: string }) {
  return (
    <Box>
      {/* Tab names never shrink or wrap; on a narrow screen the help text is cut instead. */}
      {TABS.map((t, i) => (
        <Box key={t} flexShrink={0}>
          <Text inverse={t === tab} color={t === 'approvals' && pending > 0 ? 'yellow' : undefined}>
            {` ${i + 1} ${t}${t === 'approvals' && pending > 0 ? ` (${pending})` : ''} `}
          </Text>
        </Box>
      ))}
      <Text dimColor wrap="truncate-end">{`  ${hotkey} back to claude · q too`}</Text>
    </Box>
  );
}
