// The `?` overlay: every key of the view it was opened from, wrapped to the
// width and scrollable when the pane is short.
import { Box, Text } from 'ink';
import type { KeyContext, KeyHelp } from '../keys.js';
import { keysFor } from '../keys.js';
import { wrapText } from '../wrap.js';

export function helpLines(ctx: KeyContext, width: number): Array<{ text: string; bold?: boolean }> {
  const { view, global } = keysFor(ctx);
  const keyWidth = Math.min(16, Math.max(8, Math.floor(width / 4)));
  const block = (title: string, keys: KeyHelp) => [
    { text: title, bold: true },
    ...keys.flatMap(([k, does]) =>
      wrapText(does, Math.max(10, width - keyWidth - 2)).map((l, i) => ({ text: `${i === 0 ? `  ${k}`.padEnd(keyWidth) : ' '.repeat(keyWidth)}${l}` })),
    ),
  ];
  return [
    ...(view.length ? block(`keys: ${ctx.replace('-', ' ')}`, view) : [{ text: `keys: ${ctx} (this view has no keys of its own)`, bold: true }]),
    ...block('everywhere', global),
  ];
}

export function HelpOverlay({ ctx, top, height, width }: { ctx: KeyContext; top: number; height: number; width: number }) {
  const lines = helpLines(ctx, width);
  const start = Math.max(0, Math.min(top, lines.length - height + 1));
  const shown = lines.slice(start, start + height - 1);
  const more = lines.length - start - shown.length;
  return (
    <Box flexDirection="column" height={height}>
      {shown.map((l, i) => (
        <Text key={i} bold={l.bold} wrap="truncate">
          {l.text}
        </Text>
      ))}
      <Text dimColor wrap="truncate">
        {more > 0 ? `… ${more} more (↓)` : '? or Esc to close'}
      </Text>
    </Box>
  );
}
