// The hook engine: one hook event in, the client's JSON out. Load config ->
// lock the session -> run the policies -> persist state and trace -> render.
// Both the standalone hook process and the supervisor call runHook. It never
// throws: an infrastructure failure fails open with a visible warning.
import { accessSync, constants } from 'node:fs';
import { appendRegularFile, MiB, readOptionalText } from '../store/regular-file.js';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { isSafeSessionId, parseHookInput, type HookEventName, type HookInput } from '../core/hook-input.js';
import type { RozConfig } from '../core/config.js';
import * as review from '../core/review/policy.js';
import type { SessionState } from '../core/session-state.js';
import { reviewAtEnd, telemetryOn } from '../core/telemetry.js';
import { truncateValue } from '../core/truncate.js';
import { clientDialogVerdict } from '../core/client-dialog.js';
import { mergeResults, none, result, type PolicyResult, type Verdict } from '../core/verdict.js';
import { guardOnPreToolUse, outsideWrites, projectBounds } from '../core/guard.js';
import { newSession } from '../core/session-state.js';
import type { GovernanceDeps } from './governance/project.js';
import { governanceOf } from '../core/governance/state.js';
import { agentRootsFromEnv, findProjectRoot, orchestrationAtStart } from '../store/project-root.js';
import { codeCacheDir, hookCodePath, markCodePath } from './code-paths.js';
import { loadOnDemand, NotLoaded } from '../core/on-demand.js';
import { FileSessionStore } from '../store/file-store.js';
import { StoreError, type SessionStore, type StateFault, type TraceRecord, type UpdateInfo } from '../store/session-store.js';
import { gateNotEnforced, rearmReview, refusedWithoutState, reviewDue } from './store-faults.js';
import { autoCleanup } from './cleanup.js';
import { renderOutput } from './output.js';
import { refuseUnanswered, renderForClient } from './client-output.js';
import { destructiveVerdict, shellView, writeReport } from './shell-view.js';
import { protectedWrite, writesStore } from './store-guard.js';
import { PATCH_TOOLS } from '../core/governance/mutations.js';
import { fileToolWriteArea } from './file-tool-area.js';
import { protectOnPreToolUse } from '../core/enforce/protect.js';
import type { Enforcement } from '../core/enforce/mode.js';
import { advisoryMessage, clientEnforcement, detectEnforcement } from './enforce-probe.js';
import { asRozTool, hookClient, type ClientDescriptor } from '../core/clients.js';
import { configPath, loadConfig } from './config-loader.js';
import { hookSnapshots, loadSnapshotModule, recordSessionGit, type HookSnapshots } from './snapshots.js';
import { operationLeftWarning, takeAgentObjects, type ObjectIntakeReport } from './object-intake-hook.js';
import { stagingDirOf } from '../store/object-staging.js';
import { pluginRoot, templateLoader } from './templates-loader.js';
import { asReviewerEvent, reviewerRoute } from '../core/review/launched-reviewer.js';
import { randomUuid } from '../store/random-uuid.js';
import { longWait } from '../core/first-wait.js';

export interface HookRun {
  /** renderOutput(event, verdict, warnings): what the client reads. */
  stdout: string;
  stderr: string;
  verdict: Verdict;
  /** The systemMessage lines, so a transport that changes the verdict (a human's answer) renders the same way. */
  warnings: string[];
}

export interface EngineDeps {
  env: Record<string, string | undefined>;
  now?: () => Date;
  rng?: () => number;
  /** Override the store (tests); defaults to the file store at the configured path. */
  store?: (config: RozConfig, warn: (m: string) => void) => SessionStore;
}

type Governance = typeof import('./governance/dispatch.js');

