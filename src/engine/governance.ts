// Intent governance as the engine calls it, inside the session lock: finds
// the governed project, does the I/O (intents, hashes, ledger, map, lessons)
// around the pure policies in core/governance. PreToolUse fails closed;
// everything after the fact fails safe (a warning, never a denial).
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join as joinPath, relative as relativePath, resolve as resolveAbs, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GuardMode } from '../core/guard.js';
import type { HookEventName, HookInput } from '../core/hook-input.js';
import type { SessionState } from '../core/review/state.js';
import { result, type PolicyResult, type TraceNote } from '../core/verdict.js';
import { classifyFileChange, classifyRecord } from '../core/governance/classify.js';
import { formatProblems, type Intent } from '../core/governance/intents.js';
import { isTestArgv, latestLessons, reviewIssuesLesson, testFailureLesson } from '../core/governance/lessons.js';
import { FILE_TOOLS, isSelectIntentTool, mutationOf, type WriteAnalyzer } from '../core/governance/mutations.js';
import { governPreToolUse, type GovernanceContext, type ProjectView } from '../core/governance/policy.js';
import { changedRanges, rangeHash, splitLines } from '../core/governance/ranges.js';
import { sha256 } from '../core/sha256.js';
import { intentContext, SELECT_HOW, sessionSummary } from '../core/governance/render.js';
import { intentSelectCall } from '../core/governance/select-call.js';
import { isInside, resolvePath, type PathContext } from '../core/governance/scope.js';
import { clearIntent, governanceOf, rememberFile, selectIntent, type GovernanceState } from '../core/governance/state.js';
import { symbolsTouched } from '../core/governance/symbols.js';
import { onDemand, rethrowNotLoaded } from '../core/on-demand.js';
import { analysis, destructiveVerdict, writeReport } from './shell-view.js';
import { AGENT_TRACE_VERSION, intentUrn, normaliseModelId, ROZ_NAMESPACE, type MutationClass, type TraceRecord } from '../core/governance/trace-record.js';
import { gitHead } from '../store/git-head.js';
import { randomUuid } from '../store/random-uuid.js';
import { gitTopLevel } from '../store/project-root.js';
import { filesOfGitMove } from '../store/git-moves.js';
import { changedFiles, snapshotWorktree } from '../store/worktree.js';
import { remember, type AuditState } from '../core/governance/audit-state.js';
import { auditVerdict, unattributed } from '../core/governance/audit.js';
import { appendLedger } from '../store/ledger.js';
import { intentMapCacheDir, refreshIntentMap } from '../store/intent-map-file.js';
import { intentsCacheDir } from '../store/intents-cache.js';
import { appendLesson, findProjectRoot, loadProject as loadProjectAt, orchestrationPaths, readLessonsFile } from '../store/orchestration.js';
import { filesIn, protectedLinkTarget, storeFilesFor } from '../store/hard-links.js';
import { resolveReal } from '../store/realpath.js';
import { putPendingSelection, takePendingSelection } from '../store/selections.js';
import type { SessionStore } from '../store/session-store.js';
import { MiB, readRegularFile, readRegularText } from '../store/regular-file.js';

declare const ROZ_VERSION: string;
export const rozVersion = typeof ROZ_VERSION === 'string' ? ROZ_VERSION : '0.0.0-dev';

export interface GovernanceDeps {
  env: Record<string, string | undefined>;
  now: Date;
  /** roz's store root (config.storage.path). */
  storeRoot: string;
  home?: string;
  /** [guard] destructive and [governance] allow_temp_writes from the config. */
  guard?: GuardMode;
  allowTempWrites?: boolean;
  /** Overrides for tests; default to core/shell. */
  writeTargets?: WriteAnalyzer;
  classifyDestructive?: GovernanceContext['destructive'];
}

const LESSONS_FED_BACK = 5;

/**
 * Git moves (`git stash`, `git switch REF`) become the exact files git says
 * they change; where git cannot say, the whole-tree target stays.
 */
