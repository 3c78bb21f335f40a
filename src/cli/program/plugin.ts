// The commands the plugin starts, not a person: the hook process and the MCP
// server. `hook` has no action here: plugin/bin/roz runs hooks without loading
// the CLI (src/cli/hook-entry.ts); it is registered for its help text.
import type { Command } from 'commander';
import { HOOK_EVENTS_HELP } from '../hook-usage.js';

export function registerHookCommand(program: Command): void {
  program
    .command('hook <event>')
    .description('run a Claude Code hook: JSON event on stdin, verdict on stdout (used by the plugin)')
    .addHelpText('after', `\n${HOOK_EVENTS_HELP}`);
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve the select_active_intent MCP tool over stdio (started by Claude Code from the plugin)')
    .action(async () => {
      const { startMcpServer } = await import('../../mcp/server.js');
      await startMcpServer();
    });
}