/** Events intent governance takes part in. */
const GOVERNED_EVENTS: ReadonlySet<HookEventName> = new Set(['SessionStart', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop']);

/**
 * Intent governance (yaml, globs, the ledger schema) is loaded only for a
 * project that has it: most hooks in most repositories never pay for it.
 */
const loadGovernance = (): Promise<Governance> => {
  markCodePath('governance');
  return import('./governance/dispatch.js');
};

/** Thrown inside a store update when the session remembers a governed project the cwd no longer shows. */
class GovernanceNeeded extends Error {}

const INPUT_TRACE_LIMIT = 10_000;
const RESPONSE_TRACE_LIMIT = 2_000;

/**
 * What one hook run knows before it judges, gathered once by prepareRun and
 * read by the steps after it. Kept lean on purpose: every field of a new object
 * shape costs the hook process a map transition (thousands of instructions, on
 * the Bash bar), so `now` and `config` are read from ctx and `env` from gov.
 * `governance` alone changes afterwards: loaded late when the session
 * remembers a governed project the cwd no longer shows.
 */
interface HookSetup {
  event: HookEventName;
  input: HookInput;
  store: SessionStore;
  enforcement: Enforcement | null;
  governance: Governance | null;
  snaps: HookSnapshots;
  objects: ObjectIntakeReport | null;
  gov: GovernanceDeps;
  ctx: review.ReviewContext;
  protect: () => PolicyResult;
}

/**
 * The steps of one hook, each named below: read the input, prepare what the
 * policies need, judge inside the session's locked update, and answer. The
 * store failing has its own ending (withoutStore); anything else fails open.
 */
export async function runHook(clientEvent: HookEventName, raw: string, deps: EngineDeps): Promise<HookRun> {
  // A reviewer roz started for another session speaks as that session's reviewer (readInput): judged as that
  // event, answered as the client's own.
  let event = clientEvent;
  const stderr: string[] = [];
  const warnings: string[] = [];
  const warn = (m: string): void => {
    stderr.push(m);
    warnings.push(m);
  };
  const failOpen = (why: string): HookRun => {
    warn(`roz: ${event} hook failed open: ${why}`);
    return { stdout: renderOutput(clientEvent, none, warnings), stderr: stderr.join('\n') + '\n', verdict: none, warnings };
  };

  try {
    const client = hookClient(deps.env);
    const read = readInput(event, raw, client, deps.env);
    if (typeof read === 'string') return failOpen(read);
    // A launched reviewer's event with nothing to judge (engine/reviewer-launch.ts).
    if (read === null) return { stdout: renderOutput(clientEvent, none, warnings), stderr: '', verdict: none, warnings };
    event = read.event;
    const input = read.input;
    const setup = await prepareRun(event, input, deps, warn, client);
    let policy: PolicyResult;
    try {
      policy = await judgeInSession(setup);
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      const refused = await withoutStore(setup, err, warn);
      return refused ? answer(clientEvent, refused, client, stderr, warnings) : failOpen(`store unavailable: ${err.message}`);
    }
    if (event === 'Stop' && setup.ctx.launch) policy = await reviewedByLaunch(setup, policy, client, deps, warn);
    for (const w of policy.warnings) warn(w);
    // Only a session's start and a turn's or session's end have work after the verdict: other
    // hooks skip the async call (a Bash pre-tool-use ran ~27k instructions fewer, callgrind).
    if (event === 'SessionStart' || event === 'Stop' || event === 'SessionEnd') await afterJudging(setup, deps, warn);
    return answer(clientEvent, withoutHuman(event, policy.verdict, deps.env), client, stderr, warnings);
  } catch (err) {
    return failOpen(`internal error: ${(err as Error).stack ?? String(err)}`);
  }
}

/** The verdict as the client reads it, with every warning of the run. */
function answer(event: HookEventName, verdict: Verdict, client: ClientDescriptor, stderr: string[], warnings: string[]): HookRun {
  return { stdout: renderForClient(event, verdict, warnings, client), stderr: stderr.length ? stderr.join('\n') + '\n' : '', verdict, warnings };
}

/**
 * The event's JSON in roz's terms, whichever client sent it (Gemini's
 * run_shell_command is Bash; core/clients.ts), with a session id safe to name
 * a file by; or why not, to fail open with. A reviewer roz started for another
 * session (ROZ_REVIEW_OF, set by the hook that started it: engine/reviewer-launch.ts)
 * speaks as that session's reviewer subagent; null: one of its events with nothing to judge.
 */
function readInput(
  clientEvent: HookEventName,
  raw: string,
  client: ClientDescriptor,
  env: Record<string, string | undefined>,
): { event: HookEventName; input: HookInput } | string | null {
  const parsed = parseHookInput(clientEvent, raw);
  if (!parsed.ok) return parsed.error;
  let input = parsed.input;
  let event = clientEvent;
  if (client.id !== 'claude') asRozTool(input, client);
  const reviewFor = env.ROZ_REVIEW_OF;
  if (reviewFor) {
    if (!isSafeSessionId(reviewFor)) return `unusable ROZ_REVIEW_OF ${JSON.stringify(reviewFor.slice(0, 80))}`;
    const mapped = asReviewerEvent(event, input, reviewFor, env.ROZ_REVIEW_RUN);
    if (!mapped) return null;
    event = mapped.event;
    input = mapped.input;
  }
  markCodePath(hookCodePath(event, (input as { tool_name?: unknown }).tool_name));
  if (!isSafeSessionId(input.session_id)) return `unusable session_id ${JSON.stringify(input.session_id.slice(0, 80))}`;
  return { event, input };
}

/** Config, store, the code this call needs, and what each policy reads (HookSetup), in the order their side effects must run. */
async function prepareRun(event: HookEventName, input: HookInput, deps: EngineDeps, warn: (m: string) => void, client: ClientDescriptor): Promise<HookSetup> {
  const resolved = loadConfig(deps.env, { cwd: input.cwd });
  for (const p of resolved.problems) warn(`roz: config: ${p}`);
  const config = resolved.config;
  const now = (deps.now ?? (() => new Date()))();
  const store = deps.store ? deps.store(config, warn) : new FileSessionStore(config.storage.path, warn, { telemetry: telemetryOn(config.telemetry, deps.env) });
  const home = deps.env.HOME || homedir();
  const enforcement = event === 'SessionStart' ? enforcementAtStart(input, deps.env, home, config.storage.path, warn) : null;
  // Every policy reads a Bash command through the shell parser: load it now
  // rather than in a second round of the update (see untilLoaded).
  const tool = (input as { tool_name?: unknown }).tool_name;
  if (tool === 'Bash') await loadOnDemand('shell');
  // Codex's apply_patch: its text names the files it writes (core/apply-patch.ts).
  else if (PATCH_TOOLS.has(String(tool))) await loadOnDemand('apply-patch');

  // An agent in its worktree is governed by the base checkout's intents (project-root.ts AgentRoots).
  const governance: Governance | null =
    GOVERNED_EVENTS.has(event) && findProjectRoot(input.cwd, { projectDir: deps.env.CLAUDE_PROJECT_DIR, agent: agentRootsFromEnv(deps.env) })
      ? await loadGovernance()
      : null;
  // Taken at most once per hook, and only when a review rule asks (trigger,
  // a reviewer's context/decide call, a stop after an approval, a gated call),
  // of the session's project and the `.git` it started with (snapshots.ts).
  const snaps = hookSnapshots({ env: deps.env, cwd: input.cwd, storeRoot: config.storage.path, now, warn });
  // Not before a tool call: nothing it staged can matter to judging the call.
  const objects = event === 'PreToolUse' ? null : await agentObjects(event, input, deps.env, config.storage.path, store, warn);
  const gov: GovernanceDeps = {
    env: deps.env,
    gitIdentity: snaps.identity,
    now,
    storeRoot: config.storage.path,
    home,
    guard: config.guard.destructive,
    allowTempWrites: config.governance.allow_temp_writes,
  };
  const ctx = reviewContextOf(event, input, config, deps, home, snaps, now);
  // A client without roz's subagent (or the user's choice of another reviewer): roz starts the reviewer at a stop.
  const route = deps.env.ROZ_REVIEW_OF ? null : reviewerRoute(client.id, config);
  if (route?.kind === 'launch')
    ctx.launch = {
      client: route.client,
      label: `${route.client === 'codex' ? 'Codex CLI' : 'Claude Code'} reviewer`,
      start: event === 'Stop',
      runId: randomUuid,
    };
  const protect = protectOf(input, config, deps.env, home);
  return { event, input, store, enforcement, governance, snaps, objects, gov, ctx, protect };
}

/** At SessionStart: roz on the session's PATH, and how roz can enforce (said out loud when it cannot). */
function enforcementAtStart(
  input: HookInput,
  env: Record<string, string | undefined>,
  home: string,
  storeRoot: string,
  warn: (m: string) => void,
): Enforcement {
  exportRozOnPath(env, warn);
  // Another client (Codex): its own sandbox, as roz's launcher configured it and said (supervisor/launch/client-launch.ts).
  const enforcement = clientEnforcement(env) ?? detectEnforcement({ env, home, projectDir: env.CLAUDE_PROJECT_DIR || input.cwd, store: storeRoot });
  // Said out loud: the human must know when roz cannot hold the line.
  if (enforcement.mode === 'advisory') warn(advisoryMessage(enforcement, env));
  return enforcement;
}

/**
 * The agent's new git objects, hashed again before the repository holds them
 * (store/object-intake.ts); at Stop, also a git operation it left half done.
 */
async function agentObjects(
  event: HookEventName,
  input: HookInput,
  env: Record<string, string | undefined>,
  storeRoot: string,
  store: SessionStore,
  warn: (m: string) => void,
): Promise<ObjectIntakeReport | null> {
  const project = env.CLAUDE_PROJECT_DIR || input.cwd;
  const staging = stagingDirOf(project);
  const objects = await takeAgentObjects(project, staging, storeRoot, () => {
    try {
      return store.read(input.session_id)?.git?.identity;
    } catch {
      return undefined;
    }
  });
  for (const w of objects?.warnings ?? []) warn(w);
  if (event === 'Stop') {
    const left = await operationLeftWarning(project, staging);
    if (left) warn(left);
  }
  return objects;
}

/** What the review gate reads. Independent of the session's state: also used to judge a call when that state is unusable. */
function reviewContextOf(
  event: HookEventName,
  input: HookInput,
  config: RozConfig,
  deps: EngineDeps,
  home: string,
  snaps: HookSnapshots,
  now: Date,
): review.ReviewContext {
  return {
    now,
    config,
    rng: deps.rng ?? Math.random,
    loadTemplate: templateLoader(config.storage.path, deps.env),
    shell: shellView,
    writesStore: () => event === 'PreToolUse' && writesStore(input as HookInput<'PreToolUse'>, config.storage.path, home),
    snapshot: snaps.snapshot,
    snapshotProblem: snaps.problem,
    changedFiles: snaps.changedFiles,
    rozFilesOffDisk: snaps.rozFilesOffDisk,
  };
}

/** The protected-paths policy for a tool call: what no agent writes, whatever else allows it (core/enforce/protect.ts). */
function protectOf(input: HookInput, config: RozConfig, env: Record<string, string | undefined>, home: string): () => PolicyResult {
  return () =>
    protectOnPreToolUse(input as HookInput<'PreToolUse'>, () =>
      protectedWrite(input as HookInput<'PreToolUse'>, {
        pluginDir: env.CLAUDE_PLUGIN_ROOT || null,
        codeCache: codeCacheDir(env, home),
        configFiles: [configPath(env, home)],
        settingsFile: env.ROZ_SETTINGS_FILE || null,
        claudeUserDir: env.CLAUDE_CONFIG_DIR || join(home, '.claude'),
        home,
        area: () => fileToolWriteArea(env, input.cwd, home, config.enforce.write_paths),
        // Another client's own sandbox, configured by roz's launcher, holds these too (supervisor/launch/client-launch.ts).
        advisory: !env.ROZ_SETTINGS_FILE && env.ROZ_CLIENT_SANDBOX !== 'enforced',
        deferred: [config.storage.path],
      }),
    );
}

/**
 * A stop whose verdict registered a reviewer run roz starts itself: start it,
 * wait for it and judge the stop again on what it decided (engine/reviewer-launch.ts,
 * loaded only here: hook-reviewer-launch.cjs).
 */
async function reviewedByLaunch(
  setup: HookSetup,
  policy: PolicyResult,
  client: ClientDescriptor,
  deps: EngineDeps,
  warn: (m: string) => void,
): Promise<PolicyResult> {
  const launch = policy.notes.find((n) => n.type === 'ReviewerLaunch');
  if (!launch) return policy;
  const { reviewedAtStop } = await import('./reviewer-launch.js');
  const { input, ctx, store, snaps } = setup;
  const stop = input as HookInput<'Stop'>;
  const runId = String(launch.agent_id);
  return reviewedAtStop(policy, {
    client: ctx.launch!.client as 'claude' | 'codex',
    agentClient: client.id,
    agentLabel: client.label,
    runId,
    sessionId: input.session_id,
    cwd: deps.env.CLAUDE_PROJECT_DIR || input.cwd,
    env: deps.env,
    config: ctx.config,
    longWait,
    pluginDir: pluginRoot(deps.env),
    now: () => (deps.now ?? (() => new Date()))(),
    warn,
    update: (now, judgeLaunched) =>
      store.update(input.session_id, now, (state) => {
        snaps.bind(state);
        const out = review.afterLaunchedReview(state, stop, runId, { ...ctx, now });
        return { value: out, trace: judgeLaunched(out).map((n) => ({ ...n, ts: now.toISOString(), event: `roz:${n.type}`, session_id: input.session_id })) };
      }),
  });
}

/** The policies' verdict under the session's lock, the state and trace written with it; governance loaded late if the session asks for it. */
function judgeInSession(setup: HookSetup): Promise<PolicyResult> {
  const update = () => setup.store.update(setup.input.session_id, setup.ctx.now, (state, info) => judgeAndRecord(setup, state, info));
  return untilLoaded(update, async (err) => {
    if (!(err instanceof GovernanceNeeded)) return false;
    setup.governance = await loadGovernance();
    return true;
  });
}

/** Inside the store's update: the session's facts, the verdict (weighed against a faulty state), its count and its trace. */
function judgeAndRecord(setup: HookSetup, state: SessionState, info: UpdateInfo): { value: PolicyResult; trace: TraceRecord[] } {
  const { event, input, ctx, snaps } = setup;
  const now = ctx.now;
  // The agent may have cd'd out of the project: the session's remembered
  // project still governs it, so load governance and run this update again.
  if (GOVERNED_EVENTS.has(event) && !setup.governance && governanceOf(state).project_root) throw new GovernanceNeeded();
  state.counters[event] = (state.counters[event] ?? 0) + 1;
  snaps.bind(state);
  if (event === 'SessionStart') recordSessionStart(setup, state);
  // Before anything the agent does this session: an .orchestration/ that appears later is not roz's to write.
  state.orchestration_at_start ??= orchestrationAtStart(input.cwd, setup.gov.env.CLAUDE_PROJECT_DIR);
  const fault = info.fault;
  if (fault?.kind === 'corrupt' && fault.reviewWasActive) rearmReview(state, now);
  let out = judge(setup, state, setup.governance);
  if (fault) out = judgedWithFault(event, out, fault, () => judge(setup, newSession(input.session_id, now), setup.governance), input.session_id);
  if (out.verdict.kind === 'deny' || out.verdict.kind === 'ask') {
    state.denials[out.verdict.code] = (state.denials[out.verdict.code] ?? 0) + 1;
  }
  const ts = now.toISOString();
  const trace: TraceRecord[] = [
    eventRecord(event, input, out.verdict, ts),
    ...[...out.notes, ...snaps.notes()].map((n) => ({ ...n, ts, event: `roz:${n.type}`, session_id: input.session_id })),
    ...sessionEdges(event, state, ctx.config, setup.gov.env, ts),
    ...(setup.objects?.trace(ts, input.session_id) ?? []),
  ];
  return { value: out, trace };
}

/** What a session remembers from its start: its git, the second opinions it can ask, how roz enforces, its supervisor. */
function recordSessionStart(setup: HookSetup, state: SessionState): void {
  const env = setup.gov.env;
  recordSessionGit(state, env.CLAUDE_PROJECT_DIR || setup.input.cwd, setup.ctx.now);
  state.second_opinions = detectSecondOpinions(setup.ctx.config, env);
  if (setup.enforcement) state.enforcement = setup.enforcement;
  const sup = Number(env.ROZ_SUPERVISOR_PID);
  if (Number.isInteger(sup) && sup > 0) state.supervisor_pid = sup;
  else delete state.supervisor_pid;
}

function judge(setup: HookSetup, state: SessionState, governance: Governance | null): PolicyResult {
  return dispatch(setup.event, state, setup.input, setup.ctx, governance, setup.gov, setup.protect);
}

/**
 * The session store failed (a lock held past its bound, an unreadable store):
 * the refusal of a tool call a fresh session would refuse; a Stop fails open
 * but says unmissably whether a review was due; null: fail open.
 */
async function withoutStore(setup: HookSetup, err: StoreError, warn: (m: string) => void): Promise<Verdict | null> {
  if (setup.event === 'PreToolUse') {
    // Nothing the session granted is known: judge the call as a fresh
    // session would, and refuse what that would refuse (store-faults.ts).
    const g = setup.governance ?? (await loadGovernance());
    const probe = await untilLoaded(async () => judge(setup, newSession(setup.input.session_id, setup.ctx.now), g));
    const verdict = refusedWithoutState(probe.verdict, `store unavailable (${err.message})`);
    if (verdict) {
      warn(`roz: store unavailable: ${err.message}`);
      return verdict;
    }
  }
  if (setup.event === 'Stop') stopWithoutStore(setup, err, warn);
  return null;
}

/** Open, never wedged: but if a review was due (read without the lock), say so unmissably, and trace it if the trace takes it. */
function stopWithoutStore(setup: HookSetup, err: StoreError, warn: (m: string) => void): void {
  const { store, input } = setup;
  let snapshot: SessionState | null = null;
  try {
    snapshot = store.read(input.session_id);
  } catch {
    /* unreadable too: said below */
  }
  const due = reviewDue(snapshot);
  warn(gateNotEnforced(input.session_id, `roz's session store is unavailable (${err.message})`, due));
  try {
    store.appendTrace(input.session_id, [
      { ts: setup.ctx.now.toISOString(), event: 'roz:GateFailedOpen', session_id: input.session_id, review_due: due, error: err.message },
    ]);
  } catch {
    /* the trace is unavailable too */
  }
}

/** After the verdict, before answering: the day's cleanup at SessionStart, and the telemetry flush at a turn's or session's end. */
async function afterJudging(setup: HookSetup, deps: EngineDeps, warn: (m: string) => void): Promise<void> {
  const { event, ctx } = setup;
  const config = ctx.config;
  if (event === 'SessionStart' && !deps.store) {
    await autoCleanup(
      setup.store,
      { storeRoot: config.storage.path, retentionDays: config.cleanup.retention_days, now: ctx.now, current: setup.input.session_id },
      warn,
    );
  }
  // Export never waits on the network inside a hook: at the end of a turn or
  // session, without a supervisor to batch, a detached `roz otel flush` sends the spool.
  if ((event === 'Stop' || event === 'SessionEnd') && telemetryOn(config.telemetry, deps.env) && !deps.env.ROZ_SOCKET && !deps.store) {
    await startBackgroundFlush(config.storage.path, deps.env, warn);
  }
}

/**
 * The verdict of a hook whose session document was faulty (store-faults.ts):
 * a PreToolUse that a fresh session would refuse is refused with HOOK_ERROR,
 * and a Stop let through although a review may have been due says so unmissably.
 */
function judgedWithFault(event: HookEventName, out: PolicyResult, fault: StateFault, fresh: () => PolicyResult, sessionId: string): PolicyResult {
  const why = `its session file was ${fault.kind === 'repaired' ? `repaired (${fault.reason})` : `replaced (${fault.reason})`}; the original is kept in ${fault.kept}`;
  if (event === 'PreToolUse') {
    const probe = fault.kind === 'corrupt' ? out : fresh();
    const verdict = refusedWithoutState(out.verdict, why) ?? refusedWithoutState(probe.verdict, why);
    return verdict ? { ...out, verdict, notes: [...out.notes, { type: 'StateFault', kind: fault.kind }] } : out;
  }
  if (event === 'Stop' && out.verdict.kind !== 'block' && !fault.reviewWasActive && fault.kind === 'corrupt') {
    return { ...out, warnings: [...out.warnings, gateNotEnforced(sessionId, why, false)] };
  }
  return out;
}

/**
 * An `ask` nobody can answer: a client that does not ask (core/clients.ts
 * askWithoutHuman) is told `deny`, with the reason the model reads. Under
 * `roz run` (a supervisor) the human's queue answers instead (and the hook
 * process refuses it the same way if the supervisor does not answer).
 */
function withoutHuman(event: HookEventName, verdict: Verdict, env: Record<string, string | undefined>): Verdict {
  if (event !== 'PreToolUse' || env.ROZ_SOCKET) return verdict;
  const client = hookClient(env);
  return refuseUnanswered(verdict, client, `nobody can answer under ${client.label} outside roz run`);
}

/**
 * Run `attempt` until it stops asking for code it has not loaded: a module
 * only some calls need (on-demand.ts), or something `more` knows how to load.
 * Each round loads one thing, so a few rounds always suffice.
 */
async function untilLoaded<T>(attempt: () => Promise<T>, more: (err: unknown) => Promise<boolean> = async () => false): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await attempt();
    } catch (err) {
      if (round >= 4) throw err;
      if (err instanceof NotLoaded) await (err.module === 'tree-snapshot' ? loadSnapshotModule() : loadOnDemand(err.module));
      else if (!(await more(err))) throw err;
    }
  }
}

