// `roz agent ...`: the fleet's agents in worktrees of their own. Three groups
// of subcommands, registered in the order help lists them: making and reading
// an agent, starting and stopping it in the running supervisor, and ending it
// (remove, or take its work through the merge gate).
import type { Command } from 'commander';
import { CONTROL_EXITS, run } from './shared.js';

export function registerAgentCommands(program: Command): void {
  const agent = program.command('agent').description('agents in worktrees of their own, and the merge gate (docs/fleet.md)');
  registerAgentWork(agent);
  registerAgentRunControl(agent);
  registerAgentEndings(agent);
}

/** add, ls, diff: make an agent, list them, read its work. */
function registerAgentWork(agent: Command): void {
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
          const { agentAddCommand } = await import('../commands/agent.js');
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
        const { agentLsCommand } = await import('../commands/agent.js');
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
        const { agentDiffCommand } = await import('../commands/agent-diff.js');
        return agentDiffCommand(name, opts);
      }),
    );
}

/** start, stop: ask the running supervisor. */
function registerAgentRunControl(agent: Command): void {
  agent
    .command('start')
    .description("start a registered agent in the running roz run: a stopped agent resumes its last conversation (the client's --resume)")
    .argument('<name>')
    .addHelpText('after', CONTROL_EXITS)
    .action(
      run(async (name: string) => {
        const { agentStartCommand } = await import('../commands/queue.js');
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
        const { agentStopCommand } = await import('../commands/queue.js');
        return agentStopCommand(name, opts);
      }),
    );
}

/** rm, merge, push: the ways an agent's work leaves, each behind its check. */
function registerAgentEndings(agent: Command): void {
  agent
    .command('rm')
    .description("remove an agent's worktree and branch (only roz's own; unmerged or uncommitted work only with --discard)")
    .argument('<name>')
    .option('--discard', 'throw away its unmerged and uncommitted work')
    .action(
      run(async (name: string, opts: { discard?: boolean }) => {
        const { agentRmCommand } = await import('../commands/agent.js');
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
        const { agentMergeCommand } = await import('../commands/agent-merge.js');
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
        const { agentPushCommand } = await import('../commands/agent-merge.js');
        return agentPushCommand(name, opts);
      }),
    );
}