function withGitMoves(analyze: WriteAnalyzer, cwd: string): WriteAnalyzer {
  return (command) => {
    const report = analyze(command);
    if (!report.targets.some((t) => t.git)) return report;
    const targets = report.targets.flatMap((t) => {
      if (!t.git) return [t];
      const files = filesOfGitMove(resolveAbs(cwd, t.path), t.git);
      return files === null ? [t] : files.map((path) => ({ path, via: t.via.replace(/ \(.*\)$/, ' (a file it changes)') }));
    });
    return { ...report, targets };
  };
}

function projectFor(gov: GovernanceState, cwd: string, deps: GovernanceDeps): string | null {
  const root = findProjectRoot(cwd, { remembered: gov.project_root, projectDir: deps.env.CLAUDE_PROJECT_DIR });
  if (root) gov.project_root = root;
  return root;
}

/** The project as hooks see it: intents parsed once per change of the file, across processes. */
const loadProject = (root: string, deps: GovernanceDeps): ProjectView =>
  loadProjectAt(root, { cacheDir: intentsCacheDir(deps.storeRoot), home: deps.home ?? deps.env.HOME ?? homedir() });

/** .intentignore patterns roz refused (scope.ts refusedIgnore), said at SessionStart. */
function refusedIgnoreWarning(project: ProjectView): string[] {
  const refused = project.ignored.refused ?? [];
  if (refused.length === 0) return [];
  return [`roz: .orchestration/.intentignore: refused ${refused.map((r) => `\`${r.pattern}\` (${r.why})`).join(', ')}; those paths stay governed`];
}

/**
 * Paths as the kernel resolves them (store/realpath.ts), and a hard link of a
 * protected file (.orchestration, the session's store files) as that file, so
 * every path check applies to it.
 */
function pathContext(project: ProjectView, cwd: string, deps: GovernanceDeps, sessionId: string): PathContext {
  const store = resolveReal(deps.storeRoot);
  const protectedFiles = () => [...filesIn(project.orchestration), ...storeFilesFor(store, sessionId)];
  return {
    cwd,
    home: deps.home ?? deps.env.HOME ?? homedir(),
    root: project.root,
    realish: (abs) => {
      const real = resolveReal(abs);
      return protectedLinkTarget(real, protectedFiles) ?? real;
    },
  };
}

// Files the agent names: a FIFO or device there must not hang the hook (null: nothing to hash).
const PROJECT_FILE_MAX = 256 * MiB;

/** /tmp, $TMPDIR, the client's session temp (CLAUDE_CODE_TMPDIR) and the OS temp, as real paths. */
export function tempDirs(env: Record<string, string | undefined>): string[] {
  const dirs = new Set<string>();
  for (const d of ['/tmp', env.TMPDIR, env.CLAUDE_CODE_TMPDIR, env.TMP, env.TEMP, tmpdir()]) {
    if (d && d.startsWith('/') && d !== '/') dirs.add(resolveReal(d));
  }
  return [...dirs];
}

function hashFile(realPath: string): string | null {
  try {
    return sha256(readRegularFile(realPath, PROJECT_FILE_MAX));
  } catch {
    return null;
  }
}

function readText(realPath: string): string | null {
  try {
    return readRegularText(realPath, PROJECT_FILE_MAX);
  } catch {
    return null;
  }
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A selection made by the MCP server or CLI without a session id: the first hook of this project adopts it. */
function adoptPending(gov: GovernanceState, root: string, sessionId: string, deps: GovernanceDeps, intents: readonly Intent[] | null): TraceNote[] {
  const sel = takePendingSelection(deps.storeRoot, root, sessionId, deps.now);
  if (!sel) return [];
  const intent = intents?.find((i) => i.id === sel.intent_id);
  if (!intent || intent.status !== 'IN_PROGRESS') return [{ type: 'IntentAdoptionSkipped', intent_id: sel.intent_id }];
  selectIntent(gov, sel.intent_id, 'adopted', deps.now);
  return [{ type: 'IntentSelected', intent_id: sel.intent_id, via: 'adopted', from: sel.via }];
}

// ------------------------------------------------------------- scope audit

/** Record the worktree as the audit's base when an intent is (newly) selected; no-op outside git. */
function ensureAuditBase(gov: GovernanceState, root: string, deps: GovernanceDeps): void {
  if (!gov.intent_id || gov.audit?.intent_id === gov.intent_id) return;
  gov.audit = { intent_id: gov.intent_id, base: snapshotWorktree(root, deps.now), written: [], pending: null, flagged: null };
}

/** Paths changed between two trees, relative to the project root (the git top may be above it). */
function changedInProject(root: string, from: string, to: string): string[] | null {
  const changed = changedFiles(root, from, to);
  if (changed === null) return null;
  const top = gitTopLevel(root) ?? root;
  const out: string[] = [];
  for (const p of changed) {
    const rel = relativePath(root, joinPath(top, p)).split(sep).join('/');
    if (rel !== '' && !rel.startsWith('../') && rel !== '..') out.push(rel);
  }
  return out;
}

/** A Bash call about to be asked: remember the worktree, so what it changes is attributed to it once it ran. */
function holdBeforeAsk(audit: AuditState | null, input: HookInput<'PreToolUse'>, root: string, deps: GovernanceDeps): void {
  if (!audit?.base || input.tool_name !== 'Bash' || !input.tool_use_id) return;
  const tree = snapshotWorktree(root, deps.now);
  audit.pending = tree ? { tool_use_id: input.tool_use_id, tree } : null;
}

/** After an asked Bash call ran (so a human let it): its changes count as judged. */
function attributeAsked(audit: AuditState | null, input: HookInput<'PostToolUse'>, root: string, deps: GovernanceDeps): void {
  const pending = audit?.pending;
  if (!audit || !pending || pending.tool_use_id !== input.tool_use_id) return;
  audit.pending = null;
  const now = snapshotWorktree(root, deps.now);
  const changed = now ? changedInProject(root, pending.tree.tree, now.tree) : null;
  if (changed) remember(audit, changed);
}

/**
 * At Stop: files changed since the intent's base, outside its scope, that no
 * judged call wrote, block the stop once (SCOPE_VIOLATION) and are recorded in
 * the ledger as unattributed. Fails safe: git trouble is a warning.
 */
export function governanceStop(state: SessionState, input: HookInput<'Stop'>, deps: GovernanceDeps): PolicyResult {
  try {
    const gov = governanceOf(state);
    const audit = gov.audit;
    if (!gov.intent_id || !audit?.base || audit.intent_id !== gov.intent_id) return result();
    const root = projectFor(gov, input.cwd, deps);
    if (!root) return result();
    const project = loadProject(root, deps);
    const intent = project.intents.ok ? project.intents.intents.find((i) => i.id === gov.intent_id) : undefined;
    if (!intent) return result();
    const now = snapshotWorktree(root, deps.now);
    const changed = now ? changedInProject(root, audit.base.tree, now.tree) : null;
    if (changed === null)
      return result(undefined, [], ['roz: the scope audit could not read the worktree (git failed); changes outside the scope were not checked at this stop']);
    const paths = pathContext(project, root, deps, state.session_id);
    const files = unattributed(changed, intent, audit, (rel) => project.ignored(resolvePath(rel, paths)));
    // Before deciding anything: the ledger append needs the schema (NotLoaded makes the engine load it and rerun).
    if (files.length > 0) onDemand('trace-schema');
    const out = auditVerdict(files, intent, audit);
    if (out.verdict.kind === 'block') {
      try {
        appendUnattributed(state, gov, root, files, deps);
      } catch (err) {
        rethrowNotLoaded(err);
        out.warnings.push(`roz: could not record the unattributed changes in the ledger (${(err as Error).message})`);
      }
    }
    return out;
  } catch (err) {
    rethrowNotLoaded(err);
    return result(
      undefined,
      [{ type: 'GovernanceError', error: (err as Error).message }],
      [`roz: the scope audit failed at this stop: ${(err as Error).message}`],
    );
  }
}

/** What every Agent Trace record roz writes starts with: version, a new id, the time, the git revision, roz. */
function recordHeader(root: string, deps: GovernanceDeps): Pick<TraceRecord, 'version' | 'id' | 'timestamp' | 'vcs' | 'tool'> {
  const revision = gitHead(root);
  return {
    version: AGENT_TRACE_VERSION,
    id: randomUuid(),
    timestamp: deps.now.toISOString(),
    ...(revision ? { vcs: { type: 'git' as const, revision } } : {}),
    tool: { name: 'roz', version: rozVersion },
  };
}

function appendUnattributed(state: SessionState, gov: GovernanceState, root: string, files: readonly string[], deps: GovernanceDeps): void {
  onDemand('trace-schema');
  const record: TraceRecord = {
    ...recordHeader(root, deps),
    files: files.map((path) => ({
      path,
      conversations: [
        { contributor: { type: 'unknown' as const }, ranges: [], ...(gov.intent_id ? { related: [{ type: 'intent', url: intentUrn(gov.intent_id) }] } : {}) },
      ],
    })),
    metadata: {
      [ROZ_NAMESPACE]: {
        session_id: state.session_id,
        intent_id: gov.intent_id!,
        mutation_class: 'INTENT_EVOLUTION',
        tool_name: 'unknown',
        unattributed: true,
      },
    },
  };
  appendLedger(orchestrationPaths(root).ledger, record);
}

// ---------------------------------------------------------------- PreToolUse

/** Gate a tool call. Any internal error on a call that may change files denies it (HOOK_ERROR). */
export function governancePreToolUse(state: SessionState, input: HookInput<'PreToolUse'>, deps: GovernanceDeps): PolicyResult {
  try {
    const gov = governanceOf(state);
    const root = projectFor(gov, input.cwd, deps);
    if (!root) return result();
    const project = loadProject(root, deps);
    const selecting = selectFromBash(gov, state.session_id, input, project, deps);
    if (selecting) return selecting;
    const adopted = adoptPending(gov, root, state.session_id, deps, project.intents.ok ? project.intents.intents : null);
    const ctx: GovernanceContext = {
      project,
      paths: pathContext(project, input.cwd, deps, state.session_id),
      storeRoot: resolveReal(deps.storeRoot),
      writes: withGitMoves(deps.writeTargets ?? writeReport, input.cwd),
      destructive: deps.classifyDestructive ?? destructiveVerdict,
      hashFile,
      guard: deps.guard ?? 'ask',
      tempDirs: deps.allowTempWrites === false ? [] : tempDirs(deps.env),
    };
    ensureAuditBase(gov, root, deps);
    const out = governPreToolUse(gov, input, ctx);
    if (out.verdict.kind === 'ask') holdBeforeAsk(gov.audit, input, root, deps);
    return { ...out, notes: [...adopted, ...out.notes] };
  } catch (err) {
    rethrowNotLoaded(err);
    const mayWrite = FILE_TOOLS.has(input.tool_name) || input.tool_name === 'Bash';
    const why = (err as Error).message ?? String(err);
    if (!mayWrite) return result(undefined, [{ type: 'GovernanceError', error: why }], [`roz: governance error (tool allowed, it changes no files): ${why}`]);
    return result(
      {
        kind: 'deny',
        code: 'HOOK_ERROR',
        reason:
          `roz: intent governance failed while checking this ${input.tool_name} call (${clip(why, 300)}), and file changes are refused when it cannot decide. ` +
          'Try again; if it keeps failing, tell the human (roz debug shows the session).',
      },
      [{ type: 'GovernanceError', error: why }],
    );
  }
}

/**
 * `roz intent select ID` in the agent's Bash: recorded here, by the hook, and
 * the command allowed (it then only reports). Overrides are refused
 * (core/governance/select-call.ts). Null: not such a call.
 */
function selectFromBash(
  gov: GovernanceState,
  sessionId: string,
  input: HookInput<'PreToolUse'>,
  project: ProjectView,
  deps: GovernanceDeps,
): PolicyResult | null {
  if (input.tool_name !== 'Bash' || typeof input.tool_input.command !== 'string' || !input.tool_input.command.includes('select')) return null;
  const argvs = analysis(input.tool_input.command).commands.map((c) => c.argv);
  const call = intentSelectCall(argvs, sessionId);
  if (call.kind === 'none') return null;
  const refuse = (why: string): PolicyResult =>
    result({ kind: 'deny', code: 'INTENT_REQUIRED', reason: `roz: \`roz intent select\` refused: ${why}. ${SELECT_HOW}.` }, [
      { type: 'IntentSelectionRejected', why },
    ]);
  if (call.kind === 'refuse') return refuse(call.why);
  if (!project.intents.ok) return refuse(`${project.intentsFile} is invalid`);
  const intent = project.intents.intents.find((i) => i.id === call.intentId);
  if (!intent || intent.status !== 'IN_PROGRESS') {
    const open = project.intents.intents.filter((i) => i.status === 'IN_PROGRESS').map((i) => i.id);
    return refuse(`${call.intentId} is ${intent ? intent.status : 'not in ' + project.intentsFile} (IN_PROGRESS: ${open.join(', ') || 'none'})`);
  }
  selectIntent(gov, intent.id, 'hook', deps.now);
  return result({ kind: 'allow', reason: `roz: intent ${intent.id} selected for this session (recorded by roz's hook)` }, [
    { type: 'IntentSelected', intent_id: intent.id, via: 'hook' },
  ]);
}