/**
 * The review gate fails open, and must not take governance down with it: an
 * error in it (say the shell parser cannot load) becomes a warning, and
 * governance still judges the call and fails closed on its own.
 */
function reviewFailingOpen(judge: () => PolicyResult): PolicyResult {
  try {
    return judge();
  } catch (err) {
    if (err instanceof NotLoaded) throw err;
    const why = (err as Error).message ?? String(err);
    return result(undefined, [{ type: 'ReviewError', error: why }], [`roz: the review gate failed open on this call: ${why}`]);
  }
}

/**
 * Outside a governed project the destructive guard is advisory parsing on top of
 * the client's own permissions: if it cannot run (the shell parser failed to
 * load), the call goes on to the client with a visible warning.
 */
function guardFailingOpen(judge: () => PolicyResult): PolicyResult {
  try {
    return judge();
  } catch (err) {
    if (err instanceof NotLoaded) throw err;
    const why = (err as Error).message ?? String(err);
    return result(undefined, [{ type: 'GuardError', error: why }], [`roz: the destructive-command guard could not judge this call: ${why}`]);
  }
}

/**
 * The review gate and intent governance are two policies over one event; the stricter verdict wins.
 * Each policy's entry for an event is named `<policy>On<Event>` (guardOnPreToolUse,
 * protectOnPreToolUse, governanceOnPostToolUse, …; the review gate's are `review.on<Event>`).
 */
