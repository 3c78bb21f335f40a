// `roz blame FILE[:LINE]`: which intent, session and model last wrote those
// lines according to the ledger, and whether they still match their hash.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { blame, type BlameHit } from '../../core/governance/blame.js';
import { splitLines } from '../../core/governance/ranges.js';
import { resolvePath } from '../../core/governance/scope.js';
import { readLedger } from '../../store/ledger.js';
import { orchestrationPaths } from '../../store/orchestration.js';
import { resolveReal } from '../../store/realpath.js';
import { c, printJson, table, UsageError } from '../context.js';
import { cliProjectRoot, type IntentOptions } from './intent.js';

export function parseBlameTarget(target: string): { file: string; line?: number } {
  const m = /^(.*):(\d+)$/.exec(target);
  if (m && m[1]) return { file: m[1], line: Number(m[2]) };
  return { file: target };
}

const statusText = (h: BlameHit): string =>
  h.status === 'intact'
    ? c.green('intact')
    : h.status === 'moved'
      ? c.yellow(`moved to ${h.moved_to!.start_line}-${h.moved_to!.end_line}`)
      : h.status === 'changed'
        ? c.red('changed since')
        : 'no hash';

export function blameCommand(target: string, opts: IntentOptions): number {
  const { file, line } = parseBlameTarget(target);
  if (line !== undefined && line < 1) throw new UsageError('line numbers start at 1');
  const root = cliProjectRoot(opts);
  const realRoot = resolveReal(root);
  const p = resolvePath(file, { cwd: process.cwd(), home: process.env.HOME ?? '', root: realRoot, realish: resolveReal });
  if (p.rel === null) throw new UsageError(`${file} is outside the project ${root}`);
  let current: string[] | null = null;
  try {
    current = splitLines(readFileSync(resolve(p.real), 'utf8'));
  } catch {
    current = null;
  }
  const { records } = readLedger(orchestrationPaths(root).ledger);
  const hits = blame(records, p.rel, current, line);
  if (opts.json) {
    printJson({ path: p.rel, line: line ?? null, exists: current !== null, hits });
    return hits.length ? 0 : 1;
  }
  if (hits.length === 0) {
    process.stdout.write(`${p.rel}${line ? `:${line}` : ''}: no change by an agent recorded in the ledger\n`);
    return 1;
  }
  const rows = [
    ['LINES', 'INTENT', 'SESSION', 'MODEL', 'WHEN', 'CLASS', 'NOW'],
    ...hits.map((h) => [
      `${h.range.start_line}-${h.range.end_line}`,
      h.intent_id,
      h.session_id,
      h.model_id ?? '-',
      h.timestamp.slice(0, 19),
      h.mutation_class,
      statusText(h),
    ]),
  ];
  process.stdout.write(`${c.bold(p.rel)}${current === null ? c.red(' (file no longer exists)') : ''}\n${table(rows)}\n`);
  return 0;
}
