// `roz intent list|show|select|status`: intents of the current project and
// which one a session works under.
import { isSafeSessionId } from '../../core/hook-input.js';
import { formatProblems, type Intent } from '../../core/governance/intents.js';
import { latestLessons } from '../../core/governance/lessons.js';
import { intentContext } from '../../core/governance/render.js';
import { peekGovernance } from '../../core/governance/state.js';
import { bindSelection, prepareSelection } from '../../engine/governance/select.js';
import { readLedger } from '../../store/ledger.js';
import { loadConfig } from '../../engine/config-loader.js';
import { agentRootsFor } from '../../store/agent-registry.js';
import { findProjectRoot, loadIntents, orchestrationPaths, readLessonsFile } from '../../store/orchestration.js';
import { intentsHome } from '../../store/project-root.js';
import { c, cliContext, printJson, resolveSession, table, UsageError } from '../context.js';

export interface IntentOptions {
  project?: string;
  session?: string;
  /** --last: the most recently active session instead of --session. */
  last?: boolean;
  json?: boolean;
}

/**
 * Where a CLI call's project is and where its intents come from: for an
 * agent's worktree, the base checkout's (store/agent-registry.ts: what roz's
 * launcher said, else roz's registry). Null root: governance is off.
 */
function cliProjectAt(start: string, env: NodeJS.ProcessEnv): { root: string | null; intentsFrom: string | null } {
  // The store's path only (cliContext would say the config's problems a second time).
  const agent = agentRootsFor(env, loadConfig(env, { cwd: process.cwd() }).config.storage.path, start);
  const root = findProjectRoot(start, { projectDir: env.CLAUDE_PROJECT_DIR, agent });
  return { root, intentsFrom: root ? intentsHome(root, agent) : null };
}

/** The governed project for a CLI call: --project, $CLAUDE_PROJECT_DIR or the cwd (or their git toplevel), and where its intents are. */
export function cliProject(opts: IntentOptions, env: NodeJS.ProcessEnv = process.env): { root: string; intentsFrom: string } {
  const start = opts.project ?? env.CLAUDE_PROJECT_DIR ?? process.cwd();
  const { root, intentsFrom } = cliProjectAt(start, env);
  if (!root || !intentsFrom) throw new UsageError(`no .orchestration/active_intents.yaml in ${start} or its git toplevel: intent governance is off here`, 3);
  return { root, intentsFrom };
}

export function cliProjectRoot(opts: IntentOptions, env: NodeJS.ProcessEnv = process.env): string {
  return cliProject(opts, env).root;
}

function intentsOrThrow(intentsFrom: string): Intent[] {
  const parsed = loadIntents(intentsFrom);
  if (!parsed.ok) throw new UsageError(`invalid intents file:\n${formatProblems(orchestrationPaths(intentsFrom).intents, parsed.problems)}`, 4);
  return parsed.intents;
}

export function intentListCommand(opts: IntentOptions): number {
  const intents = intentsOrThrow(cliProject(opts).intentsFrom);
  if (opts.json) {
    printJson(intents);
    return 0;
  }
  if (intents.length === 0) {
    process.stdout.write('no intents\n');
    return 0;
  }
  const paint = (s: Intent['status']): string => (s === 'IN_PROGRESS' ? c.green(s) : s === 'DRAFT' ? c.yellow(s) : c.dim(s));
  const rows = [['ID', 'STATUS', 'NAME', 'SCOPE'], ...intents.map((i) => [i.id, i.status, i.name, i.owned_scope.join(', ')])];
  const text = table(rows)
    .split('\n')
    .map((line, n) => (n === 0 ? c.bold(line) : line.replace(intents[n - 1]!.status, paint(intents[n - 1]!.status))))
    .join('\n');
  process.stdout.write(`${text}\n`);
  return 0;
}

export function intentShowCommand(id: string, opts: IntentOptions): number {
  const { root, intentsFrom } = cliProject(opts);
  const intent = intentsOrThrow(intentsFrom).find((i) => i.id === id);
  if (!intent) throw new UsageError(`no intent ${JSON.stringify(id)} (roz intent list shows them)`, 3);
  if (opts.json) printJson(intent);
  else process.stdout.write(`${intentContext(intent, latestLessons(readLessonsFile(root)))}\n`);
  return 0;
}

