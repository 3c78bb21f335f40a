// Reading a session's record (debug, trace, context), listing sessions, and
// the store's housekeeping over them (clean, stats).
import type { Command } from 'commander';
import { UsageError } from '../usage-error.js';
import { LAST, run, type SessionOpts } from './shared.js';

export function registerSessionCommands(program: Command): void {
  program
    .command('debug')
    .description('show everything roz knows about a session')
    .argument('[session]', 'session id (default $CLAUDE_CODE_SESSION_ID)')
    .option(...LAST)
    .option('--json', 'print the raw state document')
    .action(
      run(async (sid: string | undefined, opts: SessionOpts & { json?: boolean }) => {
        const { debugCommand } = await import('../commands/inspect.js');
        return debugCommand(sid, opts);
      }),
    );

  program
    .command('trace')
    .description("show a session's trace of hook events and roz decisions")
    .argument('[session]', 'session id (default $CLAUDE_CODE_SESSION_ID)')
    .option('-v, --verbose', 'include payloads')
    .option('-f, --follow', 'keep printing new events until interrupted')
    .option(...LAST)
    .option('--json', 'print JSON (an array, or one object per line with --follow)')
    .action(
      run(async (sid: string | undefined, opts: SessionOpts & { verbose?: boolean; follow?: boolean; json?: boolean }) => {
        const { traceCommand } = await import('../commands/inspect.js');
        return traceCommand(sid, opts);
      }),
    );

  program
    .command('context')
    .description("show a session's user prompts and review history (what the reviewer checks against)")
    .argument('[session]', 'session id (default $CLAUDE_CODE_SESSION_ID)')
    .option(...LAST)
    .option('--json', 'print JSON')
    .action(
      run(async (sid: string | undefined, opts: SessionOpts & { json?: boolean }) => {
        const { contextCommand } = await import('../commands/inspect.js');
        return contextCommand(sid, opts);
      }),
    );

  program
    .command('sessions')
    .description('list recent sessions: id, project, start, review state, denials, enforcement mode')
    .option('--limit <n>', 'how many, newest first', '20')
    .option('--all', 'every session')
    .option('--json', 'print JSON')
    .action(
      run(async (opts: { limit?: string; all?: boolean; json?: boolean }) => {
        const { sessionsCommand } = await import('../commands/sessions.js');
        return sessionsCommand(opts);
      }),
    );
}

export function registerHousekeepingCommands(program: Command): void {
  program
    .command('clean')
    .description('remove old sessions (never one with a pending review)')
    .option('--before <age>', 'remove sessions idle longer than this (e.g. 30d, 12h); default: cleanup.retention_days')
    .option('--all', 'remove every session without a pending review')
    .option('--dry-run', 'only say what would be removed')
    .action(
      run(async (opts: { before?: string; all?: boolean; dryRun?: boolean }) => {
        const { cleanCommand } = await import('../commands/manage.js');
        return cleanCommand(opts);
      }),
    );

  program
    .command('stats')
    .description('compare block templates: blocks, reviews spawned, decisions, breaker trips')
    .argument('[session]', 'with --tui: the session to show (default $CLAUDE_CODE_SESSION_ID)')
    .option('--days <n>', 'look back this many days', '30')
    .option('--json', 'print JSON')
    .option('--tui', "open one session's stats view in the terminal UI")
    .option(...LAST)
    .action(
      run(async (session: string | undefined, opts: SessionOpts & { days?: string; json?: boolean; tui?: boolean }) => {
        if (!opts.tui) {
          if (session !== undefined || opts.last)
            throw new UsageError(`a session (${session ?? '--last'}) is only for --tui: plain roz stats covers every session`);
          const { statsCommand } = await import('../commands/manage.js');
          return statsCommand(opts);
        }
        const [{ statsTuiCommand }, { resolveSession }] = await Promise.all([import('../commands/run.js'), import('../context.js')]);
        return statsTuiCommand(resolveSession(session, opts));
      }),
    );
}
