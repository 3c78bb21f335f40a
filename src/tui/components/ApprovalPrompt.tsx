// The human gate: which agent asks, why in one line (the human's reason, not
// the agent's instructions), what it wants to do (full input, a diff for
// edits), the exact glob `g` would add, the time left and the keys; the
// agent's own text under `i`. With nothing pending, the history of decided
// requests.
import { Box, Text } from 'ink';
import type { ClientId } from '../../core/clients.js';
import { FIRST_AGENT } from '../../core/fleet/agent-name.js';
import type { DecidedApproval, PendingApproval } from '../../supervisor/approval-broker.js';
import { diffPreview } from '../diff-preview.js';
import { paneLabel } from '../pane-name.js';
import type { ApprovalMode } from '../hooks/use-approvals.js';
import { HOTKEY_LABEL } from '../screen/input-router.js';
import { visible, wrapText } from '../wrap.js';

export interface ApprovalPromptProps {
  approval: PendingApproval | null;
  /** In a fleet of several agents: the request names the fleet agent it came from. */
  inFleet?: boolean;
  /** Nothing pending here but requests wait in other agents: what to say (`w` jumps there). */
  elsewhere?: string;
  queued: number;
  mode: ApprovalMode;
  reason: string;
  now: number;
  height: number;
  width: number;
  /** False while the agent's pane has the keyboard: the keys line says how to get here instead. */
  focused?: boolean;
  /** The client of the agent's pane (the keys line names it). */
  client?: ClientId | undefined;
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

/** A file path as the human reads it: relative to the agent's cwd when inside it. */
function shownPath(path: unknown, cwd: string | undefined): unknown {
  if (typeof path !== 'string' || !cwd) return path;
  const dir = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return path.startsWith(dir) && path.length > dir.length ? path.slice(dir.length) : path;
}

function inputLines(a: PendingApproval, width: number): Line[] {
  // The prompt scrolls, so the preview can be long; still bounded for a generated megabyte.
  const diff = diffPreview(a.tool_name, { ...a.tool_input, file_path: shownPath(a.tool_input.file_path, a.cwd) }, 500);
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
  const ids = { session_id: a.session_id, tool_use_id: a.tool_use_id, agent: a.agent ?? FIRST_AGENT, cwd: a.cwd, tool_input: a.tool_input };
  return [
    { text: 'what roz tells the agent', bold: true },
    ...wrapText(a.reason, width).map((text) => ({ text })),
    { text: 'tool input and ids', bold: true },
    ...wrapText(JSON.stringify(ids, null, 2), width).map((text) => ({ text })),
  ];
}

/** Which agent asks: the main agent, or a subagent by its type. */
export function agentLabel(a: PendingApproval): string {
  return a.agent ? `subagent ${visible(a.agent.type ?? a.agent.id ?? '?')}` : 'main agent';
}

/** Text cut into rows of exactly `width`: a glob is shown character for character, never reflowed at its spaces. */
function hardWrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += w) out.push(text.slice(i, i + w));
  return out.length ? out : [''];
}

/** What `g` adds, exactly, whatever the width: the intent, then each glob on rows of its own. */
export function widenLines(widen: NonNullable<PendingApproval['widen']>, width: number): Line[] {
  const head = `[g] adds to ${visible(widen.intent_id)}'s owned_scope exactly:`;
  return [{ text: head, bold: true }, ...widen.globs.flatMap((g) => hardWrap(`  ${visible(g)}`, width).map((text) => ({ text, colour: 'cyan' })))];
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
      text: `${clock(d.decided_at)} ${d.decision}${d.scope === 'session' ? ' for the session' : ''} by ${d.decided_by}${d.via === 'terminal' ? ' (from a terminal)' : ''} after ${(d.wait_ms / 1000).toFixed(1)}s · ${a.tool_name} ${a.code}`,
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
  client,
}: {
  focused: boolean;
  armed: boolean;
  mode: ApprovalMode;
  reason: string;
  width: number;
  widen?: PendingApproval['widen'];
  client: ClientId | undefined;
}): string {
  if (!focused) return `keys go to ${paneLabel(client)} now · ${HOTKEY_LABEL} to answer here`;
  if (mode === 'reason') return `block reason: ${reason}▌   (⏎ block · Esc back)`;
  if (!armed) return 'keys work in a moment (a key typed before you saw this does nothing)';
  return width >= 96
    ? `[a] approve once  [s] approve for this session${widen ? `  [g] add ${widen.globs.join(', ')} to ${widen.intent_id}` : ''}  [b] block with a reason  [i] inspect  [?] keys`
    : `[a] once  [s] session${widen ? '  [g] add glob' : ''}  [b] block  [i] agent's text  [?] keys`;
}

