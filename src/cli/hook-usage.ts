// `roz hook`'s usage text, shared by the lean hook entry (which answers
// `roz hook --help` itself) and the CLI's help listing.
import { hookCliNames } from '../core/hook-input.js';

export const HOOK_EVENTS_HELP = `Events: ${Object.keys(hookCliNames).join(', ')}`;

export const HOOK_USAGE = `Usage: roz hook <event>

Run a Claude Code hook: the event's JSON on stdin, roz's verdict on stdout.
Claude Code runs these from the plugin's hooks.json; you rarely need to.

${HOOK_EVENTS_HELP}
`;
