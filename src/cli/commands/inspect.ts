// Read-only views of one session: `roz debug`, `roz context`, `roz trace`.
import { existsSync } from 'node:fs';
import { tracePath } from '../../store/paths.js';
import type { TraceRecord } from '../../store/session-store.js';
import type { SessionState } from '../../core/review/state.js';
import { clip } from '../../core/truncate.js';
import { c, cliContext, printJson, resolveSession, UsageError } from '../context.js';

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
    printJson(state);
    return 0;
  }
  const r = state.review;
  const lines = [
    `${c.bold('session')}   ${state.session_id}`,
    `created   ${state.created_at}   updated ${state.updated_at}${state.ended_at ? `   ended ${state.ended_at}` : ''}`,
    `cwd       ${state.cwd ?? '-'}`,
    `review    ${r.enabled ? 'on' : 'off'}, status ${c.bold(r.status)}, blocks ${r.block_count}, trigger ${r.trigger ? r.trigger.kind : '-'}`,
    `breaker   ${r.breaker.open_until ? `open until ${r.breaker.open_until}` : 'closed'}, trips ${r.breaker.trips.length}`,
    `decision  ${r.decision ? `${r.decision.kind.toUpperCase()} ${r.decision.valid ? '' : '(INVALID) '}— ${r.decision.summary}` : '-'}`,
    `events    ${Object.entries(state.counters).map(([k, v]) => `${k}=${v}`).join(' ') || '-'}`,
    `denials   ${Object.entries(state.denials).map(([k, v]) => `${k}=${v}`).join(' ') || '-'}`,
    '',
    c.bold('decision history'),
    ...(r.decision_history.length
      ? r.decision_history.map((d) => `  ${d.decided_at} ${d.kind.toUpperCase()} ${d.valid ? c.green('valid') : c.red(`invalid: ${d.invalid_reason}`)} — ${d.summary}`)
      : ['  -']),
    '',
    c.bold('review attempts'),
    ...(r.attempts.length
      ? r.attempts.map((a) => `  #${a.id} ${a.blocked_at} template=${a.template_id} reason=${a.reason} outcome=${a.outcome}${a.spawned_at ? ` spawned=${a.spawned_at}` : ''}`)
      : ['  -']),
    '',
    c.bold('reviewer runs'),
    ...(Object.keys(r.reviewers).length
      ? Object.entries(r.reviewers).map(([id, run]) => `  ${id} ${run.started_at} → ${run.stopped_at ?? 'running'} decided=${run.decided}`)
      : ['  -']),
    '',
    c.dim('full state: roz debug --json ' + state.session_id),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

export function contextCommand(id: string | undefined, opts: { json?: boolean; last?: boolean }): number {
  const { state } = loadSession(id, opts);
  const r = state.review;
  if (opts.json) {
    printJson({
      session_id: state.session_id,
      created_at: state.created_at,
      cwd: state.cwd,
      user_prompts: r.user_prompts,
      trigger: r.trigger,
      decision_history: r.decision_history,
      second_opinions: state.second_opinions,
    });
    return 0;
  }
  const out: string[] = [`Session: ${state.session_id}`, `Created: ${state.created_at}`, `Project: ${state.cwd ?? 'unknown'}`, ''];
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
  const earlier = r.decision_history.filter((d) => d.valid);
  if (earlier.length > 0) {
    out.push('Earlier decisions in this session:');
    for (const d of earlier) out.push(`  ${d.decided_at} ${d.kind.toUpperCase()}: ${d.summary}${d.message ? ` (asked: ${d.message})` : ''}`);
    out.push('');
  }
  const so = state.second_opinions;
  out.push(
    `Second opinions available: codex ${so?.codex ? 'yes' : 'no'}, gemini ${so?.gemini ? 'yes' : 'no'}` +
      (so && !so.codex && !so.gemini ? ' (fall back to a Claude Opus subagent)' : ''),
  );
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

export function formatTraceLine(r: TraceRecord, verbose: boolean): string {
  const time = r.ts.slice(11, 23);
  const who = r.agent_type ? c.cyan(`[${r.agent_type}]`) + ' ' : '';
  let what = '';
  if (typeof r.tool_name === 'string') {
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
  const verdict = v ? ` → ${v.kind === 'deny' || v.kind === 'block' ? c.red(v.kind) : c.yellow(v.kind)}${v.code ? ` ${v.code}` : ''}` : '';
  let line = `${c.dim(time)} ${c.bold(r.event.padEnd(18))} ${who}${what}${verdict}`;
  if (verbose) {
    const { ts: _t, event: _e, session_id: _s, ...payload } = r;
    line += `\n${JSON.stringify(payload, null, 2).split('\n').map((l) => `    ${l}`).join('\n')}`;
  }
  return line;
}

export async function traceCommand(id: string | undefined, opts: { verbose?: boolean; follow?: boolean; json?: boolean; last?: boolean }): Promise<number> {
  const sid = resolveSession(id, opts);
  const ctx = cliContext();
  const file = tracePath(ctx.config.storage.path, sid);
  if (!existsSync(file) && !ctx.store.read(sid)) throw new UsageError(`unknown session ${sid} (no trace in ${ctx.config.storage.path})`, 3);
  const emit = (r: TraceRecord) =>
    process.stdout.write((opts.json ? JSON.stringify(r) : formatTraceLine(r, opts.verbose === true)) + '\n');
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