// --------------------------------------------------------------- PostToolUse

/**
 * After a tool ran: bind an intent chosen through the MCP tool, remember what
 * the agent read, record a successful mutation in the ledger and the map, and
 * turn a failed test run into a lesson. Never denies.
 */
export function governancePostToolUse(
  state: SessionState,
  input: HookInput<'PostToolUse'> | HookInput<'PostToolUseFailure'>,
  deps: GovernanceDeps,
): PolicyResult {
  try {
    const gov = governanceOf(state);
    const root = projectFor(gov, input.cwd, deps);
    if (!root) return result();
    if (input.hook_event_name === 'PostToolUseFailure' || 'error' in input) return onFailure(gov, state, input as HookInput<'PostToolUseFailure'>, root, deps);
    const post = input as HookInput<'PostToolUse'>;
    if (isSelectIntentTool(post.tool_name)) return bindFromMcpCall(gov, post, root, deps);
    attributeAsked(gov.audit, post, root, deps);
    const project = loadProject(root, deps);
    const paths = pathContext(project, post.cwd, deps, state.session_id);
    if (post.tool_name === 'Read') {
      const p = post.tool_input.file_path;
      if (typeof p !== 'string') return result();
      const real = resolvePath(p, paths).real;
      const h = hashFile(real);
      if (h) rememberFile(gov, real, h, 'read', deps.now);
      return result();
    }
    return recordMutation(gov, state, post, project, paths, root, deps);
  } catch (err) {
    rethrowNotLoaded(err);
    return result(
      undefined,
      [{ type: 'GovernanceError', error: (err as Error).message }],
      [`roz: could not record this change in .orchestration (${(err as Error).message}); the change itself went through.`],
    );
  }
}

