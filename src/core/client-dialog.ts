// The client's own permission dialog (its PermissionRequest hook) as a request
// in roz's one queue. The hook's verdict is an `ask` that only a human turns
// into a decision: answered from roz (panel, `roz approve`/`roz block`), it
// becomes the hook's decision; answered in the agent's pane, or never, the hook
// returns no decision and the client's dialog stays where it is.
import type { Verdict } from './verdict.js';

/** What the client asks, in the human's words: `Write hello.txt`, `Bash: rm -rf build`. */
function oneLineSummary(toolName: string, toolInput: Record<string, unknown>): string {
  const str = (k: string): string => (typeof toolInput[k] === 'string' ? (toolInput[k] as string) : '');
  const what = str('command') || str('file_path') || str('notebook_path') || str('url') || str('pattern') || str('description');
  return what ? `${toolName} ${what.replace(/\s+/g, ' ').trim()}` : toolName;
}

export function clientDialogQuestion(toolName: string, toolInput: Record<string, unknown>): string {
  return `the client asks: ${oneLineSummary(toolName, toolInput)}`;
}

export function clientDialogVerdict(toolName: string, toolInput: Record<string, unknown>): Verdict {
  const human = clientDialogQuestion(toolName, toolInput);
  return { kind: 'ask', code: 'CLIENT_DIALOG', reason: `${human} (its own permission dialog is open in the agent's pane)`, human };
}

/**
 * Events after a PermissionRequest that mean its dialog was answered in the pane
 * (or dismissed): a tool ran or was refused, the turn ended, the client waits idle.
 * A `permission_prompt` Notification comes while the dialog is still open: not one of these.
 */
export function answersClientDialog(event: string, input: Record<string, unknown>): boolean {
  if (event === 'PreToolUse' || event === 'PostToolUse' || event === 'PostToolUseFailure' || event === 'Stop') return true;
  return event === 'Notification' && input.notification_type === 'idle_prompt';
}
