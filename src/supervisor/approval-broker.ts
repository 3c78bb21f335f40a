// Holds `ask` verdicts until a human answers from the TUI keyboard. The only
// way to approve is answer(), which only the TUI calls: a frame can create a
// pending approval, never resolve one. A timeout denies.
import { humanReason } from '../core/human-reason.js';
import { FIRST_AGENT } from '../core/fleet/agent-name.js';
import { truncateValue } from '../core/truncate.js';
import type { TraceRecord } from '../store/session-store.js';
import { PROTOCOL_VERSION, type HookFrame } from './hooks/channel-protocol.js';
import type { HookConnection } from './hooks/channel-server.js';
import { RequestIds } from './request-id.js';

export const HEARTBEAT_MS = 1_000;
/** Deny a little before the hook's own deadline so the hook prints our answer, not its fallback. */
const DEADLINE_MARGIN_MS = 750;

export interface PendingApproval {
  id: string;
  /** The fleet agent whose token the request carried (authenticated; never read from the frame). */
  agent_name: string;
  session_id: string;
  event: string;
  tool_name: string;
  tool_use_id?: string;
  /** The full tool input as the hook sent it. */
  tool_input: Record<string, unknown>;
  code: string;
  /** The agent's text: what it reads, shown to the human only under `i`. */
  reason: string;
  /** Why roz asks, in one line for the human (core/human-reason.ts). */
  human: string;
  /** The subagent that asked (the client's agent_type and agent_id); absent for the main agent. */
  agent?: { type?: string; id?: string };
  /** For a scope question: the globs `g` would add to the intent (shown to the human before they press it). */
  widen?: { intent_id: string; globs: string[] };
  /** The hook's cwd, to find the project whose intents `g` edits. */
  cwd?: string;
  received_at: number;
  deadline_at: number;
}

/** A request that left the queue, and how: the approvals history. */
export interface DecidedApproval {
  approval: PendingApproval;
  /** `human`, `timeout`, `session-rule`, or `nobody` (the hook stopped waiting). */
  decided_by: string;
  decision: string;
  scope: string;
  /** The human's block reason, or roz's reason for the outcome. */
  reason: string;
  /** A human's answer: from the TUI's keys or from `roz approve`/`roz block` in a terminal. */
  via?: 'keyboard' | 'terminal';
  wait_ms: number;
  decided_at: number;
}

/** How many decided requests the history keeps (the session trace keeps them all). */
export const HISTORY_LIMIT = 200;
/** The tool input a human decision's trace record carries, as the engine bounds its own. */
const TRACE_INPUT_LIMIT = 8_192;

export type HumanAnswer = ({ action: 'approve-once' } | { action: 'approve-session' } | { action: 'block'; reason: string } | { action: 'widen' }) & {
  /** Where the human answered: the TUI's keys (default) or `roz approve`/`roz block` in their terminal (control-server.ts); traced. */
  via?: 'keyboard' | 'terminal';
};

export interface BrokerOptions {
  timeoutMs: number;
  now?: () => number;
  /** Persist a decision in the session trace (FileSessionStore.appendTrace). */
  record: (sessionId: string, rec: TraceRecord) => void;
  onChange: () => void;
  /** Apply `g`: add the approval's globs to its intent. An error keeps the request pending. */
  widen?: (a: PendingApproval) => { ok: true; added: string[] } | { ok: false; error: string };
}

interface Waiting {
  approval: PendingApproval;
  conn: HookConnection;
  /** The hook's own id for this request: its replies carry it (the human types the short `approval.id`). */
  frameId: string;
  timeout: NodeJS.Timeout;
  heartbeat: NodeJS.Timeout;
}

/** What "approve for this session" remembers: the same tool doing the same thing. */
// The agent is part of the key: a session id is the agent's own words, and
// one agent naming another's session must not borrow its "approve for session".
export function sessionRuleKey(agent: string, sessionId: string, toolName: string, code: string, input: Record<string, unknown>): string {
  const what = input.command ?? input.file_path ?? input.url ?? JSON.stringify(input);
  return `${agent}\u0000${sessionId}\u0000${toolName}\u0000${code}\u0000${String(what)}`;
}

