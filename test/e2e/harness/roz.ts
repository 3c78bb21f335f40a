// roz-specific pieces for e2e scenarios: the reviewer's marker, the fake main
// agent's and reviewer's moves, and typed views of `roz debug/trace --json`.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, bash, on, reply, say, type Matcher, type ParsedRequest, type Reply, type Step } from './fake-api.js';
import { describeRun, runPrint, type PrintRun, type PrintRunOptions } from './run-print.js';
import { ROZ_BIN, ROZ_PLUGIN_DIR, rozCli, rozJson, type Workspace } from './workspace.js';

export const REVIEWER_AGENT_FILE = join(ROZ_PLUGIN_DIR, 'agents', 'roz.md');

/**
 * The reviewer subagent's system prompt is its agent file's body, so its first
 * Markdown heading tells its requests apart from the main agent's.
 */
export function rozReviewerMarker(): string {
  if (!existsSync(REVIEWER_AGENT_FILE)) throw new Error(`roz reviewer agent file missing: ${REVIEWER_AGENT_FILE}`);
  const body = readFileSync(REVIEWER_AGENT_FILE, 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
  const heading = /^#{1,6} .+$/m.exec(body)?.[0] ?? body.split('\n').find((l) => l.trim());
  if (!heading) throw new Error(`no heading or text in ${REVIEWER_AGENT_FILE} to recognise the reviewer by`);
  return heading.trim();
}

let rozBuiltChecked = false;
/** Fails loudly (never skips) when roz is not built; asks the CLI once per test process. */
export function assertRozBuilt(): void {
  if (!existsSync(ROZ_BIN)) throw new Error(`roz CLI missing at ${ROZ_BIN}`);
  if (rozBuiltChecked) return;
  const probe = rozCli({ repo: process.cwd(), env: process.env }, ['--help']);
  if (probe.code !== 0) throw new Error(`\`node bin/roz --help\` failed (exit ${probe.code}); run \`npm run build\`.\n${probe.stderr}`);
  rozBuiltChecked = true;
}

// --- views of the roz CLI ----------------------------------------------------

export interface RozDecision {
  kind: 'complete' | 'issues';
  summary: string;
  message?: string;
  valid: boolean;
  [k: string]: unknown;
}

export interface RozState {
  session_id: string;
  review: {
    enabled: boolean;
    status: 'idle' | 'pending' | 'blocked' | 'approved' | 'issues';
    block_count: number;
    decision: RozDecision | null;
    decision_history: RozDecision[];
    breaker: { trips: unknown[] };
    attempts: Array<{ template_id: string; outcome: string }>;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

export interface TraceEvent {
  ts: string;
  event: string;
  [k: string]: unknown;
}

export const rozState = (ws: Workspace, sessionId: string): RozState => rozJson<RozState>(ws, ['debug', sessionId]);
export const rozTrace = (ws: Workspace, sessionId: string): TraceEvent[] => rozJson<TraceEvent[]>(ws, ['trace', sessionId]);

// A failure message's view of the same, read from the store's files in this process: `why()`
// is an assertion's message argument, built before every expect (passing or not), and two roz
// CLI processes for each were a third of a review scenario's CPU.
const sessionDir = (ws: Pick<Workspace, 'storage'>, sessionId: string): string => join(ws.storage, 'sessions', sessionId);
const storedState = (ws: Pick<Workspace, 'storage'>, sessionId: string): RozState =>
  JSON.parse(readFileSync(join(sessionDir(ws, sessionId), 'state.json'), 'utf8')) as RozState;
const storedTrace = (ws: Pick<Workspace, 'storage'>, sessionId: string): TraceEvent[] =>
  readFileSync(join(sessionDir(ws, sessionId), 'trace.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as TraceEvent);

export interface RozStats {
  sessions: number;
  reviewed_sessions: number;
  failures: Record<string, number>;
  [k: string]: unknown;
}
export const rozStats = (ws: Workspace): RozStats => rozJson<RozStats>(ws, ['stats']);

/** A short digest of a trace for failure messages. */
export function traceDigest(trace: TraceEvent[]): string {
  return trace
    .map((e) => {
      const { ts: _ts, event, ...rest } = e;
      return `${event} ${JSON.stringify(rest).slice(0, 220)}`;
    })
    .join('\n');
}

// --- the fake agents' moves ----------------------------------------------------

/** The Stop block roz sends: feedback naming the session. */
export const rozStopBlock = (): Matcher => on.stopFeedback(/SESSION_ID=/);

export interface SpawnOptions {
  /**
   * `run_in_background` for the Agent call. `'as-told'` (the default) does what
   * a compliant model would: pass `false` only if the block reason mentions
   * `run_in_background`, else leave the client default (background in 2.1.330).
   */
  background?: boolean | 'as-told';
  summary?: string;
}

/** What a compliant model does with roz's block reason: spawn roz:roz with the session id first in the prompt. */
export function spawnReviewer(req: ParsedRequest, opts: SpawnOptions = {}): Reply {
  if (!req.sessionId) throw new Error(`fake-api: no SESSION_ID in what the model was told:\n${req.lastUserText}`);
  const asked = opts.background ?? 'as-told';
  const background = asked === 'as-told' ? (/run_in_background/.test(req.lastUserText) ? false : undefined) : asked;
  const prompt = `SESSION_ID=${req.sessionId}\n\n## Summary\n${opts.summary ?? 'Wrote hello.txt as asked.'}\n\n## Files changed\n- hello.txt\n`;
  return reply(
    undefined,
    agent({ subagent_type: 'roz:roz', description: 'Independent review', prompt, ...(background === undefined ? {} : { run_in_background: background }) }),
  );
}

/** How the reviewer invokes roz (on PATH through CLAUDE_ENV_FILE, per the contract). */
export const ROZ_CMD = 'roz';

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function decideCommand(sessionId: string, kind: 'COMPLETE' | 'ISSUES', summary: string, message?: string): string {
  return `${ROZ_CMD} decide ${sessionId} ${kind} ${shellQuote(summary)}${message ? ` --message ${shellQuote(message)}` : ''}`;
}

/**
 * A reviewer that reads the change with `roz context` (the user's prompts and
 * the diff from the review's base, commits included) and records `kind` with
 * `roz decide` as a Bash command of its own. The session id is the one in its
 * prompt, as the agent file instructs.
 */
export function reviewerScript(kind: 'COMPLETE' | 'ISSUES', summary: string, message?: string, name = kind.toLowerCase()): Step[] {
  return [
    {
      name: `${name}:diff`,
      when: on.start(),
      reply: (req) => reply(undefined, bash(`${ROZ_CMD} context ${req.sessionId ?? 'MISSING'}`, 'Read the request and the real changes')),
    },
    {
      name: `${name}:decide`,
      when: on.toolResult('Bash'),
      reply: (req) => reply(undefined, bash(decideCommand(req.sessionId ?? 'MISSING', kind, summary, message), 'Record the review decision')),
    },
    { name: `${name}:done`, when: on.toolResult('Bash'), reply: say(kind) },
  ];
}

/** A reviewer that looks at the diff and then ends without ever recording a decision. */
export function silentReviewerScript(): Step[] {
  return [
    { name: 'silent:diff', when: on.start(), reply: reply(undefined, bash('git diff HEAD', 'Read the real changes')), times: Infinity },
    { name: 'silent:done', when: on.toolResult('Bash'), reply: say('Looks fine to me.'), times: Infinity },
  ];
}

// --- running the client with the roz plugin ----------------------------------

export interface RozRun extends PrintRun {
  sessionId: string;
  state(): RozState;
  trace(): TraceEvent[];
  /** Everything worth seeing when an assertion fails: run, request log, roz state and trace. */
  why(): string;
}

/** `claude -p` with the roz plugin of this checkout, in a fresh workspace unless one is given. */
export async function runRoz(opts: Omit<PrintRunOptions, 'pluginDir'>): Promise<RozRun> {
  assertRozBuilt();
  const run = await runPrint({ ...opts, pluginDir: ROZ_PLUGIN_DIR });
  const ws = run.workspace;
  const sessionId = run.result.session_id;
  const safe = (f: () => unknown): string => {
    try {
      const v = f();
      return typeof v === 'string' ? v : JSON.stringify(v, null, 1);
    } catch (err) {
      return `(unavailable: ${(err as Error).message.split('\n')[0]})`;
    }
  };
  return {
    ...run,
    sessionId,
    state: () => rozState(ws, sessionId),
    trace: () => rozTrace(ws, sessionId),
    why: () =>
      `${describeRun(run)}\n--- roz debug:\n${safe(() => {
        const { review } = storedState(ws, sessionId);
        return {
          status: review.status,
          enabled: review.enabled,
          block_count: review.block_count,
          decision: review.decision,
          history: review.decision_history,
          breaker: review.breaker,
          attempts: review.attempts,
        };
      })}\n--- roz trace:\n${safe(() => traceDigest(storedTrace(ws, sessionId)))}`,
  };
}

/** Every main-agent request that carried Stop hook feedback. */
export const stopFeedbacks = (run: PrintRun): string[] => run.requests.filter((r) => r.role === 'main' && r.stopFeedback !== null).map((r) => r.stopFeedback!);

/** True when `names` occur in `events` in this order (not necessarily adjacent). */
export function inOrder(events: readonly string[], names: readonly string[]): boolean {
  let i = 0;
  for (const e of events) if (e === names[i]) i++;
  return i === names.length;
}

/**
 * The block templates roz may choose from (`roz config --json`), so a scenario
 * can pin each in turn with ROZ_TEMPLATE instead of depending on the A/B draw.
 */
export function rozTemplateIds(): string[] {
  const scratch = mkdtempSync(join(tmpdir(), 'roz-e2e-config-'));
  const env = { PATH: process.env.PATH, HOME: scratch, ROZ_STORAGE_PATH: join(scratch, 'storage') };
  const r = rozCli({ repo: process.cwd(), env }, ['config', '--json']);
  rmSync(scratch, { recursive: true, force: true });
  if (r.code !== 0) throw new Error(`roz config --json failed (exit ${r.code}): ${r.stderr}`);
  const ids = Object.keys((JSON.parse(r.stdout) as { config: { templates: { weights: Record<string, number> } } }).config.templates.weights);
  if (ids.length === 0) throw new Error(`roz config --json lists no block templates:\n${r.stdout}`);
  return ids;
}
