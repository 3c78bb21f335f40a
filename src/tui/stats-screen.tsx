// One session's stats on the real terminal: printed once after `roz run`,
// or interactive for `roz stats --tui [SESSION]` (q to quit).
import { Box, render, renderToString, Text, useApp, useInput } from 'ink';
import type { SessionStats } from '../supervisor/session-stats.js';
import { StatsView } from './components/StatsView.js';

export function renderSessionStats(stats: SessionStats | null, columns: number, title?: string): string {
  return renderToString(<StatsView stats={stats} title={title} width={columns} />, { columns });
}

function Interactive({ stats, width }: { stats: SessionStats | null; width: number }) {
  const { exit } = useApp();
  useInput((input, key) => {
    if (input === 'q' || key.escape || key.return) exit();
  });
  return (
    <Box flexDirection="column">
      <StatsView stats={stats} width={width} />
      <Text dimColor>q to quit</Text>
    </Box>
  );
}

/** Show stats until the user quits; when not on a terminal, print them once. */
export async function showSessionStats(stats: SessionStats | null, io: { stdin?: NodeJS.ReadStream; stdout?: NodeJS.WriteStream } = {}): Promise<void> {
  const stdout = io.stdout ?? process.stdout;
  const stdin = io.stdin ?? process.stdin;
  if (!stdout.isTTY || !stdin.isTTY) {
    stdout.write(`${renderSessionStats(stats, stdout.columns || 100)}\n`);
    return;
  }
  const inst = render(<Interactive stats={stats} width={stdout.columns || 100} />, { stdout, stdin, exitOnCtrlC: true, patchConsole: false });
  await inst.waitUntilExit();
}
