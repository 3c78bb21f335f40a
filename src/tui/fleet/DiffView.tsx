// `d` in the agents tab: one agent's work against its base commit (what
// `roz agent diff NAME` prints), coloured and scrolled a screen at a time.
// The lines come from core/fleet/work-diff.ts with every control character
// already shown as a visible stand-in; a line wider than the view is cut
// with `…` (the whole of it is in `roz agent diff`).
import { Box, Text } from 'ink';
import type { PatchLineKind } from '../../core/fleet/work-diff.js';

export type DiffViewLine = { kind: PatchLineKind | 'head'; text: string };

export interface DiffViewProps {
  agent: string;
  /** `+N −M ↑A ↓B`, or null while it is read. */
  summary: string | null;
  lines: DiffViewLine[];
  top: number;
  width: number;
  height: number;
  /** A human's review (`m` on an agent without an approval of this tree): the question, in place of the keys line. */
  review?: string;
}

/** Rows of patch the view shows at `height` (the title and the keys line take two). */
export const diffRows = (height: number): number => Math.max(1, height - 2);

const STYLE: Record<DiffViewLine['kind'], { color?: string; bold?: boolean; dimColor?: boolean }> = {
  head: {},
  file: { bold: true, color: 'yellow' },
  hunk: { color: 'cyan' },
  add: { color: 'green' },
  del: { color: 'red' },
  context: {},
  meta: { dimColor: true },
};

const cut = (s: string, w: number): string => (s.length > w ? `${s.slice(0, Math.max(0, w - 1))}…` : s);

export function DiffView({ agent, summary, lines, top, width, height, review }: DiffViewProps) {
  const rows = diffRows(height);
  const start = Math.max(0, Math.min(top, lines.length - rows));
  const shown = lines.slice(start, start + rows);
  const where = lines.length <= rows ? `${lines.length} lines` : `lines ${start + 1}-${start + shown.length} of ${lines.length}`;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate-end">
        {cut(`diff · ${agent}${summary ? ` · ${summary}` : ''} · ${where}`, width)}
      </Text>
      {shown.map((l, i) => (
        <Text key={start + i} {...STYLE[l.kind]} {...(l.kind === 'head' && start + i === 0 ? { bold: true } : {})} wrap="truncate-end">
          {cut(l.text, width) || ' '}
        </Text>
      ))}
      {Array.from({ length: rows - shown.length }, (_, i) => (
        <Text key={`pad${i}`}> </Text>
      ))}
      {review ? (
        <Text color="yellow" bold wrap="truncate-end">
          {cut(review, width)}
        </Text>
      ) : (
        <Text dimColor wrap="truncate-end">
          {cut('↑↓ j k scroll · PgUp PgDn space page · g G top, end · Esc q close', width)}
        </Text>
      )}
    </Box>
  );
}