function dispatch(
  event: HookEventName,
  state: SessionState,
  input: HookInput,
  ctx: review.ReviewContext,
  governance: Governance | null,
  gov: GovernanceDeps,
  protect: () => PolicyResult,
): PolicyResult {
  // Protected paths and the sandbox flag fail closed and come first: nothing
  // (not even the reviewer's allow) gets past them.
  if (event === 'PreToolUse') {
    const p = protect();
    if (p.verdict.kind === 'deny') return p;
  }
  let r = reviewOf(event, state, input, ctx);
  // A review that ends ISSUES is a lesson for the project (intent governance).
  const issues = r.notes.find((n) => n.type === 'Decision' && n.kind === 'issues');
  if (issues && governance) {
    r = mergeResults(
      r,
      governance.governanceOnReviewIssues(
        state,
        { summary: String(issues.summary), ...(issues.message !== undefined ? { message: String(issues.message) } : {}) },
        gov,
      ),
    );
  }
  // A denial by the review gate already stops the call; governance still
  // judges everything else (a reviewer's `allow` must not bypass it).
  if (event === 'PreToolUse' && r.verdict.kind === 'deny') return r;
  if (governance) return mergeResults(r, governance.runGovernance(event, state, input, gov));
  // No intent governance here: the destructive guard still runs (governance runs it itself where it is on).
  if (event === 'PreToolUse')
    return mergeResults(
      r,
      guardFailingOpen(() => guardOnPreToolUse(input as HookInput<'PreToolUse'>, destructiveVerdict, gov.guard ?? 'ask', outsideOf(input, gov))),
    );
  return r;
}

