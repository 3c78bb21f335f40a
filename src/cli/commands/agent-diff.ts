// `roz agent diff NAME [--stat] [--json]` (or `--all`): an agent's work
// against the commit its branch started from, read by roz's own hashing
// (store/agent-diff.ts), printed with every control character made visible.
import { describeWork, patchLines, type WorkDiff, type WorkOrError } from '../../core/fleet/work-diff.js';
import { agentWork } from '../../store/agent-diff.js';
import { listAgents } from '../../store/agent-worktrees.js';
import { FleetError } from '../../store/fleet-error.js';
import { ObjectError } from '../../store/git-objects.js';
import { c, cliContext, printJson } from '../context.js';

/** Every agent's work (or why it cannot be read), for `--all` and `roz agent ls`. */
export function everyAgentsWork(storeDir: string, cwd: string, patch: boolean): WorkOrError[] {
  const { repo, agents } = listAgents(storeDir, cwd);
  return agents
    .filter((l) => !l.agent.shared)
    .map((l) => {
      try {
        return agentWork(storeDir, repo, l, { patch });
      } catch (err) {
        if (err instanceof FleetError || err instanceof ObjectError) return { agent: l.agent.name, error: err.message };
        throw err;
      }
    });
}

export function printWork(d: WorkDiff, stat: boolean): void {
  const [first, ...rest] = describeWork(d);
  process.stdout.write(`${c.bold(first!)}\n${rest.join('\n')}\n`);
  if (stat || d.patch === null) return;
  const paint = { file: c.bold, hunk: c.cyan, add: c.green, del: c.red, context: (s: string) => s, meta: c.dim };
  if (d.patch !== '')
    process.stdout.write(
      `\n${patchLines(d.patch)
        .map((l) => paint[l.kind](l.text))
        .join('\n')}\n`,
    );
}

export function agentDiffCommand(name: string | undefined, opts: { stat?: boolean; json?: boolean; all?: boolean; branch?: boolean }): number {
  const ctx = cliContext();
  const storeDir = ctx.config.storage.path;
  try {
    if (opts.all && name) throw new FleetError('give an agent name or --all, not both', 2);
    if (opts.all) {
      const all = everyAgentsWork(storeDir, process.cwd(), !opts.stat);
      if (opts.json) printJson(all);
      else
        for (const w of all) {
          if ('error' in w) process.stderr.write(c.yellow(`${w.agent}: ${w.error}\n`));
          else printWork(w, opts.stat === true);
        }
      return all.some((w) => 'error' in w) ? 1 : 0;
    }
    if (!name) throw new FleetError('which agent? roz agent diff NAME (or --all)', 2);
    const { repo, agents } = listAgents(storeDir, process.cwd());
    const found = agents.find((a) => a.agent.name === name);
    if (!found) throw new FleetError(`no agent ${name} here (roz agent ls)`, 3);
    // Its worktree on another branch, say: the work tree is still what is shown, against the branch's commits.
    if (found.problem && found.head) process.stderr.write(c.yellow(`warning: ${name}: ${found.problem}\n`));
    const work = agentWork(storeDir, repo, found, { patch: !opts.stat, branchOnly: opts.branch === true });
    if (opts.json) printJson(work);
    else printWork(work, opts.stat === true);
    return 0;
  } catch (err) {
    if (err instanceof FleetError) {
      process.stderr.write(`roz: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof ObjectError) {
      process.stderr.write(`roz: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