export async function intentSelectCommand(id: string, opts: IntentOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // Claude Code sets CLAUDECODE for the agent's Bash: overrides are for a human
  // at a terminal. Advisory (the agent can unset it); the PreToolUse hook
  // refuses `--project` in the command itself as well.
  if (opts.project !== undefined && env.CLAUDECODE) {
    throw new UsageError('--project is for a human at a terminal, not for the agent; run `roz intent select ID` (the hook records it for this session)', 2);
  }
  const { root, intentsFrom } = cliProject(opts, env);
  const sid = opts.session ?? env.CLAUDE_CODE_SESSION_ID ?? null;
  if (sid !== null && !isSafeSessionId(sid)) throw new UsageError(`not a valid session id: ${JSON.stringify(sid)}`);
  const ctx = cliContext(env);
  // Run by the agent: its PreToolUse hook has already recorded the selection
  // (engine/governance/gate.ts); say so instead of writing (the store may be read-only to it).
  if (sid !== null && env.CLAUDECODE) {
    let current: string | null = null;
    try {
      const state = ctx.store.read(sid);
      current = state ? peekGovernance(state).intent_id : null;
    } catch {
      /* unreadable: fall through to the write, which reports it */
    }
    if (current === id) {
      const prepared = prepareSelection(root, id, intentsFrom);
      process.stdout.write(`roz: intent ${id} selected for session ${sid} (recorded by roz's hook)\n\n${prepared.ok ? prepared.context : ''}\n`);
      return 0;
    }
  }
  const out = await bindSelection({
    store: ctx.store,
    storeRoot: ctx.config.storage.path,
    root,
    intentsFrom,
    intentId: id,
    sessionId: sid,
    via: 'cli',
    now: new Date(),
  });
  if (!out.ok) {
    process.stderr.write(`roz: cannot select ${id}: ${out.reason}\n`);
    return 4;
  }
  const where = 'session' in out.bound ? `session ${out.bound.session}` : `the next session to change a file in ${out.bound.pending} (within 15 minutes)`;
  process.stdout.write(`roz: intent ${id} selected for ${where}\n\n${out.context}\n`);
  return 0;
}

export function intentStatusCommand(opts: IntentOptions, env: NodeJS.ProcessEnv = process.env): number {
  const start = opts.project ?? env.CLAUDE_PROJECT_DIR ?? process.cwd();
  const { root, intentsFrom } = cliProjectAt(start, env);
  const sid = opts.session ?? env.CLAUDE_CODE_SESSION_ID;
  let selected: string | null = null;
  if (sid && isSafeSessionId(sid)) {
    const state = cliContext(env).store.read(sid);
    if (state) selected = peekGovernance(state).intent_id;
  }
  const parsed = intentsFrom ? loadIntents(intentsFrom) : null;
  const ledger = root ? readLedger(orchestrationPaths(root).ledger) : null;
  const status = {
    governance: root ? (parsed?.ok ? 'on' : 'invalid') : 'off',
    project: root,
    intents_file: intentsFrom ? orchestrationPaths(intentsFrom).intents : null,
    problems: parsed && !parsed.ok ? parsed.problems : [],
    intents: parsed?.ok ? parsed.intents.length : 0,
    in_progress: parsed?.ok ? parsed.intents.filter((i) => i.status === 'IN_PROGRESS').map((i) => i.id) : [],
    session: sid ?? null,
    selected_intent: selected,
    ledger_records: ledger?.records.length ?? 0,
    ledger_bad_lines: ledger?.bad ?? [],
    lessons: root ? latestLessons(readLessonsFile(root)) : [],
  };
  if (opts.json) {
    printJson(status);
    return 0;
  }
  const lines = [
    `governance  ${status.governance === 'on' ? c.green('on') : status.governance === 'invalid' ? c.red('INVALID — every change is refused') : 'off (no .orchestration/active_intents.yaml)'}`,
    `project     ${root ?? start}`,
  ];
  if (intentsFrom && intentsFrom !== root) lines.push(`base        ${orchestrationPaths(intentsFrom).intents} governs this agent's worktree`);
  if (intentsFrom && parsed && !parsed.ok) lines.push(formatProblems(orchestrationPaths(intentsFrom).intents, parsed.problems));
  if (root) {
    lines.push(`intents     ${status.intents} (IN_PROGRESS: ${status.in_progress.join(', ') || 'none'})`);
    lines.push(`session     ${sid ?? '-'}${sid ? `, selected intent: ${selected ?? c.yellow('none')}` : ''}`);
    lines.push(
      `ledger      ${status.ledger_records} records${status.ledger_bad_lines.length ? c.red(`, unreadable lines: ${status.ledger_bad_lines.join(', ')}`) : ''}`,
    );
    if (status.lessons.length) lines.push('lessons', ...status.lessons.map((l) => `  ${l}`));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return root && parsed && !parsed.ok ? 4 : 0;
}

/** One entry point: `roz intent <action> [id]`. */
export async function intentCommand(action: string, id: string | undefined, opts: IntentOptions): Promise<number> {
  if (opts.last) opts = { ...opts, session: resolveSession(opts.session, opts) };
  switch (action) {
    case 'list':
      return intentListCommand(opts);
    case 'status':
      return intentStatusCommand(opts);
    case 'show':
    case 'select':
      if (!id) throw new UsageError(`roz intent ${action} needs an intent id`);
      return action === 'show' ? intentShowCommand(id, opts) : intentSelectCommand(id, opts);
    default:
      throw new UsageError(`unknown action ${JSON.stringify(action)}: use list, show ID, select ID or status`);
  }
}
