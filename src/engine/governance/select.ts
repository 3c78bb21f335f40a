// Intent selection from outside a hook: the CLI (`roz intent select`), the
// MCP server and the supervisor (the human) validate an intent and bind it to
// a session, or leave it pending for the project's next hook. Hooks do not
// load this module.
import type { Intent } from '../../core/governance/intents.js';
import { formatProblems } from '../../core/governance/intents.js';
import { latestLessons } from '../../core/governance/lessons.js';
import { intentContext } from '../../core/governance/render.js';
import { clearIntent, governanceOf, selectIntent } from '../../core/governance/state.js';
import { loadProject as loadProjectAt, readLessonsFile } from '../../store/orchestration.js';
import { putPendingSelection } from '../../store/selections.js';
import type { SessionStore } from '../../store/session-store.js';
import { LESSONS_FED_BACK } from './project.js';

export type SelectOutcome = { ok: true; intent: Intent; context: string; root: string } | { ok: false; reason: string };

/**
 * Validate an intent id for a project and build its <intent_context>. Shared
 * by the MCP server, the CLI and the supervisor. `intentsFrom`: the checkout
 * whose intents govern `root` (an agent's base checkout, store/agent-registry.ts).
 */
export function prepareSelection(root: string, intentId: string, intentsFrom?: string | null): SelectOutcome {
  const project = loadProjectAt(root, intentsFrom ? { intentsFrom } : {});
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
  /** Where root's intents are read (an agent's base checkout); default root itself. */
  intentsFrom?: string | null;
}): Promise<BindOutcome> {
  const prepared = prepareSelection(opts.root, opts.intentId, opts.intentsFrom);
  if (!prepared.ok) return prepared;
  if (opts.sessionId) {
    await opts.store.update(opts.sessionId, opts.now, (state) => {
      const gov = governanceOf(state);
      gov.project_root = opts.root;
      gov.intents_root = opts.intentsFrom && opts.intentsFrom !== opts.root ? opts.intentsFrom : null;
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
