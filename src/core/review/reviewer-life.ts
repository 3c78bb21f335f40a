// Whether a roz:roz reviewer is still running, from the client's own facts.
// A background reviewer that is killed (TaskStop) never fires SubagentStop, so
// "started and not stopped" alone would keep a dead reviewer alive forever and
// let every later stop through. A run ends on the first fact that says so:
// - its SubagentStop;
// - a TaskStop (KillShell/KillBash on older names) naming its id;
// - a <task-notification> for its id with status killed, failed or stopped;
// - a Stop payload whose `background_tasks` (2.1.330) does not list it running;
// - the configured window (`review.reviewer_timeout_seconds`) running out.
// A run that ended without a decision is an attempt with no decision: the next
// stop is blocked again. Pure.
import type { SessionState } from '../session-state.js';
import type { ReviewerEnd } from './state.js';
import { currentAttempt, isReviewer } from './state.js';

/** Tools that stop a background task; the client renamed KillShell/KillBash to TaskStop. */
const TASK_STOP_TOOLS = new Set(['TaskStop', 'KillShell', 'KillBash']);

export interface EndedReviewer {
  agent_id: string;
  why: ReviewerEnd;
}

/** End one reviewer run (idempotent). Returns true when it was open. */
export function endReviewer(state: SessionState, agentId: string, why: ReviewerEnd, now: Date): boolean {
  const run = state.review.reviewers[agentId];
  if (!run || run.stopped_at !== null) return false;
  run.stopped_at = now.toISOString();
  run.end_reason = why;
  if (!run.decided) {
    const attempt = currentAttempt(state);
    if (attempt && attempt.reviewer_agent_id === agentId) {
      attempt.outcome = 'no_decision';
      attempt.ended_at = run.stopped_at;
    }
  }
  return true;
}

/** The task id a TaskStop-style call names, or null when the call is not one. */
export function stoppedTaskId(toolName: string, toolInput: Record<string, unknown>): string | null {
  if (!TASK_STOP_TOOLS.has(toolName)) return null;
  const id = toolInput.task_id ?? toolInput.shell_id ?? toolInput.bash_id;
  return typeof id === 'string' && id ? id : null;
}

/** `<task-notification>` prompt: the task id and status the client reports. */
export function parseTaskNotification(prompt: string): { task_id: string; status: string } | null {
  const id = /<task-id>([^<]+)<\/task-id>/.exec(prompt)?.[1] ?? /<task_id>([^<]+)<\/task_id>/.exec(prompt)?.[1];
  const status = /<status>([^<]+)<\/status>/.exec(prompt)?.[1];
  if (!id || !status) return null;
  return { task_id: id.trim(), status: status.trim() };
}

const NOTIFIED_END: Record<string, ReviewerEnd> = { killed: 'killed', failed: 'failed', stopped: 'killed' };

/** A task notification that says a reviewer died ends its run. */
export function onTaskNotification(state: SessionState, prompt: string, now: Date): EndedReviewer[] {
  const n = parseTaskNotification(prompt);
  if (!n) return [];
  const why = NOTIFIED_END[n.status];
  if (!why) return [];
  return endReviewer(state, n.task_id, why, now) ? [{ agent_id: n.task_id, why }] : [];
}

interface BackgroundTask {
  id?: unknown;
  status?: unknown;
  agent_type?: unknown;
}

/**
 * At the main agent's Stop: end every open reviewer the client no longer
 * lists as running (when the payload has `background_tasks`), and every one
 * whose window has run out. `timeoutSeconds` 0 = no bound.
 */
export function settleReviewers(state: SessionState, backgroundTasks: unknown, timeoutSeconds: number, now: Date): EndedReviewer[] {
  const ended: EndedReviewer[] = [];
  const listed = Array.isArray(backgroundTasks)
    ? new Set(
        (backgroundTasks as BackgroundTask[])
          .filter((t) => t && typeof t === 'object' && t.status === 'running' && typeof t.id === 'string')
          .map((t) => t.id as string),
      )
    : null;
  for (const [id, run] of Object.entries(state.review.reviewers)) {
    if (run.stopped_at !== null) continue;
    if (listed && !listed.has(id)) {
      if (endReviewer(state, id, 'not_running', now)) ended.push({ agent_id: id, why: 'not_running' });
      continue;
    }
    if (timeoutSeconds > 0 && now.getTime() - Date.parse(run.started_at) > timeoutSeconds * 1000) {
      if (endReviewer(state, id, 'timeout', now)) ended.push({ agent_id: id, why: 'timeout' });
    }
  }
  return ended;
}

/**
 * A tool call made by a reviewer is proof that it runs. A run ended only by
 * inference (absent from one Stop's background_tasks) is opened again; one the
 * client said was stopped, killed or failed, or that ran out its window, stays ended.
 */
export function proofOfLife(state: SessionState, agentId: string | undefined, agentType: string | undefined): boolean {
  if (!agentId || !isReviewer(agentType)) return false;
  const run = state.review.reviewers[agentId];
  if (!run) return false;
  if (run.stopped_at === null) return true;
  if (run.end_reason === 'not_running') {
    run.stopped_at = null;
    delete run.end_reason;
    return true;
  }
  return false;
}
