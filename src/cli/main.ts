// The roz command line. Each command lives in commands/; this file only wires
// arguments to them and turns errors into exit codes.
import { Command, CommanderError } from 'commander';
import { decideCommand } from './commands/decide.js';
import { contextCommand, debugCommand, traceCommand } from './commands/inspect.js';
import { cleanCommand, configCommand, statsCommand } from './commands/manage.js';
import { resolveSession, UsageError } from './context.js';
import { HOOK_EVENTS_HELP } from './hook-usage.js';
import { intentCommand, type IntentOptions } from './commands/intent.js';
import { blameCommand } from './commands/blame.js';
import { sessionsCommand } from './commands/sessions.js';
import { loadAllOnDemand } from '../core/on-demand.js';
import { rozVersion } from '../core/version.js';

type Action = (...args: never[]) => number | Promise<number>;
/** Every command that takes a session also takes --last. */
const LAST = ['--last', 'the most recently active session (see roz sessions)'] as const;
type SessionOpts = { last?: boolean };
const run =
  (fn: Action) =>
  async (...args: unknown[]) => {
    process.exitCode = await (fn as (...a: unknown[]) => number | Promise<number>)(...args);
  };

export function buildProgram(): Command {
  const program = new Command('roz')
    .description('Keeps AI coding agents honest: a review gate and governance for Claude Code.')
    .version(rozVersion)
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions()
    .exitOverride()
    // Hooks load some modules only when a call needs them (core/on-demand.ts);
    // a command is one process that may need any of them, so it loads them all first.
    .hook('preAction', () => loadAllOnDemand());

  program
    .command('hook <event>')
    .description('run a Claude Code hook: JSON event on stdin, verdict on stdout (used by the plugin)')
    .addHelpText('after', `\n${HOOK_EVENTS_HELP}`);

  program
    .command('decide')
    .description(
      "the reviewer's decision: recorded by roz's hook when the roz:roz reviewer runs this as a Bash command of its own; the command reports what was recorded",
    )
    .argument('[args...]', '[SESSION] COMPLETE|ISSUES "summary"')
    .option('-m, --message <text>', 'what the agent must fix (required for ISSUES)')
    .option('--opinions <list>', 'second opinions obtained, e.g. codex,gemini,claude')
    .option('--no-opinion <why>', 'why no second opinion could be had')
    .addHelpText(
      'after',
      '\nSESSION defaults to $CLAUDE_CODE_SESSION_ID. Running it anywhere else (a terminal, a script, chained to\nanother command) records nothing.\nExit codes: 0 recorded, 2 bad arguments, 3 unknown session, 4 nothing recorded.',
    )
    .action(
      run((args: string[], opts: { message?: string; opinions?: string; opinion?: string | boolean }) =>
        decideCommand(args, { ...opts, ...(typeof opts.opinion === 'string' ? { noOpinion: opts.opinion } : {}) }),
      ),
    );

  program
    .command('debug')
    .description('show everything roz knows about a session')
    .argument('[session]', 'session id (default $CLAUDE_CODE_SESSION_ID)')
    .option(...LAST)
    .option('--json', 'print the raw state document')
    .action(run((sid: string | undefined, opts: SessionOpts & { json?: boolean }) => debugCommand(sid, opts)));

  program
    .command('trace')
    .description("show a session's trace of hook events and roz decisions")
    .argument('[session]', 'session id (default $CLAUDE_CODE_SESSION_ID)')
    .option('-v, --verbose', 'include payloads')
    .option('-f, --follow', 'keep printing new events until interrupted')
    .option(...LAST)
    .option('--json', 'print JSON (an array, or one object per line with --follow)')
    .action(run((sid: string | undefined, opts: SessionOpts & { verbose?: boolean; follow?: boolean; json?: boolean }) => traceCommand(sid, opts)));

  program
    .command('context')
    .description("show a session's user prompts and review history (what the reviewer checks against)")
    .argument('[session]', 'session id (default $CLAUDE_CODE_SESSION_ID)')
    .option(...LAST)
    .option('--json', 'print JSON')
    .action(run((sid: string | undefined, opts: SessionOpts & { json?: boolean }) => contextCommand(sid, opts)));

  program
    .command('sessions')
    .description('list recent sessions: id, project, start, review state, denials, enforcement mode')
    .option('--limit <n>', 'how many, newest first', '20')
    .option('--all', 'every session')
    .option('--json', 'print JSON')
    .action(run((opts: { limit?: string; all?: boolean; json?: boolean }) => sessionsCommand(opts)));

  program
    .command('clean')
    .description('remove old sessions (never one with a pending review)')
    .option('--before <age>', 'remove sessions idle longer than this (e.g. 30d, 12h); default: cleanup.retention_days')
    .option('--all', 'remove every session without a pending review')
    .option('--dry-run', 'only say what would be removed')
    .action(run((opts: { before?: string; all?: boolean; dryRun?: boolean }) => cleanCommand(opts)));

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
          return statsCommand(opts);
        }
        const { statsTuiCommand } = await import('./commands/run.js');
        return statsTuiCommand(resolveSession(session, opts));
      }),
    );

  program
    .command('run')
    .description('run Claude Code under the roz supervisor: live trace, status line and human approvals')
    .argument('[command...]', 'the agent command line (default: claude)')
    .option('--approval-timeout <seconds>', 'how long a human gate waits before it denies (default 120, at most 580)')
    .option('--plugin-dir <dir>', "load roz's plugin from here (default: this roz's plugin)")
    .option('--no-stats', 'do not show the stats view when the agent exits')
    .passThroughOptions()
    .allowUnknownOption()
    .addHelpText('after', "\nExample: roz run -- claude --model opus\nIn the session, Ctrl-] switches between Claude and roz's views (see docs/supervisor.md).")
    .action(
      run(async (command: string[], opts: { approvalTimeout?: string; pluginDir?: string; stats?: boolean }) => {
        const { runCommand } = await import('./commands/run.js');
        return runCommand(command, opts);
      }),
    );

  program
    .command('attach')
    .description("this window becomes the screen of the supervisor running this project's agents in the background (D in roz's views detaches)")
    .option('--no-stats', 'do not show the stats view when the run ends')
    .addHelpText(
      'after',
      "\nExit codes: 0 detached (the agents keep running) or the run ended with main at 0, main's code otherwise,\n3 no roz supervisor runs for this project, 5 the supervisor refused (advisory: it is driven only from its own window), 1 the supervisor died.",
    )
    .action(
      run(async (opts: { stats?: boolean }) => {
        const { attachCommand } = await import('./commands/attach.js');
        return attachCommand(opts);
      }),
    );

  // The background supervisor of `roz run` (supervisor/host/background.ts): started by roz itself, its launch on stdin.
  program.command('__supervise', { hidden: true }).action(
    run(async () => {
      const { superviseFromStdin } = await import('../supervisor/host/background.js');
      const code = await superviseFromStdin();
      // Nothing may keep it alive once its agents are gone (a timer, a watcher).
      process.exit(code);
    }),
  );

  program
    .command('exec')
    .description("run Claude Code with roz's enforcement (sandboxed Bash, protected files) and no TUI: for claude -p and CI")
    .argument('[command...]', 'the agent command line (default: claude)')
    .option('--plugin-dir <dir>', "load roz's plugin from here (default: this roz's plugin)")
    .option('--require-review', 'when claude exits 0, exit non-zero unless the review was approved (or none was asked for)')
    .passThroughOptions()
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nExample: roz exec --require-review -- claude -p "#roz fix the tests"\nThe exit code is claude\'s. With --require-review and claude exiting 0: 0 approved or no review asked for,\n5 the reviewer\'s ISSUES left open, 6 ended unreviewed, 7 the circuit breaker let it stop unreviewed.\nSettings: see `roz settings` and docs/security.md.',
    )
    .action(
      run(async (command: string[], opts: { pluginDir?: string; requireReview?: boolean }) => {
        const { execCommand } = await import('./commands/exec.js');
        return execCommand(command, opts);
      }),
    );

  program
    .command('settings')
    .description('print the Claude Code settings roz enforces (sandbox, deny rules), for claude --settings or managed settings')
    .option('--managed', "for an organisation's managed-settings.json (every project)")
    .option('--json', 'print compact JSON only')
    .action(
      run(async (opts: { managed?: boolean; json?: boolean }) => {
        const { settingsCommand } = await import('./commands/settings.js');
        return settingsCommand(opts);
      }),
    );

  program
    .command('config')
    .description('show the effective configuration and where each value came from')
    .option('--json', 'print JSON')
    .action(run((opts: { json?: boolean }) => configCommand(opts)));

  program
    .command('intent')
    .description('intent governance: list, show or select the intents in .orchestration/active_intents.yaml, or their status')
    .argument('<action>', 'list | show ID | select ID | status')
    .argument('[id]', 'intent id (for show and select)')
    .option('--project <dir>', 'the governed project (default: $CLAUDE_PROJECT_DIR or the current directory)')
    .option('--session <id>', 'the session to bind a selection to, or to show the status of (default: $CLAUDE_CODE_SESSION_ID)')
    .option(...LAST)
    .option('--json', 'print JSON')
    .action(run((action: string, id: string | undefined, opts: IntentOptions) => intentCommand(action, id, opts)));

  program
    .command('blame')
    .description('which intent, session and model last wrote these lines, and whether they still match their hash')
    .argument('<target>', 'FILE or FILE:LINE')
    .option('--project <dir>', 'the governed project (default: the current directory)')
    .option('--json', 'print JSON')
    .action(run((target: string, opts: IntentOptions) => blameCommand(target, opts)));

  program
    .command('otel')
    .description('OpenTelemetry export (docs/telemetry.md)')
    .command('flush')
    .description('send the telemetry spool to the OTLP collector now')
    .option('--quiet', 'print nothing on success')
    .option('--json', 'print what was sent as JSON')
    .option('--timeout <seconds>', 'give up on the collector after this long (default: OTEL_EXPORTER_OTLP_TIMEOUT, else 10 s)')
    .action(
      run(async (opts: { quiet?: boolean; json?: boolean; timeout?: string }) => {
        const { otelFlushCommand } = await import('./commands/otel.js');
        return otelFlushCommand(opts);
      }),
    );

  const CONTROL_EXITS =
    '\nExit codes: 0 done, 3 no roz supervisor runs for this project, 4 no such request waiting (or already answered),\n5 refused by the supervisor (its agents are not OS-confined: answer in its TUI), 1 other errors.';
  program
    .command('queue')
    .description("the requests waiting for you across this project's agents (from the running supervisor), oldest first")
    .option('--json', 'print JSON: an array of {id, agent, tool, summary, since}')
    .addHelpText('after', CONTROL_EXITS)
    .action(
      run(async (opts: { json?: boolean }) => {
        const { queueCommand } = await import('./commands/queue.js');
        return queueCommand(opts);
      }),
    );
  program
    .command('approve')
    .description('approve one waiting request (roz queue lists them), as if pressed `a` in the TUI')
    .argument('<id>', 'the request id')
    .addHelpText('after', CONTROL_EXITS)
    .action(
      run(async (id: string) => {
        const { approveCommand } = await import('./commands/queue.js');
        return approveCommand(id);
      }),
    );
  program
    .command('block')
    .description('refuse one waiting request; the agent reads the reason')
    .argument('<id>', 'the request id')
    .argument('[reason...]', 'why (the agent reads it)')
    .addHelpText('after', CONTROL_EXITS)
    .action(
      run(async (id: string, reason: string[]) => {
        const { blockCommand } = await import('./commands/queue.js');
        return blockCommand(id, reason);
      }),
    );

  const agent = program.command('agent').description('agents in worktrees of their own, and the merge gate (docs/fleet.md)');
  agent
    .command('add')
    .description('a new agent: its own worktree on a new branch roz/NAME (from the current branch, or --from REF)')
    .argument('<name>', 'the agent name (a-z 0-9 . _ -)')
    .argument('[claude-args...]', 'after --: arguments for its claude')
    .option('--from <ref>', 'start from this branch (merged back into it) or commit')
    .option('--no-worktree', 'no worktree: share the current directory (writes can collide)')
    .option('--prompt <text>', 'its first prompt')
    .option('--no-start', 'only make it: do not ask a running supervisor to start it')
    .option('--json', 'print what was made as JSON: {kind: added, name, worktree, branch, base, ...} or {kind: refused, reason}')
    .option('--agent <client>', 'the coding client it runs: claude (default), codex, gemini (kept in the registry)')
    .action(
      run(
        async (
          name: string,
          claudeArgs: string[],
          opts: { from?: string; worktree?: boolean; prompt?: string; start?: boolean; json?: boolean; agent?: string },
        ) => {
          const { agentAddCommand } = await import('./commands/agent.js');
          return agentAddCommand(name, claudeArgs, opts);
        },
      ),
    );
  agent
    .command('ls')
    .description('the agents roz created here: name, branch, worktree, state, review, enforcement')
    .option('--json', 'print JSON')
    .action(
      run(async (opts: { json?: boolean }) => {
        const { agentLsCommand } = await import('./commands/agent.js');
        return agentLsCommand(opts);
      }),
    );
  agent
    .command('diff')
    .description("an agent's work against the commit it started from: its commits, uncommitted and untracked files (read by roz's own hashing)")
    .argument('[name]')
    .option('--stat', 'only the commits and the changed files with their +/- line counts')
    .option('--json', 'print JSON: {agent, branch, base_commit, head, added, removed, files, ahead, behind, commits, changed, patch}')
    .option('--all', 'every agent with a worktree of its own')
    .option('--branch', 'only what its branch holds (its commits, not uncommitted or untracked files): what a merge or push takes')
    .addHelpText('after', '\nExit codes: 0 shown, 3 no such agent, 2 an agent without a branch of its own (or bad usage), 1 other errors (a forged object).')
    .action(
      run(async (name: string | undefined, opts: { stat?: boolean; json?: boolean; all?: boolean; branch?: boolean }) => {
        const { agentDiffCommand } = await import('./commands/agent-diff.js');
        return agentDiffCommand(name, opts);
      }),
    );
  agent
    .command('start')
    .description("start a registered agent in the running roz run: a stopped agent resumes its last conversation (the client's --resume)")
    .argument('<name>')
    .addHelpText('after', CONTROL_EXITS)
    .action(
      run(async (name: string) => {
        const { agentStartCommand } = await import('./commands/queue.js');
        return agentStartCommand(name);
      }),
    );
  agent
    .command('stop')
    .description('stop an agent of the running supervisor, or --all (every agent and the supervisor)')
    .argument('[name]')
    .option('--all', 'every agent, and the supervisor')
    .addHelpText('after', CONTROL_EXITS)
    .action(
      run(async (name: string | undefined, opts: { all?: boolean }) => {
        const { agentStopCommand } = await import('./commands/queue.js');
        return agentStopCommand(name, opts);
      }),
    );
  agent
    .command('rm')
    .description("remove an agent's worktree and branch (only roz's own; unmerged or uncommitted work only with --discard)")
    .argument('<name>')
    .option('--discard', 'throw away its unmerged and uncommitted work')
    .action(
      run(async (name: string, opts: { discard?: boolean }) => {
        const { agentRmCommand } = await import('./commands/agent.js');
        return agentRmCommand(name, opts);
      }),
    );
  agent
    .command('merge')
    .description("merge the agent's branch into the branch it started from, only when its latest review approved exactly the branch's tree")
    .argument('<name>')
    .option('--json', 'print the result as JSON: {kind: merged|nothing|refused|conflict|dirty-base|no-agent|failed, ...}')
    .option('--human', "review it yourself instead of the reviewer: its branch's diff is shown, you type its name to approve that tree (a terminal only)")
    .addHelpText(
      'after',
      '\nExit codes: 0 merged (or nothing to merge), 5 refused (never reviewed, ISSUES open, changed since the approval),\n6 conflict (nothing moved), 4 the base checkout has uncommitted changes, 3 no such agent, 1 other errors.',
    )
    .action(
      run(async (name: string, opts: { json?: boolean; human?: boolean }) => {
        const { agentMergeCommand } = await import('./commands/agent.js');
        return agentMergeCommand(name, opts);
      }),
    );

  agent
    .command('push')
    .description("push the agent's branch roz/NAME to a remote (and open a pull request with gh), only when its approved tree is exactly the branch's")
    .argument('<name>')
    .option('--pr', 'open a pull request with gh (GitHub CLI) after the push')
    .option('--remote <name>', 'the remote to push to', 'origin')
    .option('--repo <owner/repo>', "the GitHub repository for --pr, when the remote's URL does not name one")
    .option('--json', 'print the result as JSON: {kind: pushed|refused|no-agent|failed, ...}')
    .addHelpText(
      'after',
      '\nExit codes: 0 pushed, 5 refused (never reviewed or approved, ISSUES open, changed since the approval,\nroz files on the branch), 3 no such agent, 2 bad usage (no such remote, no branch of its own), 1 other errors (the push\nfailed; pushed but gh could not open the pull request).',
    )
    .action(
      run(async (name: string, opts: { pr?: boolean; remote?: string; repo?: string; json?: boolean }) => {
        const { agentPushCommand } = await import('./commands/agent.js');
        return agentPushCommand(name, opts);
      }),
    );

  program
    .command('mcp')
    .description('serve the select_active_intent MCP tool over stdio (started by Claude Code from the plugin)')
    .action(async () => {
      const { startMcpServer } = await import('../mcp/server.js');
      await startMcpServer();
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  // `roz trace ... | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const program = buildProgram();
  // Bare `roz` asks for help: stdout and exit 0 (commander would treat it as misuse).
  if (argv.length <= 2) {
    program.outputHelp();
    return;
  }
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are not errors; commander already printed them.
      process.exitCode = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? 0 : 2;
      return;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`roz: ${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`roz: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}

await main(process.argv);