/** In a repo without intents: files beyond the project (and its scratch areas) a command would destroy. */
function outsideOf(input: HookInput, gov: GovernanceDeps): (command: string) => ReturnType<typeof outsideWrites> {
  const bounds = projectBounds(input.cwd, gov.env, gov.home ?? gov.env.HOME ?? homedir(), tmpdir());
  // Only a path with a slash, a `~` or a `..` can lie outside the project (`rm -f x` cannot): most
  // commands skip the write analysis, which the guard alone does not otherwise need.
  return (command) => (/[/~]|\.\./.test(command) ? outsideWrites(writeReport(command).targets, bounds) : []);
}

function reviewOf(event: HookEventName, state: SessionState, input: HookInput, ctx: review.ReviewContext): PolicyResult {
  switch (event) {
    case 'SessionStart':
      return review.onSessionStart(state, input as HookInput<'SessionStart'>);
    case 'UserPromptSubmit':
      return review.onUserPrompt(state, input as HookInput<'UserPromptSubmit'>, ctx);
    case 'PreToolUse':
      return reviewFailingOpen(() => review.onPreToolUse(state, input as HookInput<'PreToolUse'>, ctx));
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return review.onPostToolUse(state, input as HookInput<'PostToolUse'>, ctx);
    case 'Stop':
      return review.onStop(state, input as HookInput<'Stop'>, ctx);
    case 'SubagentStart':
      return review.onSubagentStart(state, input as HookInput<'SubagentStart'>, ctx);
    case 'SubagentStop':
      return review.onSubagentStop(state, input as HookInput<'SubagentStop'>, ctx);
    case 'SessionEnd':
      return review.onSessionEnd(state, input as HookInput<'SessionEnd'>, ctx);
    case 'PermissionRequest': {
      // The client's own dialog: a request for the human in roz's queue (client-dialog.ts), never roz's decision.
      const i = input as HookInput<'PermissionRequest'>;
      return result(clientDialogVerdict(i.tool_name, i.tool_input));
    }
    case 'Notification':
      return result();
  }
}

