// A verdict as each client reads it, and an `ask` nobody can answer, per
// client (core/clients.ts, learnt from the clients: docs/clients.md). The
// engine renders its own verdicts here, and the hook process renders the
// supervisor's answer (a human's allow or block) and its own fallback here
// too, so a Codex or Gemini agent under `roz run` reads the same shapes as
// under `roz exec`. Kept apart from output.ts, which is also built alone
// (plugin/dist/render.cjs) and knows no client.
import type { ClientDescriptor } from '../core/clients.js';
import type { HookEventName } from '../core/hook-input.js';
import type { Verdict } from '../core/verdict.js';
import { renderOutput } from './output.js';

/**
 * The client's reading of a verdict: Claude Code's shapes (renderOutput), but a
 * client that takes a refusal as a top-level `decision` (Gemini's BeforeTool,
 * observed) gets it that way, and one that reports `permissionDecision: "allow"`
 * as a failed hook (Codex, observed in its TUI: "unsupported permissionDecision:allow")
 * gets no decision for an allow: no decision lets the call run.
 */
export function renderForClient(event: HookEventName, verdict: Verdict, warnings: string[], client: ClientDescriptor): string {
  if (event === 'PreToolUse' && verdict.kind === 'allow' && !client.explicitAllow) return renderOutput(event, { kind: 'none' }, warnings);
  if (client.refusal !== 'decision' || event !== 'PreToolUse' || verdict.kind !== 'deny') return renderOutput(event, verdict, warnings);
  const reason = verdict.bare ? verdict.reason : `[${verdict.code}] ${verdict.reason}`;
  return `${JSON.stringify({ decision: 'deny', reason, ...(warnings.length ? { systemMessage: warnings.join('\n') } : {}) })}\n`;
}

/**
 * An `ask` nobody answers, for a client that does not obey `ask` (core/clients.ts
 * askWithoutHuman: Codex reports it as a failed hook and runs the call, in `exec`
 * and in its TUI alike): a `deny` with the reason the model reads. `why` says who
 * could not answer (no human under `codex exec`; a supervisor that did not answer).
 */
export function refuseUnanswered(verdict: Verdict, client: ClientDescriptor, why: string): Verdict {
  if (verdict.kind !== 'ask' || client.askWithoutHuman !== 'deny') return verdict;
  return {
    kind: 'deny',
    code: verdict.code,
    reason: `${verdict.reason} (roz would ask a human, but ${why}: refused)`,
    ...(verdict.human ? { human: verdict.human } : {}),
  };
}
