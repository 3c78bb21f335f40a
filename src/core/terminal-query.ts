// Output by which a program asks its terminal something and waits for the
// answer: DA1/DA2/DA3, DSR (cursor position, status), DECRQM, XTVERSION, OSC
// colour queries, DECRQSS, XTGETTCAP, the kitty keyboard flags (CSI ? u). A screen that keeps an agent's output unparsed
// while it is out of view (tui/screen/pane-feed.ts), and the supervisor that
// sends a screen only the agent in view (supervisor/attach/attach-hub.ts), let these
// through at once: the client waits for the answer.
const QUERY = /\x1b\[[>=]?[\d;]*c|\x1b\[\??[\d;]*n|\x1b\[\??[\d;]*\$p|\x1b\[>\d*q|\x1b\][\d;]*\?|\x1bP\$q|\x1bP\+q|\x1b\[\?u/;

export function asksTerminal(output: string): boolean {
  return QUERY.test(output);
}
