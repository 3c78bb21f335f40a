// What only a launch needs to know of each client (core/clients.ts has what
// its hooks need, and every hook process loads that): the executables that
// start it, the version roz is tested with, and which of its hook events roz
// configures (with the `roz hook <name>` that judges each). Pure.
import { basename } from 'node:path';
import { clientById, CLIENT_IDS, type ClientDescriptor, type ClientId } from './clients.js';

export interface ClientCommands {
  /** Executable names (basename) that start it. */
  binaries: readonly string[];
  /** The npm package pinned in devDependencies, and its version (what roz is tested with). */
  pinned: { pkg: string; version: string };
  /** The client's hook event -> the `roz hook <name>` that judges it. */
  hooks: Readonly<Record<string, string>>;
  /**
   * How an agent's first prompt goes on its command line for an interactive session: this option and the
   * prompt; without it, the prompt is the last positional argument (after `--`).
   */
  interactivePrompt?: string;
}

export const CLIENT_COMMANDS: Readonly<Record<ClientId, ClientCommands>> = {
  claude: {
    binaries: ['claude', 'claude.exe'],
    pinned: { pkg: '@anthropic-ai/claude-code', version: '2.1.330' },
    // The plugin's hooks.json configures Claude Code (plugin/hooks): not from this table.
    hooks: {},
  },
  codex: {
    binaries: ['codex', 'codex.js'],
    pinned: { pkg: '@openai/codex', version: '0.169.0' },
    // Observed in `codex exec` (test/e2e/codex-hooks.e2e.test.ts); PermissionRequest is the client's own approval.
    hooks: {
      SessionStart: 'session-start',
      UserPromptSubmit: 'user-prompt',
      PreToolUse: 'pre-tool-use',
      PermissionRequest: 'permission-request',
      PostToolUse: 'post-tool-use',
      Stop: 'stop',
    },
  },
  gemini: {
    binaries: ['gemini', 'gemini.js'],
    pinned: { pkg: '@google/gemini-cli', version: '0.61.0' },
    // A positional prompt after `--` started Gemini's TUI with no prompt (observed: a session, no BeforeAgent).
    interactivePrompt: '--prompt-interactive',
    // Observed in `gemini -p` (test/e2e/gemini-hooks.e2e.test.ts): Gemini's names for the same moments.
    hooks: {
      SessionStart: 'session-start',
      BeforeAgent: 'user-prompt',
      BeforeTool: 'pre-tool-use',
      AfterTool: 'post-tool-use',
      AfterAgent: 'stop',
    },
  },
};

/**
 * The client's timeout (seconds) for a hook that may wait for a human under `roz run` (PreToolUse and the
 * client's own permission request): above the hook's own deadline (at most 590 s, cli/hook-entry.ts), so
 * roz answers first. A client whose hook times out runs the call (Codex and Gemini, observed): fail open.
 */
export const ASKING_HOOK_TIMEOUT_S = 600;

/**
 * An agent's first prompt on its client's command line: after the client's option for it, else as the last
 * positional argument after `positional` (`['--']` where an option taking several values could swallow it).
 */
export function firstPromptArgs(client: ClientId, prompt: string, positional: readonly string[] = []): string[] {
  const option = CLIENT_COMMANDS[client].interactivePrompt;
  return option ? [option, prompt] : [...positional, prompt];
}

/** The client a command starts (`codex`, `/path/to/codex.js`), or null for anything else. */
export function clientForCommand(command: string): ClientDescriptor | null {
  const b = basename(command);
  const id = CLIENT_IDS.find((c) => CLIENT_COMMANDS[c].binaries.includes(b));
  return id ? clientById(id) : null;
}