function bindFromMcpCall(gov: GovernanceState, input: HookInput<'PostToolUse'>, root: string, deps: GovernanceDeps): PolicyResult {
  const id = input.tool_input.intent_id;
  if (typeof id !== 'string') return result();
  const project = loadProject(root, deps);
  const intent = project.intents.ok ? project.intents.intents.find((i) => i.id === id) : undefined;
  if (!intent || intent.status !== 'IN_PROGRESS') return result(undefined, [{ type: 'IntentSelectionRejected', intent_id: id }]);
  selectIntent(gov, id, 'hook', deps.now);
  ensureAuditBase(gov, root, deps);
  return result(undefined, [{ type: 'IntentSelected', intent_id: id, via: 'hook' }]);
}

function onFailure(gov: GovernanceState, state: SessionState, input: HookInput<'PostToolUseFailure'>, root: string, deps: GovernanceDeps): PolicyResult {
  if (input.tool_name !== 'Bash' || input.is_interrupt) return result();
  const command = typeof input.tool_input.command === 'string' ? input.tool_input.command : '';
  const isTest = analysis(command).commands.some((c) => isTestArgv(c.argv));
  if (!isTest) return result();
  appendLesson(root, testFailureLesson(deps.now, gov.intent_id, command, input.error ?? '', state.session_id));
  return result(undefined, [{ type: 'LessonRecorded', why: 'test failure' }]);
}

