// The human gate: what the agent wants to do (full input, a diff for edits),
// why roz asks (wrapped in full), the time left, and the keys that answer;
// with nothing pending, the history of decided requests.
import { Box, Text } from 'ink';
import type { DecidedApproval, PendingApproval } from '../../supervisor/approval-broker.js';
import { diffPreview } from '../diff-preview.js';
import type { ApprovalMode } from '../hooks/use-approvals.js';
import { HOTKEY_LABEL } from '../screen/input-router.js';
import { visible, wrapText } from '../wrap.js';

export interface ApprovalPromptProps {
  approval: PendingApproval | null;
  queued: number;
  mode: ApprovalMode;
  reason: string;
  now: number;
  height: number;
  width: number;
  /** False while Claude has the keyboard: the keys line says how to get here instead. */
  focused?: boolean;
  /** Answer keys work (the request has been on screen long enough). */
  armed?: boolean;
  /** Decided requests, oldest first: shown when nothing is pending. */
  history?: DecidedApproval[];
  /** Lines of history scrolled past (newest first). */
  historyTop?: number;
  /** Lines of the input (or inspect view) scrolled past. */
  bodyTop?: number;
}

type Line = { text: string; colour?: string; bold?: boolean; dim?: boolean };

function inputLines(a: PendingApproval, width: number): Line[] {
  // The prompt scrolls, so the preview can be long; still bounded for a generated megabyte.
  const diff = diffPreview(a.tool_name, a.tool_input, 500);
  if (diff) {
    return diff.map((d) => ({
      text: visible(`${d.sign === '@' ? '@@' : d.sign} ${d.text}`).slice(0, width),
      colour: d.sign === '+' ? 'green' : d.sign === '-' ? 'red' : d.sign === '@' ? 'cyan' : undefined,
    }));
  }
  const cmd = a.tool_input.command;
  const lines =
    typeof cmd === 'string'
      ? [
          `$ ${cmd}`,
          ...Object.entries(a.tool_input)
            .filter(([k]) => k !== 'command')
            .map(([k, v]) => `${k}: ${JSON.stringify(v)}`),
        ]
      : JSON.stringify(a.tool_input, null, 2).split('\n');
  return lines.flatMap((l) => wrapText(l, width)).map((text) => ({ text }));
}

function inspectLines(a: PendingApproval, width: number): Line[] {
  return [
    { text: 'why roz asks', bold: true },
    ...wrapText(a.reason, width).map((text) => ({ text })),
    { text: 'tool input and ids', bold: true },
    ...wrapText(JSON.stringify({ session_id: a.session_id, tool_use_id: a.tool_use_id, tool_input: a.tool_input }, null, 2), width).map((text) => ({ text })),
  ];
}

const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/** One decided request: when, the verdict and scope, who decided, the wait; what it was; why. */
export function historyLines(history: DecidedApproval[], width: number): Line[] {
  const out: Line[] = [];
  for (const d of [...history].reverse()) {
    const a = d.approval;
    const what = String(a.tool_input.command ?? a.tool_input.file_path ?? a.tool_input.url ?? '');
    const colour = d.decision === 'allow' ? 'green' : d.decision === 'deny' ? 'red' : 'yellow';
    out.push({
      text: `${clock(d.decided_at)} ${d.decision}${d.scope === 'session' ? ' for the session' : ''} by ${d.decided_by} after ${(d.wait_ms / 1000).toFixed(1)}s · ${a.tool_name} ${a.code}`,
      colour,
    });
    for (const l of wrapText(`${what ? `${what.replace(/\s+/g, ' ')} — ` : ''}${d.reason}`, width - 4)) out.push({ text: `    ${l}`, dim: true });
  }
  return out;
}

/** The bottom line: how to answer, or why keys do not answer yet. */
function keysLine({
  focused,
  armed,
  mode,
  reason,
  width,
  widen,
}: {
  focused: boolean;
  armed: boolean;
  mode: ApprovalMode;
  reason: string;
  width: number;
  widen?: PendingApproval['widen'];
}): string {
  if (!focused) return `keys go to Claude now · ${HOTKEY_LABEL} to answer here`;
  if (mode === 'reason') return `block reason: ${reason}▌   (⏎ block · Esc back)`;
  if (!armed) return 'keys work in a moment (a key typed before you saw this does nothing)';
  return width >= 96
    ? `[a] approve once  [s] approve for this session${widen ? `  [g] add ${widen.globs.join(', ')} to ${widen.intent_id}` : ''}  [b] block with a reason  [i] inspect  [?] keys`
    : `[a] once  [s] session${widen ? '  [g] widen intent' : ''}  [b] block  [i] inspect  [?] keys`;
}

function Lines({ lines }: { lines: Line[] }) {
  return (
    <>
      {lines.map((l, i) => (
        <Text key={i} color={l.colour} bold={l.bold} dimColor={l.dim} wrap="truncate">
          {l.text}
        </Text>
      ))}
    </>
  );
}

export function ApprovalPrompt({
  approval,
  queued,
  mode,
  reason,
  now,
  height,
  width,
  focused = true,
  armed = true,
  history = [],
  historyTop = 0,
  bodyTop = 0,
}: ApprovalPromptProps) {
  if (!approval) {
    const lines = historyLines(history, width);
    const room = Math.max(1, height - 2);
    const top = Math.max(0, Math.min(historyTop, lines.length - room));
    return (
      <Box flexDirection="column" height={height}>
        <Text dimColor wrap="truncate">
          No approvals pending. A hook that needs a human (a destructive command, a gate) shows up here.
        </Text>
        <Text bold wrap="truncate">
          {history.length ? `history: ${history.length} decided, newest first${lines.length > room ? ' (↑↓)' : ''}` : 'history: none decided yet'}
        </Text>
        <Lines lines={lines.slice(top, top + room)} />
      </Box>
    );
  }
  const left = Math.max(0, Math.ceil((approval.deadline_at - now) / 1000));
  const title = `APPROVAL NEEDED · ${visible(approval.tool_name)} · ${visible(approval.code)} · ${left}s left (then denied)${queued > 1 ? ` · ${queued - 1} more queued` : ''}`;
  const keys = keysLine({ focused, armed, mode, reason, width, widen: approval.widen });
  // Why roz asks, in full, then what the agent wants to do: one block that scrolls when the pane is short
  // (a split panel), so neither is ever cut off silently.
  const body: Line[] =
    mode === 'inspect' ? inspectLines(approval, width) : [...wrapText(approval.reason, width).map((text) => ({ text })), ...inputLines(approval, width)];
  const room = Math.max(1, height - 2);
  const fits = body.length <= room;
  const top = fits ? 0 : Math.max(0, Math.min(bodyTop, body.length - (room - 1)));
  const shown = fits ? body : body.slice(top, top + room - 1);
  const below = body.length - top - shown.length;
  return (
    <Box flexDirection="column" height={height}>
      <Text bold color="yellow" wrap="truncate">
        {title}
      </Text>
      <Lines lines={shown} />
      {fits ? null : <Text dimColor wrap="truncate">{`… ${top ? `${top} above, ` : ''}${below} more line${below === 1 ? '' : 's'} (↑↓)`}</Text>}
      <Box flexGrow={1} />
      <Text bold inverse wrap="truncate">
        {keys}
      </Text>
    </Box>
  );
}
