// Intent governance at PreToolUse as one pure policy: a mutation needs a
// selected IN_PROGRESS intent, must stay inside its owned_scope, must not be
// based on a stale read, and a destructive command goes to the human.
import { normalize } from 'node:path';
import { guardVerdict, NOBODY_ANSWERS, type GuardMode } from '../guard.js';
import type { HookInput } from '../hook-input.js';
import { outsideProjectLine, outsideScopeLine, unknownWritesLine } from '../human-reason.js';
import { mergeResults, result, type PolicyResult, type TraceNote, type Verdict } from '../verdict.js';
import { formatProblems, type Intent, type IntentsParse } from './intents.js';
import { FILE_TOOLS, mutationOf, PATCH_TOOLS, type Mutation, type WriteAnalyzer, type WriteTarget } from './mutations.js';
import { literalGlob, literalTreeGlob } from './literal-glob.js';
import { intentLine, selectHint, SELECT_HOW } from './render.js';
import { isInside, resolvePath, scopeMatcher, type PathContext, type ResolvedPath } from './scope.js';
import type { GovernanceState } from './state.js';

/** What roz knows about the project the hook runs in. */
export interface ProjectView {
  /** Real path of the project root. */
  root: string;
  /** Real path of `<root>/.orchestration`. */
  orchestration: string;
  /** How the intents file is shown in messages (the base checkout's absolute path when it governs an agent's worktree). */
  intentsFile: string;
  /** Real path of the `.orchestration/` the intents come from, when not this project's (an agent's base checkout). */
  intentsOrchestration?: string;
  intents: IntentsParse;
  /** Paths listed in `.orchestration/.intentignore` (patterns roz refused are in `refused`). */
  ignored: ((p: ResolvedPath) => boolean) & { refused?: Array<{ pattern: string; why: string }> };
}

export interface GovernanceContext {
  project: ProjectView;
  paths: PathContext;
  /** Real path of roz's own store. */
  storeRoot: string;
  writes: WriteAnalyzer;
  destructive: (command: string) => { destructive: boolean; findings: Array<{ rule: string; command: string; why: string }> };
  /** sha256 of a file's content now, null when it does not exist. */
  hashFile: (realPath: string) => string | null;
  /** [guard] destructive; default ask. */
  guard?: GuardMode;
  /** Real paths of temp directories whose writes are not scope violations ([governance] allow_temp_writes). */
  tempDirs?: readonly string[];
}

const deny = (
  code: 'INTENT_REQUIRED' | 'SCOPE_VIOLATION' | 'STALE_FILE' | 'HOOK_ERROR' | 'STORE_PROTECTED',
  reason: string,
  notes: TraceNote[] = [],
  human?: string,
): PolicyResult => result({ kind: 'deny', code, reason: `roz: ${reason}`, ...(human ? { human } : {}) }, notes);

