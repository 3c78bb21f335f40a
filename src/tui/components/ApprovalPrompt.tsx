// The human gate: what the agent wants to do (full input, a diff for edits),
// why roz asks, the time left, and the keys that answer.
import { Box, Text } from 'ink';
import type { PendingApproval } from '../../supervisor/approval-broker.js';
import { diffPreview } from '../diff-preview.js';
import type { ApprovalMode } from '../hooks/use-approvals.js';

export interface ApprovalPromptProps {
  approval: PendingApproval | null;
  queued: number;
  mode: ApprovalMode;
  reason: string;
  now: number;
  height: number;
  width: number;
}

function inputLines(a: PendingApproval, width: number): Array<{ text: string; colour?: string }> {
  const diff = diffPreview(a.tool_name, a.tool_input);
  if (diff) {
    return diff.map((d) => ({ text: `${d.sign === '@' ? '@@' : d.sign} ${d.text}`.slice(0, width), colour: d.sign === '+' ? 'green' : d.sign === '-' ? 'red' : d.sign === '@' ? 'cyan' : undefined }));
  }
  const cmd = a.tool_input.command;
  const lines = typeof cmd === 'string' ? [`$ ${cmd}`, ...Object.entries(a.tool_input).filter(([k]) => k !== 'command').map(([k, v]) => `${k}: ${JSON.stringify(v)}`)] : JSON.stringify(a.tool_input, null, 2).split('\n');
  return lines.flatMap((l) => (l.length > width ? (l.match(new RegExp(`.{1,${Math.max(1, width)}}`, 'g')) ?? [l]) : [l])).map((text) => ({ text }));
}

export function ApprovalPrompt({ approval, queued, mode, reason, now, height, width }: ApprovalPromptProps) {
  if (!approval) {
    return (
      <Box flexDirection="column" height={height}>
        <Text dimColor>No approvals pending. When a hook needs a human (a destructive command, a configured gate), it shows up here.</Text>
      </Box>
    );
  }
  const left = Math.max(0, Math.ceil((approval.deadline_at - now) / 1000));
  const head = [
    `APPROVAL NEEDED · ${approval.tool_name} · ${approval.code} · ${left}s left (then denied)${queued > 1 ? ` · ${queued - 1} more queued` : ''}`,
    approval.reason,
  ];
  const keys =
    mode === 'reason'
      ? `block reason: ${reason}▌   (⏎ block · Esc back)`
      : `[a] approve once   [s] approve for this session${approval.widen ? `   [g] add ${approval.widen.globs.join(', ')} to ${approval.widen.intent_id}` : ''}   [b] block with a reason   [i] inspect`;
  const body =
    mode === 'inspect'
      ? JSON.stringify({ session_id: approval.session_id, tool_use_id: approval.tool_use_id, tool_input: approval.tool_input }, null, 2).split('\n').map((text) => ({ text: text.slice(0, width) }))
      : inputLines(approval, width);
  const room = Math.max(1, height - head.length - 2);
  const shown = body.slice(0, room);
  return (
    <Box flexDirection="column" height={height}>
      <Text bold color="yellow" wrap="truncate">
        {head[0]}
      </Text>
      <Text wrap="truncate">{head[1]}</Text>
      {shown.map((l, i) => (
        <Text key={i} color={(l as { colour?: string }).colour} wrap="truncate">
          {l.text}
        </Text>
      ))}
      {body.length > room ? <Text dimColor>{`… ${body.length - room} more lines (i to inspect)`}</Text> : null}
      <Box flexGrow={1} />
      <Text bold inverse wrap="truncate">
        {keys}
      </Text>
    </Box>
  );
}
