// The one place a verdict becomes what the client reads on stdout (shapes
// observed on the real client; see shared/reference). Every path renders here:
// the engine, the hook process (its own timeouts and refusals), the supervisor
// relay (a human's answer is a verdict too) and the launcher when the hook
// bundle cannot run (plugin/dist/render.cjs, built from this file alone).
import type { HookEventName } from '../core/hook-input.js';
import type { Verdict } from '../core/verdict.js';

export function renderOutput(event: HookEventName, verdict: Verdict, warnings: string[]): string {
  const out: Record<string, unknown> = {};
  switch (verdict.kind) {
    case 'allow':
    case 'ask':
    case 'deny':
      if (event === 'PermissionRequest' && verdict.kind !== 'ask') {
        // Only a human's answer from roz reaches here as allow/deny; an `ask` (nobody answered) is no
        // decision at all, so the client's own dialog stays open.
        out.hookSpecificOutput = {
          hookEventName: 'PermissionRequest',
          decision: verdict.kind === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: verdict.reason },
        };
      }
      if (event === 'PreToolUse') {
        out.hookSpecificOutput = {
          hookEventName: 'PreToolUse',
          permissionDecision: verdict.kind,
          ...(verdict.kind === 'allow'
            ? verdict.reason
              ? { permissionDecisionReason: verdict.reason }
              : {}
            : verdict.kind === 'deny' && verdict.bare
              ? { permissionDecisionReason: verdict.reason }
              : // The code leads, so the agent (and a person reading the
                // transcript) can tell a scope violation from a stale file at a glance.
                { permissionDecisionReason: `[${verdict.code}] ${verdict.reason}` }),
        };
      }
      break;
    case 'block':
      if (event === 'Stop' || event === 'SubagentStop') {
        out.decision = 'block';
        out.reason = verdict.reason;
      }
      break;
    case 'context':
      if (event === 'SessionStart' || event === 'UserPromptSubmit' || event === 'PostToolUse' || event === 'PostToolUseFailure') {
        out.hookSpecificOutput = { hookEventName: event, additionalContext: verdict.text };
      }
      break;
    case 'none':
      break;
  }
  if (warnings.length > 0) out.systemMessage = warnings.join('\n');
  return Object.keys(out).length === 0 ? '' : `${JSON.stringify(out)}\n`;
}
