// The `g` answer of the approval panel: the human adds the asked path's glob
// to the intent's owned_scope. Written by the supervisor (trusted) from what
// the human saw and pressed; the agent cannot reach this code. The YAML is
// edited as a document, so the human's comments and layout survive, and the
// change is recorded in the ledger with the human named.
import { readFileSync } from 'node:fs';
import { isMap, isSeq, parseDocument } from 'yaml';
import { parseActiveIntents } from '../core/governance/intents-parser.js';
import { scopeMatcher } from '../core/governance/scope.js';
import { intentUrn, ROZ_NAMESPACE, traceHeader, type TraceRecord } from '../core/governance/trace-record.js';
import { rozVersion } from '../core/version.js';
import { writeFileAtomicSync } from '../store/atomic-write.js';
import { gitHead } from '../store/git-head.js';
import { appendLedger } from '../store/ledger.js';
import { findAgent } from '../store/agent-registry.js';
import { findProjectRoot, orchestrationPaths } from '../store/orchestration.js';
import { intentsHome } from '../store/project-root.js';

export type WidenOutcome = { ok: true; added: string[] } | { ok: false; error: string };

/** Names no project has: a glob that matches them matches files anywhere. */
const ANYWHERE = ['roz-widen-probe-7f3a', 'roz-widen-probe-7f3a/any/file.ts', '.roz-widen-probe-7f3a'];

/**
 * A glob the panel may add: project-relative, no `..`, nothing under
 * .orchestration/, and not one that matches files anywhere (`**`, `*`): the
 * hook offers each path escaped as a literal (core/governance/literal-glob.ts);
 * this catches a raw path from an older hook.
 */
export function acceptableGlob(glob: string): boolean {
  if (glob === '' || glob.startsWith('/') || glob.startsWith('~') || glob.includes('\0')) return false;
  const parts = glob.replace(/^\.\//, '').split('/');
  if (parts.some((p) => p === '..')) return false;
  if (parts[0] === '.orchestration') return false;
  const m = scopeMatcher([glob]);
  return !ANYWHERE.some((p) => m(p)) && !m('.orchestration/active_intents.yaml');
}

/**
 * The project a request came from and the checkout whose intents file `g`
 * edits: for an agent in its worktree, the base checkout's (roz's registry,
 * store/agent-registry.ts: the file its hooks enforce, which its sandbox cannot
 * write), never the copy in the worktree. Null: no governed project.
 */
export function widenTarget(cwd: string, storeRoot: string, projectDir: string | undefined): { root: string; intentsFrom: string } | null {
  const agent = findAgent(storeRoot, cwd)?.roots ?? null;
  const root = findProjectRoot(cwd, { projectDir, agent });
  return root ? { root, intentsFrom: intentsHome(root, agent) } : null;
}

/**
 * Add globs to an intent's owned_scope. `intentsFrom`: the checkout whose
 * intents govern `root` (widenTarget); the file edited and the ledger that
 * records the edit are that checkout's.
 */
export function widenScope(opts: {
  root: string;
  intentsFrom?: string;
  intentId: string;
  globs: readonly string[];
  sessionId: string;
  human: string;
  now: Date;
}): WidenOutcome {
  const bad = opts.globs.filter((g) => !acceptableGlob(g));
  if (bad.length > 0 || opts.globs.length === 0) return { ok: false, error: `refusing to add ${bad.join(', ') || 'nothing'} to a scope` };
  const home = opts.intentsFrom ?? opts.root;
  const file = orchestrationPaths(home).intents;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, error: `cannot read ${file}: ${(err as Error).message}` };
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return { ok: false, error: `${file} does not parse: ${doc.errors[0]!.message}` };
  const list = doc.get('active_intents', true);
  if (!isSeq(list)) return { ok: false, error: `${file} has no active_intents list` };
  const intent = list.items.find((item) => isMap(item) && item.get('id') === opts.intentId);
  if (!isMap(intent)) return { ok: false, error: `intent ${opts.intentId} is not in ${file}` };
  let scope = intent.get('owned_scope', true);
  if (!isSeq(scope)) {
    intent.set('owned_scope', doc.createNode([]));
    scope = intent.get('owned_scope', true);
  }
  if (!isSeq(scope)) return { ok: false, error: 'owned_scope is not a list' };
  const present = new Set(scope.items.map((n) => String((n as { value?: unknown }).value ?? n)));
  const added = opts.globs.filter((g) => !present.has(g));
  for (const g of added) scope.add(doc.createNode(g));
  intent.set('updated_at', opts.now.toISOString().slice(0, 10));
  const next = doc.toString();
  // Never write a file the hooks would then reject.
  const check = parseActiveIntents(next);
  if (!check.ok) return { ok: false, error: `the widened file would be invalid: ${check.problems[0]?.reason ?? 'unknown problem'}` };
  writeFileAtomicSync(home, file, next);
  const record: TraceRecord = {
    ...traceHeader(process.getBuiltinModule('node:crypto').randomUUID(), opts.now, gitHead(home), rozVersion),
    files: [
      {
        path: '.orchestration/active_intents.yaml',
        conversations: [{ contributor: { type: 'human' }, ranges: [], related: [{ type: 'intent', url: intentUrn(opts.intentId) }] }],
      },
    ],
    metadata: {
      [ROZ_NAMESPACE]: {
        session_id: opts.sessionId || 'supervisor',
        intent_id: opts.intentId,
        mutation_class: 'INTENT_EVOLUTION',
        tool_name: 'roz:scope-widened',
        scope_added: added,
        decided_by: opts.human,
      },
    },
  };
  appendLedger(home, orchestrationPaths(home).ledger, record);
  return { ok: true, added };
}