function eventRecord(event: HookEventName, input: HookInput, verdict: Verdict, ts: string): TraceRecord {
  const i = input as Record<string, unknown>;
  const rec: TraceRecord = { ts, event, session_id: input.session_id };
  for (const key of ['agent_id', 'agent_type', 'tool_name', 'tool_use_id', 'source', 'reason', 'duration_ms', 'is_interrupt', 'stop_hook_active']) {
    if (i[key] !== undefined) rec[key] = i[key];
  }
  if (i.prompt !== undefined) rec.prompt = truncateValue(i.prompt, INPUT_TRACE_LIMIT);
  if (i.tool_input !== undefined) rec.tool_input = truncateValue(i.tool_input, INPUT_TRACE_LIMIT);
  if (i.tool_response !== undefined) rec.tool_response = truncateValue(i.tool_response, RESPONSE_TRACE_LIMIT);
  if (i.error !== undefined) rec.error = truncateValue(i.error, RESPONSE_TRACE_LIMIT);
  if (i.last_assistant_message !== undefined) rec.last_assistant_message = truncateValue(i.last_assistant_message, RESPONSE_TRACE_LIMIT);
  if (verdict.kind !== 'none') rec.verdict = verdict;
  return rec;
}

/**
 * A session's start and end as trace notes: how roz enforces (for telemetry's
 * "enforcement mode at start") and whether the session ended reviewed.
 */