/**
 * Whether the panel shows `g` for this request at this size: only a glob the
 * human can read in full may be added (the title, the why line and the keys
 * keep their rows). The keymap asks the same question before `g` acts.
 */
export function widenShown(a: PendingApproval, width: number, height: number): boolean {
  return a.widen !== undefined && a.widen.globs.length > 0 && widenLines(a.widen, width).length <= height - 4;
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
  client,
  armed = true,
  history = [],
  historyTop = 0,
  bodyTop = 0,
  inFleet = false,
  elsewhere,
}: ApprovalPromptProps) {
  if (!approval) {
    const lines = historyLines(history, width);
    const room = Math.max(1, height - 2);
    const top = Math.max(0, Math.min(historyTop, lines.length - room));
    return (
      <Box flexDirection="column" height={height}>
        <Text dimColor wrap="truncate">
          {elsewhere
            ? `Nothing pending for this agent; ${elsewhere}: w jumps there.`
            : 'No approvals pending. A hook that needs a human (a destructive command, a gate) shows up here.'}
        </Text>
        <Text bold wrap="truncate">
          {history.length ? `history: ${history.length} decided, newest first${lines.length > room ? ' (↑↓)' : ''}` : 'history: none decided yet'}
        </Text>
        <Lines lines={lines.slice(top, top + room)} />
      </Box>
    );
  }
  const left = Math.max(0, Math.ceil((approval.deadline_at - now) / 1000));
  const title = `APPROVAL NEEDED · ${visible(approval.tool_name)} · ${visible(approval.code)} · ${inFleet ? `agent ${visible(approval.agent_name)}${approval.agent ? ` (${agentLabel(approval)})` : ''}` : agentLabel(approval)} · ${left}s left${width >= 96 ? ' (then denied)' : ''}${queued > 1 ? ` · ${queued - 1} more queued` : ''}`;
  const widen = widenShown(approval, width, height) ? approval.widen : undefined;
  const keys = keysLine({ focused, armed, mode, reason, width, widen, client });
  // Fixed: the title, why in one line (two on a narrow pane at most), the glob `g` adds, the keys.
  // What the agent wants to do scrolls between them when the pane is short (a split panel),
  // so none of it is ever cut off silently.
  const why: Line[] =
    mode === 'inspect'
      ? []
      : wrapText(`why: ${approval.human}`, width)
          .slice(0, 2)
          .map((text) => ({ text, bold: true }));
  const footer: Line[] = widen ? widenLines(widen, width) : [];
  const body: Line[] = mode === 'inspect' ? inspectLines(approval, width) : inputLines(approval, width);
  const room = Math.max(1, height - 2 - why.length - footer.length);
  const fits = body.length <= room;
  const top = fits ? 0 : Math.max(0, Math.min(bodyTop, body.length - (room - 1)));
  const shown = fits ? body : body.slice(top, top + room - 1);
  const below = body.length - top - shown.length;
  return (
    <Box flexDirection="column" height={height}>
      <Text bold color="yellow" wrap="truncate">
        {title}
      </Text>
      <Lines lines={why} />
      <Lines lines={shown} />
      {fits ? null : <Text dimColor wrap="truncate">{`… ${top ? `${top} above, ` : ''}${below} more line${below === 1 ? '' : 's'} (↑↓)`}</Text>}
      <Box flexGrow={1} />
      <Lines lines={footer} />
      <Text bold inverse wrap="truncate">
        {keys}
      </Text>
    </Box>
  );
}