function describeCall(m: Mutation): string {
  return m.command !== null ? `\`${clip(m.command, 200)}\`` : `${m.tool} ${m.targets[0]?.path ?? ''}`.trim();
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/**
 * The one entry: each step below is one idea, in the order a human would ask
 * them (is it a file change at all; do the intents parse; is it roz's own
 * records; is an intent selected; can roz name what it writes; is that in the
 * scope; is the agent working on what is on disk). The first that objects answers.
 */
export function intentsOnPreToolUse(gov: GovernanceState, input: HookInput<'PreToolUse'>, ctx: GovernanceContext): PolicyResult {
  const command = input.tool_name === 'Bash' && typeof input.tool_input.command === 'string' ? input.tool_input.command : null;
  // Destructive commands go to the human even when they write no file we can name (`git push --force`).
  const destructive = command !== null ? ctx.destructive(command) : { destructive: false, findings: [] };
  const found = mutationOf(input, ctx.writes);
  if (!found) return command !== null ? guardVerdict(destructive, `\`${clip(command, 200)}\``, ctx.guard ?? 'ask') : result();
  const what = describeCall(found);
  const { project } = ctx;
  const { mutation, temp } = withTempTargets(found, ctx);

  if (!project.intents.ok) return invalidIntents(what, project);
  const intents = project.intents.intents;
  const resolved = mutation.targets.map((t) => ({ target: t, path: resolvePath(t.path, ctx.paths) }));
  const own = rozOwnWrite(resolved, what, ctx);
  if (own) return own;

  const governed = resolved.filter(({ path }) => !project.ignored(path) && !isScratch(path, ctx));
  const guard = guardVerdict(destructive, what, ctx.guard ?? 'ask');
  // Everything the call writes is listed in .intentignore or is scratch: outside governance.
  if (governed.length === 0 && mutation.unknown.length === 0 && (resolved.length > 0 || temp > 0)) return guard;

  const selected = selectedIntent(gov, intents, what, project);
  if ('verdict' in selected) return selected;
  const intent = selected.intent;

  // Exceptions a human can settle: writes roz cannot name, and writes outside the scope. Each is an ask.
  if (mutation.unknown.length > 0) return unknownWrites(mutation, what, intent, guard);
  const outside = outsideScope(governed, intent);
  if (outside.length > 0) return mergeResults(outsideScopeAsk(outside, what, intent, ctx), guard);
  // A patch (Codex's apply_patch) is judged as its client's file tools are: against the agent's last read or write.
  if (FILE_TOOLS.has(mutation.tool) || PATCH_TOOLS.has(mutation.tool)) return staleFile(governed, gov, ctx, mutation.tool) ?? guard;
  return guard;
}

type Resolved = { target: WriteTarget; path: ResolvedPath };

/**
 * `rm -rf $TMPDIR/x`: scratch when temp writes are allowed and no temp dir
 * holds the project; otherwise a write roz cannot place, so unknown.
 */
function withTempTargets(mutation: Mutation, ctx: GovernanceContext): { mutation: Mutation; temp: number } {
  const temp = mutation.targets.filter((t) => t.temp);
  if (temp.length === 0) return { mutation, temp: 0 };
  const scratchOn = (ctx.tempDirs ?? []).length > 0 && !(ctx.tempDirs ?? []).some((d) => isInside(ctx.project.root, d));
  const unknown = scratchOn ? [] : temp.map((t) => ({ command: t.path, why: `${t.via} writes ${t.path}, a temp path, and temp writes are governed here` }));
  return { mutation: { ...mutation, targets: mutation.targets.filter((t) => !t.temp), unknown: [...mutation.unknown, ...unknown] }, temp: temp.length };
}

function invalidIntents(what: string, project: ProjectView): PolicyResult {
  const problems = project.intents.ok ? [] : project.intents.problems;
  return deny(
    'HOOK_ERROR',
    `${what} is a file change, and intent governance cannot decide it because ${project.intentsFile} is invalid:\n` +
      `${formatProblems(project.intentsFile, problems.slice(0, 5))}\n` +
      'Until it is fixed every change is refused. The file belongs to the human: tell them what is wrong, do not edit it.',
    [{ type: 'GovernanceInvalidIntents', problems: problems.length }],
    `${project.intentsFile} is invalid: every file change is refused`,
  );
}

/** roz's own records are never the agent's to write, whatever the intent. */
function rozOwnWrite(resolved: Resolved[], what: string, ctx: GovernanceContext): PolicyResult | null {
  for (const { path } of resolved) {
    if (isInside(path.real, ctx.project.orchestration)) {
      return deny(
        'SCOPE_VIOLATION',
        `${what} would write ${path.given} inside .orchestration/, which holds the intents, the trace ledger and lessons. ` +
          'Those are maintained by the human and by roz; no intent can own them. Leave them alone and carry on with the task ' +
          '(to change an intent, ask the human).',
        [{ type: 'ScopeViolation', path: path.real, why: 'orchestration' }],
        `writes ${path.given} in .orchestration/ (roz's records)`,
      );
    }
    if (isInside(path.real, ctx.storeRoot)) {
      return deny(
        'STORE_PROTECTED',
        `${what} would write ${path.given} inside roz's own store (${ctx.storeRoot}); that is recorded only by roz. Leave it alone.`,
        [{ type: 'ScopeViolation', path: path.real, why: 'store' }],
        `writes ${path.given} in roz's own store`,
      );
    }
  }
  return null;
}

/**
 * Scratch files under /tmp, $TMPDIR or the client's temp are nobody's scope
 * ([governance] allow_temp_writes). A temp dir that holds the project itself
 * (a checkout under /tmp) is not scratch: its other files are someone's. The
 * home is the user's even where it lies under a temp dir (a CI runner): only a
 * temp dir inside the home ($TMPDIR=~/tmp) makes part of it scratch.
 */
function isScratch(p: ResolvedPath, ctx: GovernanceContext): boolean {
  if (p.rel !== null) return false;
  const scratch = (ctx.tempDirs ?? []).filter((d) => !isInside(ctx.project.root, d));
  if (scratch.length === 0) return false;
  let home: string | undefined;
  // Resolved only for a path inside a temp dir (a realpath: I/O behind ctx.paths).
  const inHome = (real: string): boolean => isInside(real, (home ??= ctx.paths.realish(ctx.paths.home)));
  return scratch.some((d) => isInside(p.real, d) && (!inHome(p.real) || inHome(d)));
}

/** The session's intent, when one is selected and still IN_PROGRESS; else the denial that says how to select one. */
function selectedIntent(gov: GovernanceState, intents: Intent[], what: string, project: ProjectView): { intent: Intent } | PolicyResult {
  if (!gov.intent_id) {
    return deny(
      'INTENT_REQUIRED',
      `${what} changes files, and no intent is selected for this session. ${selectHint(intents)}`,
      [{ type: 'IntentRequired' }],
      'changes files with no intent selected',
    );
  }
  const intent = intents.find((i) => i.id === gov.intent_id);
  if (!intent || intent.status !== 'IN_PROGRESS') {
    const why = intent ? `is now ${intent.status}` : `is no longer in ${project.intentsFile}`;
    return deny(
      'INTENT_REQUIRED',
      `${what} changes files, but the selected intent ${gov.intent_id} ${why}. ${selectHint(intents)}`,
      [{ type: 'IntentRequired', stale_intent: gov.intent_id }],
      `changes files, but intent ${gov.intent_id} ${why}`,
    );
  }
  return { intent };
}

/** Writes roz cannot name: a file tool without a path is refused; a command is the human's to confirm. */
function unknownWrites(mutation: Mutation, what: string, intent: Intent, guard: PolicyResult): PolicyResult {
  if (FILE_TOOLS.has(mutation.tool)) {
    return deny(
      'SCOPE_VIOLATION',
      `${what}: the call names no file, so roz cannot check it against the scope of ${intentLine(intent)}. Name the file in file_path.`,
      [{ type: 'ScopeViolation', unknown: mutation.tool }],
      `${mutation.tool} names no file: ${intent.id}'s scope cannot be checked`,
    );
  }
  const u = mutation.unknown[0]!;
  const ask = result(
    {
      kind: 'ask',
      code: 'SCOPE_VIOLATION',
      reason:
        `roz: ${what}: roz cannot tell which files \`${clip(u.command, 120)}\` writes (${u.why}), so a human must confirm it stays inside the scope of ${intentLine(intent)}. ` +
        `${NOBODY_ANSWERS} To avoid the question, make the change with the Write/Edit tools or with a command whose targets are plain paths (e.g. \`cmd > src/file\`).`,
      human: unknownWritesLine(u.why, intent.id),
    },
    [{ type: 'ScopeViolation', unknown: u.command, why: u.why, asked: true }],
  );
  return mergeResults(ask, guard);
}

/** The governed targets the intent's owned_scope does not cover. */
function outsideScope(governed: Resolved[], intent: Intent): Resolved[] {
  const inScope = scopeMatcher(intent.owned_scope);
  return governed.filter(({ target, path }) => {
    // A tree target (`git stash`) is in scope only when the scope covers everything below it.
    // The project root itself (`git rm -r .`) holds every file: in scope when the scope covers them all.
    const probe = path.rel === null ? null : target.tree || path.rel === '.' ? `${path.rel === '.' ? '' : `${path.rel}/`}.roz-any-path/any-file` : path.rel;
    return probe === null || !inScope(probe);
  });
}

/** A write outside the scope: the human's to approve, with the globs that would widen the scope to it. */
function outsideScopeAsk(outside: Resolved[], what: string, intent: Intent, ctx: GovernanceContext): PolicyResult {
  const { project } = ctx;
  const { target, path } = outside[0]!;
  const where =
    path.rel === null ? `${path.real}, outside the project (${project.root})` : path.rel === '.' && target.tree ? 'files anywhere in the work tree' : path.rel;
  const via = path.real !== pathOfGiven(target.path, ctx.paths) ? ` (resolved through symlinks or \`..\` from ${target.path})` : '';
  const more =
    outside.length > 1
      ? ` (and ${outside.length - 1} more: ${outside
          .slice(1, 4)
          .map((o) => o.path.rel ?? o.path.real)
          .join(', ')})`
      : '';
  // Each path taken literally: a file named `**` or `[!x]*` must not become a wildcard that hands over the repository.
  const literal = outside.map((o) =>
    o.path.rel === null || o.path.rel === '.' ? null : o.target.tree ? literalTreeGlob(o.path.rel) : literalGlob(o.path.rel),
  );
  const globs = literal.every((g) => g !== null) ? [...new Set(literal as string[])] : [];
  const human =
    path.rel === null
      ? outsideProjectLine(path.real)
      : outsideScopeLine(
          path.rel === '.' && target.tree ? 'the whole work tree' : target.tree ? `${path.rel}/` : path.rel,
          intent.id,
          intent.owned_scope,
          outside.length - 1,
        );
  const verdict: Verdict = {
    kind: 'ask',
    code: 'SCOPE_VIOLATION',
    reason:
      `roz: ${what} would write ${where}${via}${more}, which is not in the owned_scope of intent ${intent.id} (${intent.owned_scope.join(', ') || 'empty'}), so a human must approve it. ` +
      `${NOBODY_ANSWERS} Otherwise change only files matching that scope; if this file really must change, ${SELECT_HOW.replace('select one', 'select an intent that owns it')}, or ask the human to widen the scope.`,
    human,
  };
  if (globs.length > 0) verdict.widen = { intent_id: intent.id, globs };
  return result(verdict, [{ type: 'ScopeViolation', path: path.real, intent_id: intent.id, asked: true }]);
}

/** A file tool's target that changed on disk since the agent last read or wrote it: refused until it reads it again. */
function staleFile(governed: Resolved[], gov: GovernanceState, ctx: GovernanceContext, tool: string): PolicyResult | null {
  // A client with no read tool reads in its shell (core/governance/shell-reads.ts).
  const reread = PATCH_TOOLS.has(tool) ? 'Re-read it in your shell (`cat` or `sed -n`)' : 'Re-read it with the Read tool';
  for (const { path } of governed) {
    const known = gov.files[path.real];
    if (!known) continue;
    if (ctx.hashFile(path.real) === known.sha256) continue;
    return deny(
      'STALE_FILE',
      `${path.rel ?? path.real} changed on disk since you last ${known.via === 'read' ? 'read' : 'wrote'} it (${known.at}); ` +
        `someone else (another session or the human) edited it. ${reread}, then make your change on the current content.`,
      [{ type: 'StaleFile', path: path.real }],
      `${path.rel ?? path.real} changed on disk since the agent ${known.via === 'read' ? 'read' : 'wrote'} it`,
    );
  }
  return null;
}

function pathOfGiven(given: string, ctx: PathContext): string {
  // The unresolved absolute form, to tell the agent when a symlink or `..` moved the target.
  return resolvePath(given, { ...ctx, realish: normalize }).real;
}

export type { Intent };