function sessionEdges(event: HookEventName, state: SessionState, config: RozConfig, env: Record<string, string | undefined>, ts: string): TraceRecord[] {
  if (event === 'SessionStart') {
    // enforced/advisory as decided at SessionStart (core/enforce/mode.ts); how hooks reach roz beside it.
    const hooks = env.ROZ_HOOK_TRANSPORT || (env.ROZ_SOCKET ? 'supervised' : 'process');
    const enforcement = state.enforcement?.mode ?? 'unknown';
    return [{ ts, event: 'roz:SessionStarted', session_id: state.session_id, type: 'SessionStarted', enforcement, hooks, review_mode: config.review.mode }];
  }
  if (event === 'SessionEnd') {
    const r = state.review;
    return [
      {
        ts,
        event: 'roz:SessionEnded',
        session_id: state.session_id,
        type: 'SessionEnded',
        review: reviewAtEnd(r),
        review_status: r.status,
        attempts: r.attempts.length,
        denials: Object.values(state.denials).reduce((a, b) => a + b, 0),
      },
    ];
  }
  return [];
}

/** `roz otel flush` in its own session, not waited for; a flush already running (its lock) is left alone. */
async function startBackgroundFlush(storeRoot: string, env: Record<string, string | undefined>, warn: (m: string) => void): Promise<void> {
  try {
    const { spoolPending } = await import('../store/telemetry-spool.js');
    if (!spoolPending(storeRoot)) return;
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [join(pluginRoot(env), 'bin', 'roz'), 'otel', 'flush', '--quiet'], {
      detached: true,
      stdio: 'ignore',
      env: env as NodeJS.ProcessEnv,
    });
    child.on('error', () => {});
    child.unref();
  } catch (err) {
    warn(`roz: could not start the telemetry flush: ${(err as Error).message}`);
  }
}

