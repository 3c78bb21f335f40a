// Read-only views of one session: `roz debug`, `roz context`, `roz trace`.
import { existsSync } from 'node:fs';
import { tracePath } from '../../store/paths.js';
import type { TraceRecord } from '../../store/session-store.js';
import type { SessionState } from '../../core/session-state.js';
import { clip } from '../../core/truncate.js';
import { humanReason } from '../../core/human-reason.js';
import type { Verdict } from '../../core/verdict.js';
import { c, cliContext, printJson, resolveSession, UsageError } from '../context.js';
import { changedBetween, commitsSince, diffBetween, takeSnapshot } from '../../store/tree-snapshot.js';
import type { RozConfig } from '../../core/config.js';
import { isRozFile, rozFileKind } from '../../core/fleet/roz-files.js';
import type { GitIdentity } from '../../store/git-repo.js';
import { committedRozFiles, mergeView, type CommittedRozFiles, type MergeView } from '../../store/committed-roz-files.js';

function loadSession(id: string | undefined, opts: { last?: boolean }): { sid: string; state: SessionState; ctx: ReturnType<typeof cliContext> } {
  const sid = resolveSession(id, opts);
  const ctx = cliContext();
  const state = ctx.store.read(sid);
  if (!state) throw new UsageError(`unknown session ${sid} (no state in ${ctx.config.storage.path})`, 3);
  return { sid, state, ctx };
}

