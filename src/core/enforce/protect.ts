// What the agent's tools may never touch, whatever the mode: a Bash call that
// asks to leave the sandbox, and file-tool writes into the client's settings
// (.claude/), roz's store, code cache, config, .orchestration/ and the run's
// settings file (the store itself: STORE_PROTECTED in review/policy.ts and
// engine/store-guard.ts). The sandbox covers Bash writes in enforced mode; the file
// tools are not sandboxed, so this policy is their wall (with the deny rules
// of the settings file). Pure: the engine resolves the paths.
import type { HookInput } from '../hook-input.js';
import { result, type PolicyResult } from '../verdict.js';

export type ProtectedArea = 'plugin' | 'code-cache' | 'config' | 'orchestration' | 'settings-file' | 'claude-settings' | 'client-config' | 'git' | 'outside';

/** A write the engine found inside a protected area: the path as given and where it really lands. */
export interface ProtectedHit {
  area: ProtectedArea;
  given: string;
  real: string;
  /** Said when the hook is the only wall (no roz exec/run settings behind it). */
  advisory?: boolean;
}

const WHAT: Record<ProtectedArea, string> = {
  plugin: "roz's plugin (the code every hook runs)",
  'code-cache': "roz's code cache (code every hook runs)",
  config: "roz's configuration",
  orchestration: '.orchestration/ (intents, the trace ledger and lessons: the human and roz maintain them)',
  'settings-file': 'the settings file this run was launched with',
  'claude-settings': "Claude Code's own settings (.claude/), which decide what runs and how it is confined",
  'client-config': "another coding client's project config (.codex/, .gemini/), which decides which hooks run and how it is confined",
  git: "a repository's .git/ (git runs the programs its config, hooks and attributes name; only git itself writes there: use git commands in Bash)",
  outside:
    'no folder the file tools may write: they write where sandboxed Bash may, the project and $TMPDIR (the human can add folders with `write_paths` under [enforce] in their own roz config)',
};

export function protectOnPreToolUse(input: HookInput<'PreToolUse'>, hit: () => ProtectedHit | null): PolicyResult {
  if (input.tool_name === 'Bash' && input.tool_input.dangerouslyDisableSandbox === true) {
    return result(
      {
        kind: 'deny',
        code: 'SANDBOX_BYPASS',
        reason:
          'roz: Bash with dangerouslyDisableSandbox is refused: commands run inside the sandbox roz configured. ' +
          'Run the command again without that flag; if it cannot work sandboxed, say so and ask the human to run it.',
      },
      [{ type: 'SandboxBypassDenied' }],
    );
  }
  const h = hit();
  if (!h) return result();
  const via = h.real === h.given ? '' : ` (it resolves to ${h.real})`;
  return result(
    {
      kind: 'deny',
      code: 'PROTECTED_PATH',
      reason:
        `roz: ${input.tool_name} would write ${h.given}${via}, ${h.area === 'outside' ? 'in' : 'inside'} ${WHAT[h.area]}. That is not the agent's to change; leave it alone and carry on with the task (ask the human if it must change).` +
        (h.advisory ? ' (roz is advisory here: without roz exec/run this hook is the only check on that write.)' : ''),
    },
    [{ type: 'ProtectedPathDenied', area: h.area, path: h.real }],
  );
}
