// Policy throughput: roz's real scope matcher (src/core/governance/scope.ts)
// over many globs and paths, against the same loop with a plain prefix
// compare; and the Agent Trace ledger writer used by the 64-process test.
import { appendFileSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { appendLedger } from '../../src/store/ledger.js';
import { AGENT_TRACE_VERSION, ROZ_NAMESPACE, type TraceRecord } from '../../src/core/governance/trace-record.js';
import { scopeMatcher } from '../../src/core/governance/scope.js';
import { loadOnDemand } from '../../src/core/on-demand.js';
import { nowMs, round } from './common.js';

/** Globs shaped like intents' owned_scope: directories, extensions, nested wildcards. */
function makeGlobs(n: number): { globs: string[]; prefixes: string[] } {
  const globs: string[] = [];
  const prefixes: string[] = [];
  for (let i = 0; i < n; i++) {
    switch (i % 4) {
      case 0:
        globs.push(`src/mod${i}/`);
        prefixes.push(`src/mod${i}/`);
        break;
      case 1:
        globs.push(`packages/p${i}/src/**/*.ts`);
        prefixes.push(`packages/p${i}/src/`);
        break;
      case 2:
        globs.push(`lib/area${i}/*.js`);
        prefixes.push(`lib/area${i}/`);
        break;
      default:
        globs.push(`docs/d${i}/**`);
        prefixes.push(`docs/d${i}/`);
    }
  }
  return { globs, prefixes };
}

function makePaths(n: number, globs: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    // Half land in some scope, half nowhere (the slow case: every glob is tried).
    const k = (i * 7919) % (globs * 2);
    out.push(
      k < globs
        ? [`src/mod${k}/file${i}.ts`, `packages/p${k}/src/deep/x${i}.ts`, `lib/area${k}/m${i}.js`, `docs/d${k}/page${i}.md`][k % 4]!
        : `other/dir${k}/file${i}.ts`,
    );
  }
  return out;
}

export function scopeThroughput(nGlobs: number, nPaths: number) {
  const { globs, prefixes } = makeGlobs(nGlobs);
  const paths = makePaths(nPaths, nGlobs);
  const t = nowMs();
  const match = scopeMatcher(globs);
  const compileMs = nowMs() - t;
  const prefixSet = new Set(prefixes);
  const run = (kind: 'roz' | 'prefix'): { ms: number; hits: number } => {
    let hits = 0;
    const t0 = nowMs();
    if (kind === 'roz') {
      for (const p of paths) if (match(p)) hits += 1;
    } else {
      for (const p of paths) {
        // Same question answered the cheap way: a Set lookup of each parent directory.
        let hit = false;
        for (let i = p.indexOf('/'); i >= 0 && !hit; i = p.indexOf('/', i + 1)) hit = prefixSet.has(p.slice(0, i + 1));
        if (hit) hits += 1;
      }
    }
    return { ms: nowMs() - t0, hits };
  };
  // Warm both, then alternate three timed passes and keep the best of each.
  run('roz');
  run('prefix');
  const best = { roz: Infinity, prefix: Infinity };
  const hits = { roz: 0, prefix: 0 };
  for (let r = 0; r < 3; r++) {
    for (const k of ['roz', 'prefix'] as const) {
      const x = run(k);
      best[k] = Math.min(best[k], x.ms);
      hits[k] = x.hits;
    }
  }
  // The realistic case for comparison: a handful of intents' globs.
  const few = scopeMatcher(globs.slice(0, 10));
  const t1 = nowMs();
  for (const p of paths) few(p);
  const fewMs = nowMs() - t1;
  return {
    globs: nGlobs,
    paths: nPaths,
    compile_ms: round(compileMs, 1),
    roz_checks_per_second: Math.round(nPaths / (best.roz / 1000)),
    roz_glob_tests_per_second: Math.round((nPaths * nGlobs) / (best.roz / 1000)),
    baseline_prefix_set_checks_per_second: Math.round(nPaths / (best.prefix / 1000)),
    roz_checks_per_second_10_globs: Math.round(nPaths / (fewMs / 1000)),
    ratio_baseline_over_roz: round(best.roz / best.prefix, 1),
    roz_hits: hits.roz,
    baseline_hits: hits.prefix,
  };
}

/** One Agent Trace record, tagged with its writer and sequence so lost or torn lines can be counted. */
export function ledgerRecord(writer: number, seq: number): TraceRecord {
  return {
    version: AGENT_TRACE_VERSION,
    id: randomUUID(),
    timestamp: new Date().toISOString(),
    vcs: { type: 'git', revision: '0123456789abcdef0123456789abcdef01234567' },
    tool: { name: 'roz', version: '0.1.0' },
    files: [
      {
        path: `src/writer${writer}/file${seq}.ts`,
        conversations: [
          { contributor: { type: 'ai', model_id: 'claude' }, ranges: [{ start_line: 1, end_line: 40, content_hash: `sha256:${'ab'.repeat(32)}` }] },
        ],
      },
    ],
    metadata: {
      [ROZ_NAMESPACE]: {
        session_id: `bench-ledger-${writer}`,
        intent_id: 'INT-BENCH',
        mutation_class: 'AST_REFACTOR',
        tool_name: 'Write',
        tool_use_id: `w${writer}-${seq}`,
      },
    },
  };
}

/**
 * A writer process: says "ready", waits for "go" on stdin (so all 64 start at
 * once), appends `count` records, prints its start and end times.
 */
export async function ledgerWriter(file: string, mode: string, writer: number, count: number): Promise<void> {
  const records = Array.from({ length: count }, (_, i) => ledgerRecord(writer, i));
  const lines = records.map((r) => `${JSON.stringify(r)}\n`);
  await loadOnDemand('trace-schema');
  process.stdout.write('ready\n');
  await new Promise<void>((res) => process.stdin.once('data', () => res()));
  const start = performance.timeOrigin + performance.now();
  if (mode === 'ledger') for (const r of records) appendLedger(dirname(file), file, r);
  else for (const l of lines) appendFileSync(file, l);
  const end = performance.timeOrigin + performance.now();
  process.stdout.write(`${JSON.stringify({ start, end })}\n`);
  process.exit(0);
}

/** Every line a whole JSON record, every (writer, seq) exactly once. */
export function checkLedger(file: string, writers: number, count: number): { lines: number; lost_lines: number; torn_lines: number; duplicates: number } {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').filter(Boolean);
  const seen = new Set<string>();
  let torn = 0;
  let dup = 0;
  for (const l of lines) {
    try {
      const id = (JSON.parse(l) as TraceRecord).metadata[ROZ_NAMESPACE].tool_use_id!;
      if (seen.has(id)) dup += 1;
      seen.add(id);
    } catch {
      torn += 1;
    }
  }
  let lost = 0;
  for (let w = 0; w < writers; w++) for (let i = 0; i < count; i++) if (!seen.has(`w${w}-${i}`)) lost += 1;
  return { lines: lines.length, lost_lines: lost, torn_lines: torn, duplicates: dup };
}