export function debugCommand(id: string | undefined, opts: { json?: boolean; last?: boolean }): number {
  const { state } = loadSession(id, opts);
  if (opts.json) {
    // "enforcement" is the mode as a word, its reasons beside it (state.enforcement holds both).
    const { enforcement, ...rest } = state;
    printJson({ ...rest, enforcement: enforcement?.mode ?? null, enforcement_reasons: enforcement?.reasons ?? [] });
    return 0;
  }
  const r = state.review;
  const e = state.enforcement;
  const lines = [
    `${c.bold('session')}   ${state.session_id}`,
    `created   ${state.created_at}   updated ${state.updated_at}${state.ended_at ? `   ended ${state.ended_at}` : ''}`,
    `cwd       ${state.cwd ?? '-'}`,
    `mode      ${e ? (e.mode === 'enforced' ? c.green('enforced') : `${c.red('ADVISORY')}: ${e.reasons.join('; ')}`) : '-'}`,
    `review    ${r.enabled ? 'on' : 'off'}, status ${c.bold(r.status)}, blocks ${r.block_count}, trigger ${r.trigger ? r.trigger.kind : '-'}`,
    `breaker   ${r.breaker.open_until ? `open until ${r.breaker.open_until}` : 'closed'}, trips ${r.breaker.trips.length}`,
    `base      ${r.base ? `HEAD ${r.base.head?.slice(0, 12) ?? '-'}, tree ${r.base.tree.slice(0, 12)} at ${r.base.at}` : '-'}`,
    ...(r.rearmed ? [`rearmed   ${r.rearmed.at}: ${r.rearmed.files.join(', ')} ${r.rearmed.why}`] : []),
    `decision  ${r.decision ? `${r.decision.kind.toUpperCase()} ${r.decision.valid ? '' : '(INVALID) '}— ${r.decision.summary}` : '-'}`,
    `events    ${
      Object.entries(state.counters)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ') || '-'
    }`,
    `denials   ${
      Object.entries(state.denials)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ') || '-'
    }`,
    '',
    c.bold('decision history'),
    ...(r.decision_history.length
      ? r.decision_history.flatMap((d) => [
          `  ${d.decided_at} ${d.kind.toUpperCase()} ${d.valid ? c.green('valid') : c.red(`invalid: ${d.invalid_reason}`)} — ${d.summary}`,
          `      by ${d.agent_id ?? '-'}; tree ${d.tree ? d.tree.slice(0, 12) : '-'}${d.covers ? `; covers ${d.covers.length} file(s)` : ''}; ` +
            (d.opinions?.length
              ? `second opinions: ${d.opinions.join(', ')}`
              : d.no_opinion
                ? `no second opinion: ${d.no_opinion}`
                : 'no second opinion recorded') +
            (d.opinion_policy ? ` (policy ${d.opinion_policy})` : ''),
        ])
      : ['  -']),
    '',
    c.bold('review attempts'),
    ...(r.attempts.length
      ? r.attempts.map(
          (a) =>
            `  #${a.id} ${a.blocked_at} template=${a.template_id} reason=${a.reason} outcome=${a.outcome}${a.spawned_at ? ` spawned=${a.spawned_at}` : ''}`,
        )
      : ['  -']),
    '',
    c.bold('reviewer runs'),
    ...(Object.keys(r.reviewers).length
      ? Object.entries(r.reviewers).map(
          ([id, run]) => `  ${id} ${run.started_at} → ${run.stopped_at ?? 'running'}${run.end_reason ? ` (${run.end_reason})` : ''} decided=${run.decided}`,
        )
      : ['  -']),
    '',
    c.dim('full state: roz debug --json ' + state.session_id),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

/** The diff a reviewer reads: from the review's base (HEAD and worktree at the trigger) to the worktree now, commits included. */
interface ChangeView {
  base: { head: string | null; tree: string; at: string } | null;
  now: { head: string | null; tree: string } | null;
  commits: string[];
  files: string[];
  diff: string;
  truncated: boolean;
  note?: string;
  /** roz's own files as the commits since the base hold them (they can differ from the files on disk: issue 29). */
  roz_files?: CommittedRozFiles;
  /** In an agent's worktree: every path `roz agent merge` would bring. */
  merge?: MergeView;
}

const DIFF_LIMIT = 400_000;
const clipDiff = (d: string): string => (d.length > DIFF_LIMIT ? `${d.slice(0, DIFF_LIMIT)}\n... (truncated)` : d.trimEnd());
/** How old the reviewer's hook snapshot may be to stand for "now" in `roz context`. */
const SEEN_FRESH_MS = 60_000;

function changeView(state: SessionState, storeDir: string): ChangeView {
  // The session's project as SessionStart recorded it (not wherever the agent cd'd since).
  const project = state.git?.project_dir ?? state.cwd ?? process.cwd();
  const expect = state.git?.identity ?? null;
  const base = state.review.base ?? null;
  // The hook of this very `roz context` call (a reviewer's) has just snapshotted
  // the worktree, outside the Bash sandbox: show that tree, the one the
  // decision will be bound to. Otherwise (a human, an older session) take one.
  const seen = Object.values(state.review.reviewers)
    .filter((r) => r.seen_tree && r.seen_at && Date.now() - Date.parse(r.seen_at) < SEEN_FRESH_MS)
    .sort((a, b) => Date.parse(b.seen_at!) - Date.parse(a.seen_at!))[0];
  let snapError: string | null = null;
  let now: ChangeView['now'] = null;
  if (seen) now = { head: null, tree: seen.seen_tree! };
  else {
    const r = takeSnapshot(project, storeDir, { expect });
    if (r.ok) now = r.snapshot;
    else snapError = r.error;
  }
  const log = base?.head ? commitsSince(project, base.head, expect) : { ok: true as const, lines: [] };
  const commits = log.ok ? log.lines : [];
  const commitsNote = log.ok
    ? undefined
    : `could not list the commits since ${base!.head!.slice(0, 12)} (${log.error}); run git log ${base!.head!.slice(0, 12)}..HEAD`;
  const empty = (note: string): ChangeView => ({
    base,
    now,
    commits,
    files: [],
    diff: '',
    truncated: false,
    note: [note, commitsNote].filter(Boolean).join('; '),
  });
  if (!now) {
    return empty(
      base
        ? `could not snapshot the work tree (${snapError}): read the changed files yourself (git status, git diff) and say so in your decision`
        : `no review base and no snapshot of ${project} (${snapError}): read the files yourself (git status, git diff HEAD)`,
    );
  }
  // Without a recorded base (an older session) there is nothing roz hashed to compare with.
  if (!base) return empty('no review base was recorded for this session: read the changes yourself (git status, git diff HEAD)');
  const d = diffBetween(storeDir, base.tree, now.tree);
  const full = d.ok ? d.diff : '';
  const extra = committedExtras(storeDir, project, base.head, expect);
  const notes = [d.ok ? '' : `roz could not diff its snapshots (${d.error})`, commitsNote, ...extra.notes].filter(Boolean);
  return {
    base,
    now,
    commits,
    files: changedBetween(storeDir, base.tree, now.tree) ?? [],
    diff: full.length > DIFF_LIMIT ? full.slice(0, DIFF_LIMIT) : full,
    truncated: full.length > DIFF_LIMIT,
    ...(notes.length === 0 ? {} : { note: notes.join('; ') }),
    ...(extra.roz_files ? { roz_files: extra.roz_files } : {}),
    ...(extra.merge ? { merge: extra.merge } : {}),
  };
}

/** roz's files as committed since the base, and what a merge of an agent's branch brings (store/committed-roz-files.ts). */
function committedExtras(
  storeDir: string,
  project: string,
  baseHead: string | null,
  expect: GitIdentity | null,
): { roz_files?: CommittedRozFiles; merge?: MergeView; notes: string[] } {
  const notes: string[] = [];
  const out: { roz_files?: CommittedRozFiles; merge?: MergeView; notes: string[] } = { notes };
  if (baseHead) {
    const r = committedRozFiles(project, baseHead, expect ?? null);
    if (r.ok) {
      if (r.view.files.length > 0) out.roz_files = r.view;
    } else
      notes.push(
        `could not read roz's files in the commits since ${baseHead.slice(0, 12)} (${r.error}); run git diff ${baseHead.slice(0, 12)} HEAD -- .orchestration`,
      );
  }
  const m = mergeView(storeDir, project);
  if (m.ok) {
    if (m.view) out.merge = m.view;
  } else notes.push(`could not list what a merge of this branch brings (${m.error})`);
  return out;
}

/** A changed path as the reviewer reads it: roz's own files marked. */
const marked = (path: string): string => (isRozFile(path) ? `${path}   <- roz's file (${rozFileKind(path)})` : path);

function secondOpinionLines(config: RozConfig, available: SessionState['second_opinions']): string[] {
  const policy = config.review.second_opinion;
  const m = config.external_models;
  if (policy === 'off') return ['Second opinions: off for this project ([review] second_opinion = "off").'];
  const lines = [
    `Second opinions ([review] second_opinion = "${policy}"): ask in this order and use the first that answers;` +
      (policy === 'required' ? ' COMPLETE is refused without --opinions.' : ' if none can be had, say why with --no-opinion.'),
  ];
  const ask = '"Review this change against the request: <the request>, <the diff or the files>"';
  let n = 1;
  if (m.codex)
    lines.push(
      `  ${n++}. codex (${available?.codex ? 'on PATH' : 'not found at session start'}): ${m.codex} exec -s read-only -m ${m.codex_model} -c reasoning=high ${ask}`,
    );
  if (m.gemini) lines.push(`  ${n++}. gemini (${available?.gemini ? 'on PATH' : 'not found at session start'}): ${m.gemini} -s -m ${m.gemini_model} -p ${ask}`);
  if (m.claude) {
    lines.push(
      `  ${n++}. a Claude model: ${m.claude} -p --model ${m.claude_model} ${ask}` +
        ' (if `claude` is not on PATH, use "$CLAUDE_CODE_EXECPATH"; same model family as you: weigh it lower)',
    );
  }
  lines.push('Record what you used: roz decide ... --opinions codex,gemini,claude  (or --no-opinion "why none could be had")');
  return lines;
}

export function contextCommand(id: string | undefined, opts: { json?: boolean; last?: boolean }): number {
  const { state, ctx } = loadSession(id, opts);
  const r = state.review;
  const change = changeView(state, ctx.config.storage.path);
  if (opts.json) {
    printJson({
      session_id: state.session_id,
      created_at: state.created_at,
      cwd: state.cwd,
      user_prompts: r.user_prompts,
      trigger: r.trigger,
      decision_history: r.decision_history,
      second_opinions: state.second_opinions,
      second_opinion_policy: ctx.config.review.second_opinion,
      change,
    });
    return 0;
  }
  const out: string[] = [`Session: ${state.session_id}`, `Created: ${state.created_at}`, `Project: ${state.git?.project_dir ?? state.cwd ?? 'unknown'}`, ''];
  out.push('User prompts:');
  r.user_prompts.forEach((p, i) => {
    out.push(`[${i + 1}] ${p.at}${p.truncated ? ' (truncated)' : ''}`);
    out.push(...p.text.split('\n').map((l) => `    ${l}`));
    out.push('');
  });
  if (r.user_prompts.length === 0) out.push('  (none recorded)', '');
  if (r.trigger?.kind === 'gate') {
    out.push(`Review triggered by gate "${r.trigger.pattern}": the agent tried ${r.trigger.command ?? r.trigger.tool_name}`, '');
  }
  if (r.rearmed) out.push(`Changed after the last approval (${r.rearmed.why}): ${r.rearmed.files.join(', ') || '(see the diff)'}`, '');
  const earlier = r.decision_history.filter((d) => d.valid);
  if (earlier.length > 0) {
    out.push('Earlier decisions in this session:');
    for (const d of earlier) out.push(`  ${d.decided_at} ${d.kind.toUpperCase()}: ${d.summary}${d.message ? ` (asked: ${d.message})` : ''}`);
    out.push('');
  }
  out.push(...secondOpinionLines(ctx.config, state.second_opinions), '');
  out.push(
    change.base
      ? `Changes since the review started (${change.base.at}; base commit ${change.base.head?.slice(0, 12) ?? '(none)'}, tree ${change.base.tree.slice(0, 12)}), commits included:`
      : 'Changes:',
  );
  if (change.note) out.push(`  note: ${change.note}`);
  if (change.commits.length > 0) {
    out.push(`Commits made since then (${change.commits.length}):`);
    for (const line of change.commits) out.push(`  ${line}`);
  }
  out.push(`Changed files (${change.files.length}):`);
  for (const f of change.files) out.push(`  ${marked(f)}`);
  if (change.files.length === 0) out.push('  (none)');
  if (change.diff) {
    out.push('', 'Diff:', change.diff.trimEnd());
    if (change.truncated && change.now) {
      out.push(`... (diff truncated; the whole of it: git diff ${change.base?.tree ?? change.now.head} ${change.now.tree})`);
    }
  }
  // What the commits hold can differ from the files above (a commit made by git plumbing writes no file).
  if (change.roz_files) {
    out.push(
      '',
      `ROZ'S OWN FILES CHANGED BY COMMITS since the review started (${change.roz_files.files.length}): roz writes these itself (the ledger) or only the human changes them (intents, .intentignore, lessons); an agent's commit of them is not its work. roz agent merge refuses a branch that changes them, and takes only ledger records roz wrote:`,
    );
    for (const l of change.roz_files.files) out.push(`  ${l.replace(/\t(.*)$/, (_m, p: string) => `\t${marked(p)}`)}`);
    out.push("Diff of roz's files (HEAD against the review's base commit):", clipDiff(change.roz_files.diff));
  }
  if (change.merge) {
    const m = change.merge;
    out.push(
      '',
      `What \`roz agent merge ${m.agent}\` would bring into ${m.base} (${m.branch} against its merge base with ${m.base}; commits made before this review included) (${m.files.length}):`,
    );
    for (const l of m.files) out.push(`  ${l.replace(/\t(.*)$/, (_m, p: string) => `\t${marked(p)}`)}`);
    if (m.files.length === 0) out.push('  (nothing)');
    if (m.rozDiff)
      out.push(
        "roz's files in it are not the agent's work: roz agent merge refuses a branch that changes the intents, .intentignore, lessons or the map, and takes from the ledger only records roz wrote. Diff of roz's files in it:",
        clipDiff(m.rozDiff),
      );
  }
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

/** A human gate's outcome on one line: what was asked, the verdict, who decided, after how long, and why. */
function humanDecisionText(r: TraceRecord): string {
  const input = (r.tool_input as { value?: unknown } | undefined)?.value as Record<string, unknown> | undefined;
  const detail = input && typeof input === 'object' ? (input.command ?? input.file_path ?? '') : '';
  const verdict = r.decision === 'allow' ? c.green('allow') : r.decision === 'deny' ? c.red('deny') : c.yellow(String(r.decision));
  const wait = typeof r.wait_ms === 'number' ? ` after ${(r.wait_ms / 1000).toFixed(1)}s` : '';
  const scope = r.scope === 'session' ? ' for the session' : '';
  return `${String(r.tool_name ?? '?')}${detail ? ` ${clip(String(detail), 60)}` : ''} → ${verdict}${scope} by ${String(r.decided_by)}${wait}${r.code ? ` (${String(r.code)})` : ''}: ${String(r.reason ?? '')}`;
}

export function formatTraceLine(r: TraceRecord, verbose: boolean): string {
  const time = r.ts.slice(11, 23);
  const who = r.agent_type ? c.cyan(`[${r.agent_type}]`) + ' ' : '';
  let what = '';
  if (r.event === 'roz:HumanDecision') {
    what = humanDecisionText(r);
  } else if (typeof r.tool_name === 'string') {
    const input = (r.tool_input as { value?: unknown } | undefined)?.value as Record<string, unknown> | string | undefined;
    const detail = typeof input === 'object' && input ? (input.command ?? input.file_path ?? input.subagent_type ?? '') : '';
    what = `${r.tool_name}${detail ? ` ${clip(String(detail), 80)}` : ''}`;
  } else if (r.prompt) {
    what = clip(String((r.prompt as { value?: unknown }).value ?? ''), 80);
  } else if (r.event.startsWith('roz:')) {
    const { ts: _t, event: _e, session_id: _s, type: _ty, ...rest } = r;
    what = clip(JSON.stringify(rest), 100);
  }
  const v = r.verdict as { kind: string; code?: string; reason?: string } | undefined;
  // The human's one line, not the agent's instructions (those are in --verbose and --json).
  const why = v && (v.kind === 'ask' || v.kind === 'deny') && typeof v.reason === 'string' ? humanReason(v as Verdict) : null;
  const verdict = v
    ? ` → ${v.kind === 'deny' || v.kind === 'block' ? c.red(v.kind) : c.yellow(v.kind)}${v.code ? ` ${v.code}` : ''}${why ? `: ${why}` : ''}`
    : '';
  let line = `${c.dim(time)} ${c.bold(r.event.padEnd(18))} ${who}${what}${verdict}`;
  if (verbose) {
    const { ts: _t, event: _e, session_id: _s, ...payload } = r;
    line += `\n${JSON.stringify(payload, null, 2)
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')}`;
  }
  return line;
}

export async function traceCommand(id: string | undefined, opts: { verbose?: boolean; follow?: boolean; json?: boolean; last?: boolean }): Promise<number> {
  const sid = resolveSession(id, opts);
  const ctx = cliContext();
  const file = tracePath(ctx.config.storage.path, sid);
  if (!existsSync(file) && !ctx.store.read(sid)) throw new UsageError(`unknown session ${sid} (no trace in ${ctx.config.storage.path})`, 3);
  const emit = (r: TraceRecord) => process.stdout.write((opts.json ? JSON.stringify(r) : formatTraceLine(r, opts.verbose === true)) + '\n');
  if (!opts.follow) {
    const records = ctx.store.readTrace(sid);
    if (opts.json) printJson(records);
    else records.forEach(emit);
    return 0;
  }
  // Every line from the start, then each one as it is appended (file events, chokidar loaded only here).
  const { followLines } = await import('../follow-file.js');
  const follower = await followLines(file, (line) => {
    try {
      emit(JSON.parse(line) as TraceRecord);
    } catch {
      /* a torn line */
    }
  });
  await new Promise<void>((resolve) => {
    const stop = () => void follower.close().then(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