function modelFromTranscript(transcript: string | undefined | null): string | null {
  if (!transcript) return null;
  let fd: number | null = null;
  try {
    fd = openSync(transcript, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const size = st.size;
    // The tail holds the latest assistant message; 256 KiB keeps this under a millisecond.
    const len = Math.min(size, 256 * 1024);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    const all = [...buf.toString('utf8').matchAll(/"model"\s*:\s*"([^"]{1,200})"/g)];
    return all.at(-1)?.[1] ?? null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function recordMutation(
  gov: GovernanceState,
  state: SessionState,
  input: HookInput<'PostToolUse'>,
  project: ProjectView,
  paths: PathContext,
  root: string,
  deps: GovernanceDeps,
): PolicyResult {
  const mutation = mutationOf(input, deps.writeTargets ?? writeReport);
  if (!mutation) return result();
  onDemand('trace-schema'); // before any work: the ledger append needs it
  const response = (input.tool_response ?? {}) as Record<string, unknown>;
  const isFileTool = FILE_TOOLS.has(mutation.tool);
  const files: TraceRecord['files'] = [];
  const classes: MutationClass[] = [];
  const symbols: Record<string, string[]> = {};
  const fileHashes: Record<string, string> = {};
  const modelId = normaliseModelId(gov.model_id ?? modelFromTranscript(input.transcript_path ?? state.transcript_path));
  const conversationBase = {
    ...(input.transcript_path || state.transcript_path ? { url: pathToFileURL((input.transcript_path ?? state.transcript_path)!).href } : {}),
    contributor: { type: 'ai' as const, ...(modelId ? { model_id: modelId } : {}) },
  };

  for (const target of mutation.targets) {
    // "Anything under here" (`git stash`): the Stop audit records what really changed.
    if (target.tree) continue;
    const p = resolvePath(target.path, paths);
    // Judged at PreToolUse (in scope, or let through by a human): not the audit's business.
    if (p.rel !== null && gov.audit) remember(gov.audit, [p.rel]);
    if (p.rel === null || project.ignored(p) || isInside(p.real, project.orchestration)) {
      // Outside the project, or outside governance: keep the stale-file memory right, record nothing.
      const h = hashFile(p.real);
      if (h && gov.files[p.real]) rememberFile(gov, p.real, h, 'write', deps.now);
      continue;
    }
    const after = readText(p.real);
    const before = isFileTool && typeof response.originalFile === 'string' ? response.originalFile : null;
    if (after !== null) {
      const h = sha256(after);
      // Bash writes refresh only files the agent already holds, so a later Edit is not called stale by its own write.
      if (isFileTool || gov.files[p.real]) rememberFile(gov, p.real, h, 'write', deps.now);
      fileHashes[p.rel] = `sha256:${h}`;
    }
    const patch = isFileTool ? response.structuredPatch : undefined;
    const ranges = after === null ? [] : changedRanges(before, after, patch);
    const lines = after === null ? [] : splitLines(after);
    files.push({
      path: p.rel,
      conversations: [
        {
          ...conversationBase,
          ranges: ranges.map((r) => ({ ...r, content_hash: rangeHash(lines, r.start_line, r.end_line) })),
          ...(gov.intent_id ? { related: [{ type: 'intent', url: intentUrn(gov.intent_id) }] } : {}),
        },
      ],
    });
    classes.push(isFileTool ? classifyFileChange(p.rel, before, after) : 'INTENT_EVOLUTION');
    const touched = after !== null ? symbolsTouched(p.rel, after, ranges) : null;
    if (touched && touched.length) symbols[p.rel] = touched;
  }

  // Nothing governed changed (ignored paths only), or the session has no intent (governance let an ignored write through).
  if (files.length === 0 || !gov.intent_id) return result();
  const record: TraceRecord = {
    ...recordHeader(root, deps),
    files,
    metadata: {
      [ROZ_NAMESPACE]: {
        session_id: state.session_id,
        intent_id: gov.intent_id,
        mutation_class: classifyRecord(classes),
        tool_name: mutation.tool,
        ...(input.tool_use_id ? { tool_use_id: input.tool_use_id } : {}),
        ...(input.agent_id ? { agent_id: input.agent_id } : {}),
        ...(Object.keys(symbols).length ? { symbols } : {}),
        ...(Object.keys(fileHashes).length ? { file_hashes: fileHashes } : {}),
      },
    },
  };
  appendLedger(orchestrationPaths(root).ledger, record);
  gov.mutations += 1;
  const warnings: string[] = [];
  try {
    refreshIntentMap(root, project.intents.ok ? project.intents.intents : [], intentMapCacheDir(deps.storeRoot));
  } catch (err) {
    warnings.push(`roz: could not update .orchestration/intent_map.md (${(err as Error).message})`);
  }
  return result(undefined, [{ type: 'LedgerAppended', id: record.id, intent_id: gov.intent_id, files: files.map((f) => f.path) }], warnings);
}

// -------------------------------------------------------------- SessionStart

/** The intents the agent can select and the latest lessons, as additionalContext. */
export function governanceSessionStart(state: SessionState, input: HookInput<'SessionStart'>, deps: GovernanceDeps): PolicyResult {
  try {
    const gov = governanceOf(state);
    const model = (input as Record<string, unknown>).model;
    if (typeof model === 'string' && model) gov.model_id = model;
    const root = projectFor(gov, input.cwd, deps);
    if (!root) return result();
    const project = loadProject(root, deps);
    const lessons = latestLessons(readLessonsFile(root), LESSONS_FED_BACK);
    if (!project.intents.ok) {
      return result({
        kind: 'context',
        text:
          `roz intent governance: ${project.intentsFile} is invalid, so every file change will be refused until the human fixes it:\n` +
          formatProblems(project.intentsFile, project.intents.problems.slice(0, 5)),
      });
    }
    return result(
      { kind: 'context', text: sessionSummary(project.intents.intents, gov.intent_id, lessons) },
      [{ type: 'GovernanceOn', root }],
      refusedIgnoreWarning(project),
    );
  } catch (err) {
    rethrowNotLoaded(err);
    return result(undefined, [], [`roz: could not load intents (${(err as Error).message})`]);
  }
}

// ------------------------------------------------------------- Review ISSUES

/** A reviewer recorded ISSUES: keep it as a lesson for the project. Call after `roz decide ... ISSUES`. */
export function governanceOnReviewIssues(state: SessionState, decision: { summary: string; message?: string }, deps: GovernanceDeps): PolicyResult {
  try {
    const gov = governanceOf(state);
    const root = projectFor(gov, state.cwd ?? deps.env.CLAUDE_PROJECT_DIR ?? process.cwd(), deps);
    if (!root) return result();
    appendLesson(root, reviewIssuesLesson(deps.now, gov.intent_id, decision.summary, decision.message, state.session_id));
    return result(undefined, [{ type: 'LessonRecorded', why: 'review issues' }]);
  } catch (err) {
    return result(undefined, [], [`roz: could not record the review lesson (${(err as Error).message})`]);
  }
}

// ---------------------------------------------------------- selection helpers

export type SelectOutcome = { ok: true; intent: Intent; context: string; root: string } | { ok: false; reason: string };

/** Validate an intent id for a project and build its <intent_context>. Shared by the MCP server and the CLI. */
export function prepareSelection(root: string, intentId: string): SelectOutcome {
  const project = loadProjectAt(root);
  if (!project.intents.ok) {
    return { ok: false, reason: `${project.intentsFile} is invalid:\n${formatProblems(project.intentsFile, project.intents.problems)}` };
  }
  const intents = project.intents.intents;
  const intent = intents.find((i) => i.id === intentId);
  const open = intents.filter((i) => i.status === 'IN_PROGRESS').map((i) => i.id);
  const choices = open.length ? `IN_PROGRESS intents: ${open.join(', ')}` : 'no intent is IN_PROGRESS; ask the human to start one';
  if (!intent) return { ok: false, reason: `no intent ${JSON.stringify(intentId)} in ${project.intentsFile}; ${choices}` };
  if (intent.status !== 'IN_PROGRESS')
    return { ok: false, reason: `intent ${intentId} is ${intent.status}; only IN_PROGRESS intents can be selected (${choices})` };
  return { ok: true, intent, root, context: intentContext(intent, latestLessons(readLessonsFile(root), LESSONS_FED_BACK)) };
}

export type BindOutcome = { ok: true; intent: Intent; context: string; bound: { session: string } | { pending: string } } | { ok: false; reason: string };

/**
 * Select an intent from outside a hook. With a session id the session's state
 * is updated under its lock; without one the selection waits, keyed by
 * project, for the next PreToolUse of a session there to adopt it.
 */
export async function bindSelection(opts: {
  store: SessionStore;
  storeRoot: string;
  root: string;
  intentId: string;
  sessionId: string | null;
  via: 'mcp' | 'cli' | 'human';
  now: Date;
}): Promise<BindOutcome> {
  const prepared = prepareSelection(opts.root, opts.intentId);
  if (!prepared.ok) return prepared;
  if (opts.sessionId) {
    await opts.store.update(opts.sessionId, opts.now, (state) => {
      const gov = governanceOf(state);
      gov.project_root = opts.root;
      selectIntent(gov, opts.intentId, opts.via, opts.now);
      return {
        value: undefined,
        trace: [{ ts: opts.now.toISOString(), event: 'roz:IntentSelected', session_id: opts.sessionId!, intent_id: opts.intentId, via: opts.via }],
      };
    });
    return { ok: true, intent: prepared.intent, context: prepared.context, bound: { session: opts.sessionId } };
  }
  // The human selects for the session on screen; there is always one.
  if (opts.via === 'human') return { ok: false, reason: 'no session to select the intent for' };
  putPendingSelection(opts.storeRoot, { intent_id: opts.intentId, project_root: opts.root, at: opts.now.toISOString(), via: opts.via });
  return { ok: true, intent: prepared.intent, context: prepared.context, bound: { pending: opts.root } };
}

/** Clear a session's selected intent (the human at `roz run`), recorded in its trace. */
export async function clearSelection(opts: { store: SessionStore; sessionId: string; via: 'human'; now: Date }): Promise<string | null> {
  return opts.store.update(opts.sessionId, opts.now, (state) => {
    const gov = governanceOf(state);
    const was = gov.intent_id;
    clearIntent(gov, opts.via, opts.now);
    return { value: was, trace: [{ ts: opts.now.toISOString(), event: 'roz:IntentCleared', session_id: opts.sessionId, intent_id: was, via: opts.via }] };
  });
}

// ------------------------------------------------------------- engine entry

/**
 * The governance answer for any hook event (events it does not handle answer
 * nothing). Throws only NotLoaded (core/on-demand.ts), for the engine to load and retry.
 */
export function runGovernance(event: HookEventName, state: SessionState, input: HookInput, deps: GovernanceDeps): PolicyResult {
  switch (event) {
    case 'SessionStart':
      return governanceSessionStart(state, input as HookInput<'SessionStart'>, deps);
    case 'PreToolUse':
      return governancePreToolUse(state, input as HookInput<'PreToolUse'>, deps);
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return governancePostToolUse(state, input as HookInput<'PostToolUse'> | HookInput<'PostToolUseFailure'>, deps);
    case 'Stop':
      return governanceStop(state, input as HookInput<'Stop'>, deps);
    default:
      return result();
  }
}