export class ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>();
  private readonly sessionRules = new Set<string>();
  private readonly ids = new RequestIds();
  private readonly decided: DecidedApproval[] = [];
  private readonly now: () => number;

  constructor(private readonly opts: BrokerOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Queue an `ask` frame for a human, or answer it from a rule the human made earlier. */
  /** The request as queued (null: refused, or answered at once by a session rule). */
  request(frame: HookFrame, conn: HookConnection, agentName = FIRST_AGENT): PendingApproval | null {
    if (frame.verdict.kind !== 'ask') throw new Error('only ask verdicts wait for a human');
    // Frame ids come from the hook: one already waiting (another agent's, or a replay) must not replace it.
    if ([...this.waiting.values()].some((w) => w.frameId === frame.id)) {
      conn.reply({ v: PROTOCOL_VERSION, id: frame.id, type: 'error', code: 'DUPLICATE_ID', message: 'a request with this id is already waiting' });
      return null;
    }
    const input = frame.input;
    const toolInput = (input.tool_input && typeof input.tool_input === 'object' ? input.tool_input : {}) as Record<string, unknown>;
    const received = this.now();
    const approval: PendingApproval = {
      // The id the human types (`roz approve ID`): short, unique within the run (request-id.ts).
      id: this.ids.next(),
      agent_name: agentName,
      session_id: typeof input.session_id === 'string' ? input.session_id : '',
      event: frame.event,
      tool_name: typeof input.tool_name === 'string' ? input.tool_name : '?',
      tool_input: toolInput,
      code: frame.verdict.code,
      reason: frame.verdict.reason,
      human: humanReason(frame.verdict as Parameters<typeof humanReason>[0]) ?? frame.verdict.code,
      received_at: received,
      deadline_at: Math.min(received + this.opts.timeoutMs, (frame.deadline ?? Infinity) - DEADLINE_MARGIN_MS),
    };
    if (typeof input.tool_use_id === 'string') approval.tool_use_id = input.tool_use_id;
    if (typeof input.cwd === 'string') approval.cwd = input.cwd;
    if (typeof input.agent_type === 'string' || typeof input.agent_id === 'string') {
      approval.agent = {};
      if (typeof input.agent_type === 'string') approval.agent.type = input.agent_type;
      if (typeof input.agent_id === 'string') approval.agent.id = input.agent_id;
    }
    if (frame.verdict.widen && frame.verdict.widen.globs.length > 0)
      approval.widen = { intent_id: frame.verdict.widen.intent_id, globs: [...frame.verdict.widen.globs] };

    // The client's own dialog is answered by a human each time: no rule of roz's answers it.
    if (
      approval.code !== 'CLIENT_DIALOG' &&
      this.sessionRules.has(sessionRuleKey(approval.agent_name, approval.session_id, approval.tool_name, approval.code, toolInput))
    ) {
      this.settle(approval, conn, frame.id, 'allow', 'roz: approved by the human earlier in this session', 'session-rule', 'session');
      return null;
    }
    const waitMs = Math.max(0, approval.deadline_at - received);
    conn.reply({ v: PROTOCOL_VERSION, id: frame.id, type: 'pending', timeout_ms: waitMs });
    const waiting: Waiting = {
      approval,
      conn,
      frameId: frame.id,
      timeout: setTimeout(() => this.expire(approval.id), waitMs),
      heartbeat: setInterval(() => conn.reply({ v: PROTOCOL_VERSION, id: frame.id, type: 'heartbeat' }), HEARTBEAT_MS),
    };
    this.waiting.set(approval.id, waiting);
    // The hook gave up (fell back to the client's dialog): nothing to answer any more.
    conn.onClose(() => {
      if (!this.waiting.has(approval.id)) return;
      this.drop(approval.id);
      this.trace(approval, { decided_by: 'nobody', decision: 'abandoned', scope: 'once', reason: 'the hook stopped waiting' });
      this.opts.onChange();
    });
    this.opts.onChange();
    return approval;
  }

  pending(): PendingApproval[] {
    return [...this.waiting.values()].map((w) => w.approval).sort((a, b) => a.received_at - b.received_at);
  }

  /** Decided requests, oldest first (bounded). */
  history(): DecidedApproval[] {
    return [...this.decided];
  }

  /** The human's answer from the TUI keyboard. False when it is no longer pending. */
  answer(id: string, answer: HumanAnswer): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    const a = w.approval;
    if (answer.action === 'widen') {
      if (!a.widen || !this.opts.widen) return false;
      const out = this.opts.widen(a);
      if (!out.ok) {
        this.trace(a, { decided_by: 'human', decision: 'widen-failed', scope: 'once', reason: out.error });
        this.opts.onChange();
        return false;
      }
      this.drop(id);
      const what = out.added.length > 0 ? `added ${out.added.join(', ')} to` : `found ${a.widen.globs.join(', ')} already in`;
      this.settle(
        a,
        w.conn,
        w.frameId,
        'allow',
        `roz: the human ${what} the owned_scope of intent ${a.widen.intent_id}`,
        'human',
        'scope',
        out.added.join(', '),
      );
      return true;
    }
    this.drop(id);
    const via = answer.via ?? 'keyboard';
    if (answer.action === 'block') {
      const why = answer.reason.trim() || 'no reason given';
      this.settle(a, w.conn, w.frameId, 'deny', `roz: blocked by the human: ${why}`, 'human', 'once', why, via);
    } else {
      const scope = answer.action === 'approve-session' ? 'session' : 'once';
      if (scope === 'session') this.sessionRules.add(sessionRuleKey(a.agent_name, a.session_id, a.tool_name, a.code, a.tool_input));
      this.settle(
        a,
        w.conn,
        w.frameId,
        'allow',
        scope === 'session' ? 'roz: approved by the human for this session' : 'roz: approved by the human',
        'human',
        scope,
        undefined,
        via,
      );
    }
    return true;
  }

  /**
   * The client's own dialogs of `agent` (its session `sessionId`) that were answered in its pane: an event
   * after them says so (core/client-dialog.ts). They leave the queue; their hooks return no decision.
   */
  withdrawClientDialogs(agent: string, sessionId: string, agentId: string | undefined): number {
    let n = 0;
    for (const w of [...this.waiting.values()]) {
      const a = w.approval;
      if (a.code !== 'CLIENT_DIALOG' || a.agent_name !== agent || a.session_id !== sessionId || a.agent?.id !== agentId) continue;
      this.noDecision(w, 'pane', "answered in the agent's own pane");
      n += 1;
    }
    return n;
  }

  /** A client dialog leaves the queue without roz's decision: the hook returns none, the client's dialog decides. */
  private noDecision(w: Waiting, by: string, reason: string): void {
    this.drop(w.approval.id);
    w.conn.reply({ v: PROTOCOL_VERSION, id: w.frameId, type: 'ack' });
    this.trace(w.approval, { decided_by: by, decision: 'none', scope: 'once', reason });
    this.opts.onChange();
  }

  private expire(id: string): void {
    const w = this.waiting.get(id);
    if (!w) return;
    // roz never answers a client dialog by itself: past the wait, the dialog stays in the agent's pane.
    if (w.approval.code === 'CLIENT_DIALOG') return this.noDecision(w, 'nobody', 'no human answered from roz; the dialog stays in the pane');
    this.drop(id);
    const secs = Math.round((this.now() - w.approval.received_at) / 1000);
    this.settle(
      w.approval,
      w.conn,
      w.frameId,
      'deny',
      `roz: no human answered within ${secs} s, so this was denied (${w.approval.code}). Ask the user to approve it in the roz run window, then retry.`,
      'timeout',
      'once',
    );
  }

  private drop(id: string): void {
    const w = this.waiting.get(id);
    if (!w) return;
    clearTimeout(w.timeout);
    clearInterval(w.heartbeat);
    this.waiting.delete(id);
  }

  private settle(
    a: PendingApproval,
    conn: HookConnection,
    frameId: string,
    decision: 'allow' | 'deny',
    reason: string,
    by: string,
    scope: string,
    humanReason?: string,
    via?: 'keyboard' | 'terminal',
  ): void {
    conn.reply({ v: PROTOCOL_VERSION, id: frameId, type: 'answer', decision, reason });
    this.trace(a, { decided_by: by, decision, scope, reason: humanReason ?? reason, ...(via ? { via } : {}) });
    this.opts.onChange();
  }

  private trace(a: PendingApproval, fields: { decided_by: string; decision: string; scope: string; reason: string; via?: 'keyboard' | 'terminal' }): void {
    const now = this.now();
    const wait = now - a.received_at;
    this.decided.push({ approval: a, ...fields, wait_ms: wait, decided_at: now });
    if (this.decided.length > HISTORY_LIMIT) this.decided.splice(0, this.decided.length - HISTORY_LIMIT);
    // What was decided travels with the decision, so the record is auditable on its own.
    const rec: TraceRecord = {
      ts: new Date(now).toISOString(),
      event: 'roz:HumanDecision',
      session_id: a.session_id,
      type: 'HumanDecision',
      ...fields,
      wait_ms: wait,
      tool_name: a.tool_name,
      code: a.code,
      asked_because: a.reason,
      asked_why: a.human,
      tool_input: truncateValue(a.tool_input, TRACE_INPUT_LIMIT),
    };
    if (a.tool_use_id) rec.tool_use_id = a.tool_use_id;
    if (a.agent?.type) rec.agent_type = a.agent.type;
    if (a.agent?.id) rec.agent_id = a.agent.id;
    this.opts.record(a.session_id, rec);
  }

  /** Stop timers; hooks still waiting see the socket close and fall back. */
  dispose(): void {
    for (const id of [...this.waiting.keys()]) this.drop(id);
  }
}