/**
 * Put roz on the PATH of every later Bash command of the session (the
 * reviewer runs `roz decide`), through the client's CLAUDE_ENV_FILE.
 */
function exportRozOnPath(env: Record<string, string | undefined>, warn: (m: string) => void): void {
  const file = env.CLAUDE_ENV_FILE;
  if (!file) return;
  const bin = join(pluginRoot(env), 'bin');
  const line = `export PATH=${JSON.stringify(bin)}:"$PATH"\n`;
  try {
    // Regular files only, never waiting: the path is the client's, the file may be anyone's.
    const existing = readOptionalText(file, MiB) ?? '';
    if (!existing.includes(line)) appendRegularFile(dirname(file), file, line);
  } catch (err) {
    warn(`roz: could not put roz on the session PATH (${(err as Error).message}); the reviewer can run ${join(bin, 'roz')} instead`);
  }
}

function onPath(cmd: string, env: Record<string, string | undefined>): boolean {
  if (!cmd) return false;
  if (cmd.includes('/')) return canExec(cmd);
  return (env.PATH ?? '').split(delimiter).some((dir) => dir && canExec(join(dir, cmd)));
}

function canExec(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function detectSecondOpinions(config: RozConfig, env: Record<string, string | undefined>): { codex: boolean; gemini: boolean; claude: boolean } {
  const m = config.external_models;
  return { codex: onPath(m.codex, env), gemini: onPath(m.gemini, env), claude: onPath(m.claude, env) };
}
