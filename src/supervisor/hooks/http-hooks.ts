// Hooks without a process: under `roz run` and `roz exec`, on clients that
// accept `onFailure` (2.1.295+), the per-run settings route every hook event
// to roz's own process (the supervisor, or `roz exec` itself:
// in-process-hooks.ts) with the client's `http` hook type instead of starting
// `roz hook ...` for each one. This file is the pure part: which clients, and
// the settings fragment (merged by run-settings.ts with the enforced sandbox).
//
// Failure semantics, per event:
//  - PreToolUse has `"onFailure": "block"`: a supervisor that is down, hung
//    past the timeout, or answers anything but 2xx blocks the tool call; it
//    never runs unjudged (governance fails closed).
//  - Every other event fails open like the review gate: the client records a
//    non-blocking error and goes on (a Stop that could never end would trap
//    the session with no supervisor left to release it).
// The token is the run's socket token, interpolated by the client from its
// own environment (ROZ_TOKEN, denied to sandboxed Bash by the enforced
// settings), so it is never written into the settings file.
import type { ClaudeSettings } from '../../core/enforce/settings.js';

/**
 * Events the client refuses as http hooks (2.1.330 throws for SessionStart
 * and Setup): they stay command hooks in the plugin copy roz launches.
 */
export const COMMAND_ONLY_EVENTS: ReadonlySet<string> = new Set(['SessionStart', 'Setup']);

export { HTTP_HOOKS_SINCE, parseClientVersion, supportsHttpHooks } from '../../core/launch-plan.js';

export interface HookEntry {
  matcher?: string;
  hooks: Array<{ type: string; timeout?: number; [k: string]: unknown }>;
}

export interface HttpHooksOptions {
  /** `http://127.0.0.1:PORT` of the supervisor's hook endpoint. */
  baseUrl: string;
  /** The plugin's hooks.json `hooks` object: same events, matchers and timeouts. */
  pluginHooks: Record<string, HookEntry[]>;
  /** Seconds the PreToolUse request may wait for a human (approval timeout + margin). */
  preToolUseTimeoutS: number;
  /** The variable that holds the bearer token in the client's environment. */
  tokenEnv?: string;
}

export function httpHooksFragment(opts: HttpHooksOptions): ClaudeSettings {
  const tokenEnv = opts.tokenEnv ?? 'ROZ_TOKEN';
  const hooks: Record<string, unknown[]> = {};
  for (const [event, entries] of Object.entries(opts.pluginHooks)) {
    if (COMMAND_ONLY_EVENTS.has(event)) continue;
    hooks[event] = entries.map((entry) => ({
      ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}),
      hooks: [
        {
          type: 'http',
          url: `${opts.baseUrl}/hook/${event}`,
          headers: { Authorization: `Bearer \${${tokenEnv}}` },
          allowedEnvVars: [tokenEnv],
          // A PermissionRequest waits for the human like a PreToolUse ask, but fails open: no decision keeps the client's dialog.
          timeout: event === 'PreToolUse' || event === 'PermissionRequest' ? opts.preToolUseTimeoutS : (entry.hooks[0]?.timeout ?? 30),
          ...(event === 'PreToolUse' ? { onFailure: 'block' } : {}),
        },
      ],
    }));
  }
  // With the sandbox on, the client sends http hooks through the sandbox's
  // network proxy, which asks the human about a host it does not know (seen on
  // 2.1.330: "Network request outside of sandbox, Host: 127.0.0.1"), and a hook
  // waiting on that question times out. Exactly the supervisor's host:port is
  // allowed; sandboxed Bash reaching it still lacks the token (ROZ_TOKEN is
  // denied to it).
  const { host } = new URL(opts.baseUrl);
  return { hooks, sandbox: { network: { allowedDomains: [host] } } };
}
