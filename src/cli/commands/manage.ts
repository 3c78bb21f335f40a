// Store-wide commands: `roz clean`, `roz stats`, `roz config`.
import { computeStatsOfSummaries } from '../../core/stats.js';
import { compactStatsIndex } from '../../store/stats-index.js';
import { cleanSessions, pruneAfterClean } from '../../engine/cleanup.js';
import { c, cliContext, parseDuration, printJson, table, UsageError } from '../context.js';

export async function cleanCommand(opts: { before?: string; all?: boolean; dryRun?: boolean }): Promise<number> {
  if (opts.before && opts.all) throw new UsageError('use either --before or --all, not both');
  const ctx = cliContext();
  const maxAge = opts.before ? parseDuration(opts.before) : ctx.config.cleanup.retention_days * 86_400_000;
  const { removed, kept } = cleanSessions(ctx.store, { cutoff: opts.all ? null : new Date(Date.now() - maxAge), dryRun: opts.dryRun === true });
  if (!opts.dryRun && ctx.store.root !== ':memory:') compactStatsIndex(ctx.store.root, new Set(ctx.store.ids()));
  const n = removed.length;
  process.stdout.write(`roz: ${opts.dryRun ? 'would remove' : 'removed'} ${n} session${n === 1 ? '' : 's'}`);
  process.stdout.write(kept.length ? `; kept ${kept.length} with a pending review (${kept.join(', ')})\n` : '\n');
  if (ctx.store.root !== ':memory:') {
    // The snapshot objects only the removed sessions named (with --dry-run, those of sessions that would stay are counted as kept).
    const p = await pruneAfterClean(ctx.store.root, {
      now: new Date(),
      retentionMs: ctx.config.cleanup.retention_days * 86_400_000,
      dryRun: opts.dryRun === true,
    });
    if (p.skipped) process.stdout.write(`roz: snapshot objects not pruned (${p.skipped})\n`);
    else if (p.objects > 0)
      process.stdout.write(
        `roz: ${opts.dryRun ? 'would prune' : 'pruned'} ${p.removed} of ${p.objects} snapshot objects (${(p.bytesFreed / 1024).toFixed(0)} KiB)\n`,
      );
  }
  return 0;
}

const pct = (x: number | null): string => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);

export function statsCommand(opts: { days?: string; json?: boolean }): number {
  const days = opts.days === undefined ? 30 : Number(opts.days);
  if (!Number.isInteger(days) || days <= 0) throw new UsageError(`--days must be a positive whole number, got ${JSON.stringify(opts.days)}`);
  const ctx = cliContext();
  // The store's stats index (one file), not every session's state: see src/store/stats-index.ts.
  const report = computeStatsOfSummaries(ctx.store.summaries(), new Date(Date.now() - days * 86_400_000));
  if (opts.json) {
    printJson(report);
    return 0;
  }
  const out = [`${c.bold('Template performance')} (last ${days} days: ${report.sessions} sessions, ${report.reviewed_sessions} reviewed)`, ''];
  if (report.templates.length === 0) out.push('  no review blocks recorded');
  else
    out.push(
      table([
        ['template', 'blocks', 'spawned', 'COMPLETE', 'ISSUES', 'no decision', 'not spawned', 'trips', 'avg blocks', 'success'],
        ...report.templates.map((t) => [
          t.template_id,
          String(t.blocks),
          String(t.reviews_spawned),
          String(t.complete),
          String(t.issues),
          String(t.no_decision),
          String(t.not_spawned),
          String(t.breaker_trips),
          t.avg_blocks_to_decision === null ? '-' : t.avg_blocks_to_decision.toFixed(1),
          pct(t.success_rate),
        ]),
      ]),
    );
  const f = report.failures;
  const total = f.not_spawned + f.no_decision + f.bad_session_id + f.self_approval_denied;
  const share = (n: number) => (total ? ` (${Math.round((n / total) * 100)}%)` : '');
  out.push(
    '',
    c.bold('Failure breakdown'),
    `  NotSpawned:          ${f.not_spawned}${share(f.not_spawned)}`,
    `  NoDecision:          ${f.no_decision}${share(f.no_decision)}`,
    `  BadSessionId:        ${f.bad_session_id}${share(f.bad_session_id)}`,
    `  SelfApprovalDenied:  ${f.self_approval_denied}${share(f.self_approval_denied)}`,
    `  Breaker trips:       ${f.breaker_trips}`,
    '',
    c.bold('Enforcement'),
    `  enforced: ${report.enforcement.enforced}   advisory: ${report.enforcement.advisory}${report.enforcement.unknown ? `   unknown: ${report.enforcement.unknown}` : ''}`,
  );
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

export function configCommand(opts: { json?: boolean }): number {
  const ctx = cliContext();
  if (opts.json) {
    printJson({ path: ctx.configPath, files: ctx.configFiles, config: ctx.config, sources: ctx.sources, problems: ctx.problems });
    return 0;
  }
  const rows = [['key', 'value', 'source']];
  for (const [section, values] of Object.entries(ctx.config)) {
    for (const [k, v] of Object.entries(values as Record<string, unknown>)) {
      rows.push([`${section}.${k}`, JSON.stringify(v), ctx.sources[`${section}.${k}`] ?? 'default']);
    }
  }
  const files = ctx.configFiles.map((f) => `${`${f.layer} file:`.padEnd(14)}${f.path} ${f.exists ? c.green('(exists)') : c.dim('(missing)')}`);
  process.stdout.write(`${files.join('\n')}\nthen ROZ_* environment variables; a project file may only tighten (README, Configuration)\n\n${table(rows)}\n`);
  if (ctx.problems.length) process.stdout.write(`\n${c.yellow('problems:')}\n${ctx.problems.map((p) => `  ${p}`).join('\n')}\n`);
  return ctx.problems.length ? 1 : 0;
}
