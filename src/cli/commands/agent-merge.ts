// `roz agent merge|push`: the ways an agent's work leaves its branch, each behind the merge
// gate (docs/fleet.md): the gate's value (engine/fleet) printed, or as JSON, and its exit code.
// Apart from add/ls/rm (commands/agent.ts): the gate reads ledgers, which needs roz's on-demand
// trace schema loaded first (cli/main.ts).
import { userInfo } from 'node:os';
import { createInterface } from 'node:readline';
import { describeMerge, describePush, MERGE_REFUSED, mergeExitCode, type MergeResult, pushExitCode } from '../../core/fleet/merge-result.js';
import { type GateContext, mergeAgent } from '../../engine/fleet/agent-merge.js';
import { pushAgent } from '../../engine/fleet/agent-push.js';
import { humanName, isReviewPlan, prepareHumanReview, recordHumanApproval } from '../../engine/fleet/human-review.js';
import { c, cliContext, printJson } from '../context.js';
import { printWork } from './agent-diff.js';

/** The gate's view from this terminal: roz's store, the current directory, the user at it. */
function gateHere(): GateContext {
  const ctx = cliContext();
  return { storeDir: ctx.config.storage.path, store: ctx.store, cwd: process.cwd(), human: userInfo().username };
}

/** A result's lines (describeMerge, describePush): errors to stderr, warnings in yellow. */
function printLines(lines: ReturnType<typeof describeMerge>): void {
  for (const l of lines) (l.err ? process.stderr : process.stdout).write(`${l.warn ? c.yellow(l.text) : l.text}\n`);
}

/** `roz agent merge NAME`: the gate's value (engine/fleet/agent-merge.ts) printed, or as JSON with --json; its exit code either way. */
export function agentMergeCommand(name: string, opts: { json?: boolean; human?: boolean } = {}): number | Promise<number> {
  if (opts.human) return humanMergeCommand(name, opts.json === true);
  const r = mergeAgent(gateHere(), name);
  printMerge(r, opts.json === true);
  return mergeExitCode(r);
}

function printMerge(r: MergeResult, json: boolean): void {
  if (json) printJson(r);
  else printLines(describeMerge(r));
}

/** `roz agent push NAME [--pr]`: the gate's rule, then the push (engine/fleet/agent-push.ts). */
export function agentPushCommand(name: string, opts: { pr?: boolean; remote?: string; repo?: string; json?: boolean }): number {
  const r = pushAgent(gateHere(), {
    name,
    remote: opts.remote ?? 'origin',
    pr: opts.pr === true,
    ...(opts.repo !== undefined ? { repo: opts.repo } : {}),
    env: process.env,
  });
  if (opts.json) printJson(r);
  else printLines(describePush(r));
  return pushExitCode(r);
}

/** One line typed at the terminal (cooked mode: the human edits it as usual). */
function askLine(question: string): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    let answered = false;
    rl.question(question, (a) => {
      answered = true;
      rl.close();
      resolve(a);
    });
    rl.on('close', () => {
      if (!answered) resolve(null);
    });
  });
}

/**
 * `roz agent merge NAME --human`: the human reviews instead of the reviewer. The
 * branch's diff (exactly what merges), then they type the agent's name; the
 * approval is recorded for that commit's tree (engine/fleet/human-review.ts),
 * then the gate runs as for a reviewer's approval. Only from a terminal: an
 * agent's Bash has none (and where it makes one, roz's store refuses its write).
 */
async function humanMergeCommand(name: string, json: boolean): Promise<number> {
  if (json) {
    process.stderr.write('roz: --human asks at your terminal; it has no --json\n');
    return 2;
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write(
      `roz: refused: --human takes the approval typed at your terminal, and this has none (stdin and stdout must be a terminal). An agent cannot approve its own work; run it in your own terminal, or press m on ${name} in roz run's agents tab\n`,
    );
    return MERGE_REFUSED;
  }
  const gate = gateHere();
  const plan = prepareHumanReview(gate, name);
  if (!isReviewPlan(plan)) {
    printMerge(plan, false);
    return mergeExitCode(plan);
  }
  printWork(plan.work, false);
  process.stdout.write(
    `\n${c.bold(`This is exactly what ${plan.branch} holds (commit ${plan.head.slice(0, 12)}, tree ${plan.tree.slice(0, 12)}): what merges into ${plan.base}.`)}\n`,
  );
  const typed = await askLine(`Type ${name} to approve it and merge, anything else to stop: `);
  if (typed?.trim() !== name) {
    process.stderr.write(`roz: not approved (you typed ${JSON.stringify(typed?.trim() ?? '')}, not ${name}); nothing recorded, nothing merged\n`);
    return MERGE_REFUSED;
  }
  const human = humanName();
  const rec = await recordHumanApproval(gate, name, plan.head, human);
  if (!rec.ok) {
    process.stderr.write(`roz: ${rec.error}\n`);
    return MERGE_REFUSED;
  }
  process.stdout.write(`approved by ${human}: recorded in ${name}'s session ${rec.session_id} and the ledger\n`);
  if (rec.ledger_error) process.stdout.write(c.yellow(`warning: the approval's ledger record could not be written: ${rec.ledger_error}\n`));
  const r = mergeAgent(gate, name);
  printMerge(r, false);
  return mergeExitCode(r);
}
