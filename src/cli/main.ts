// The roz command line. Each command lives in commands/; program/*.ts registers
// each group's commands (their arguments, options and help); this file
// composes them and turns errors into exit codes.
import { Command, CommanderError } from 'commander';
import { UsageError } from './usage-error.js';
import { registerAgentCommands } from './program/agent.js';
import { registerGovernanceCommands } from './program/governance.js';
import { registerLaunchCommands } from './program/launch.js';
import { registerOtelCommands } from './program/otel.js';
import { registerHookCommand, registerMcpCommand } from './program/plugin.js';
import { registerQueueCommands } from './program/queue.js';
import { registerReviewCommands } from './program/review.js';
import { registerHousekeepingCommands, registerSessionCommands } from './program/sessions.js';
import { registerSettingsCommands } from './program/settings.js';
import { loadAllOnDemand } from '../core/on-demand.js';
import { rozVersion } from '../core/version.js';

/**
 * Commands whose code cannot reach an on-demand module, each with the module its action imports:
 * they load none up front (a roz command is a process of its own, and loading the shell parser,
 * yaml and zod it never uses was most of a `roz agent ls`). test/process/cli-on-demand.test.ts
 * follows each module's imports and fails when one reaches a caller of onDemand.
 */
export const LOADS_NOTHING: Readonly<Record<string, string>> = {
  queue: 'commands/queue',
  approve: 'commands/queue',
  block: 'commands/queue',
  'agent start': 'commands/queue',
  'agent stop': 'commands/queue',
  'agent add': 'commands/agent',
  'agent ls': 'commands/agent',
  'agent rm': 'commands/agent',
  'agent diff': 'commands/agent-diff',
  debug: 'commands/inspect',
  trace: 'commands/inspect',
  context: 'commands/inspect',
  sessions: 'commands/sessions',
  clean: 'commands/manage',
  config: 'commands/manage',
  decide: 'commands/decide',
  'otel flush': 'commands/otel',
};

/** The MCP server loads them itself, in the tool calls that read intents (it starts with every client session). */
const SELF_LOADING = 'mcp';

/** A command's name under roz: `decide`, `agent ls`. */
const commandPath = (program: Command, action: Command): string =>
  action.parent === program || !action.parent ? action.name() : `${action.parent.name()} ${action.name()}`;

export function buildProgram(): Command {
  const program = new Command('roz')
    .description('Keeps AI coding agents honest: a review gate and governance for Claude Code.')
    .version(rozVersion)
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions()
    .exitOverride()
    // Hooks load some modules only when a call needs them (core/on-demand.ts);
    // a command is one process that may need any of them, so it loads them all first,
    // except those that cannot reach one (LOADS_NOTHING) and the MCP server.
    .hook('preAction', (_program, action) => {
      const name = commandPath(program, action);
      return name === SELF_LOADING || name in LOADS_NOTHING ? undefined : loadAllOnDemand();
    });

  // One module per command group (program/*.ts); the order here is the order `roz --help` lists them.
  registerHookCommand(program);
  registerReviewCommands(program);
  registerSessionCommands(program);
  registerHousekeepingCommands(program);
  registerLaunchCommands(program);
  registerSettingsCommands(program);
  registerGovernanceCommands(program);
  registerOtelCommands(program);
  registerQueueCommands(program);
  registerAgentCommands(program);
  registerMcpCommand(program);
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
