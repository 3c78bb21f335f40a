// The destructive-command guard as one pure policy: in every project, governed
// or not, a Bash command on the destructive list goes to a human (`ask`), is
// refused (`deny`), or passes (`off`), as [guard] destructive says.
import type { HookInput } from './hook-input.js';
import { destructiveLine } from './human-reason.js';
import { result, type PolicyResult } from './verdict.js';

export type GuardMode = 'ask' | 'deny' | 'off';

export interface DestructiveFindings {
  destructive: boolean;
  findings: ReadonlyArray<{ rule: string; command: string; why: string }>;
}

/** Said in every ask: who can answer, and what happens when nobody can. */
export const NOBODY_ANSWERS = 'If nobody can answer (claude -p, CI), the client turns this ask into a denial: then find another way or leave it to the human.';

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The verdict for a command already classified; `what` names the call in the reason. */
export function guardVerdict(d: DestructiveFindings, what: string, mode: GuardMode): PolicyResult {
  if (!d.destructive || mode === 'off') return result();
  const f = d.findings[0]!;
  const why = `${what} is destructive (${f.why}: \`${clip(f.command, 120)}\`)`;
  const instead = 'Find a non-destructive way (move to a backup instead of deleting, a new commit instead of a force push) or ask the human to run it.';
  const human = destructiveLine(f);
  const notes = [{ type: mode === 'ask' ? 'DestructiveAsked' : 'DestructiveDenied', rules: d.findings.map((x) => x.rule) }];
  if (mode === 'deny') {
    return result(
      {
        kind: 'deny',
        code: 'DESTRUCTIVE_BLOCKED',
        reason: `roz: ${why}, and this project refuses destructive commands ([guard] destructive = "deny"). ${instead}`,
        human,
      },
      notes,
    );
  }
  return result(
    { kind: 'ask', code: 'DESTRUCTIVE_BLOCKED', reason: `roz: ${why}, so a human must approve it. ${NOBODY_ANSWERS} If it is refused: ${instead}`, human },
    notes,
  );
}

/** The guard on its own, for a project without intent governance. */
export function guardPreToolUse(input: HookInput<'PreToolUse'>, classify: (command: string) => DestructiveFindings, mode: GuardMode): PolicyResult {
  if (mode === 'off' || input.tool_name !== 'Bash' || typeof input.tool_input.command !== 'string') return result();
  const command = input.tool_input.command;
  return guardVerdict(classify(command), `\`${clip(command, 200)}\``, mode);
}
