// The row of view names at the top of the roz pane (short names in a narrow
// panel, so all six fit in 50 columns).
import { Box, Text } from 'ink';
import type { ClientId } from '../../core/clients.js';
import { paneName } from '../pane-name.js';

export const TABS = ['trace', 'approvals', 'reviews', 'intents', 'stats', 'agents'] as const;
export type Tab = (typeof TABS)[number];

export function TabBar({
  tab,
  pending,
  hotkey,
  compact = false,
  focused = true,
  client,
}: {
  tab: Tab;
  pending: number;
  hotkey: string;
  compact?: boolean;
  focused?: boolean;
  /** The client of the agent's pane the hotkey leads to. */
  client?: ClientId | undefined;
}) {
  return (
    <Box>
      {/* Tab names never shrink or wrap; on a narrow screen the help text is cut instead. */}
      {TABS.map((t, i) => (
        <Box key={t} flexShrink={0}>
          <Text inverse={t === tab} color={t === 'approvals' && pending > 0 ? 'yellow' : undefined}>
            {compact && t !== tab
              ? ` ${i + 1} ${t.slice(0, 5)}${t === 'approvals' && pending > 0 ? `(${pending})` : ''}`
              : ` ${i + 1} ${t}${t === 'approvals' && pending > 0 ? ` (${pending})` : ''} `}
          </Text>
        </Box>
      ))}
      <Text dimColor wrap="truncate-end">
        {focused ? `  ? keys · ${hotkey} ${paneName(client)}` : `  ${hotkey} here`}
      </Text>
    </Box>
  );
}
