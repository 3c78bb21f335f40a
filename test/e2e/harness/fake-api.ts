// A scripted fake Anthropic Messages API on loopback, so the real Claude Code
// client can run offline: it replays a scenario (one script for the main agent,
// one for a reviewer subagent) and logs every request it was sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// ---------------------------------------------------------------------------
// Parsed requests
// ---------------------------------------------------------------------------

export type Role = 'main' | 'reviewer' | 'side';

export interface ToolUse {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResult {
  toolUseId: string;
  /** Name of the tool whose call this answers, looked up in earlier assistant turns. */
  toolName: string | undefined;
  /** The tool_use input this answers (same lookup). */
  toolInput: Record<string, unknown> | undefined;
  isError: boolean;
  text: string;
}

export interface ParsedMessage {
  /** Current clients also put `system` messages (context, hook errors) inside `messages`. */
  role: 'user' | 'assistant' | 'system';
  /** All text blocks joined with newlines (tool_result text excluded). */
  text: string;
  toolUses: ToolUse[];
  toolResults: ToolResult[];
}

export interface ParsedRequest {
  /** 1-based position among all /v1/messages requests the server received. */
  index: number;
  /** 1-based position among requests of the same role. */
  turn: number;
  role: Role;
  model: string;
  stream: boolean;
  system: string;
  /** Names of the tools the client offered (empty for side requests). */
  tools: string[];
  messages: ParsedMessage[];
  /**
   * What the model is being told now: every message after the last assistant
   * turn (user messages with text / tool results, and in-band system messages).
   */
  incoming: ParsedMessage[];
  /** Text of `incoming`, tool_result text included. */
  lastUserText: string;
  /** tool_results in `incoming`. */
  toolResults: ToolResult[];
  /** `Stop hook feedback:` text in an incoming user message, if any (everything after the marker). */
  stopFeedback: string | null;
  /** First `SESSION_ID=<id>` in `incoming` (or, for a subagent, in its opening prompt). */
  sessionId: string | null;
  /** The client's own session id, from the request's `metadata.user_id` (a JSON string with `session_id`, both pins). */
  clientSessionId: string | null;
  /** Step of the script that answered it, `(exhausted)`, `(side)` or `(limit)`. */
  answeredBy?: string;
  /** What the server replied. */
  reply?: { text?: string; tools: ToolUse[]; stopReason: string } | { error: string };
  raw: Record<string, unknown>;
}

export interface OtherRequest {
  method: string;
  path: string;
  body: string;
}

type Block = Record<string, unknown> & { type?: string };

function clientSessionOf(raw: Record<string, unknown>): string | null {
  const userId = (raw.metadata as { user_id?: unknown } | undefined)?.user_id;
  if (typeof userId !== 'string') return null;
  try {
    const sid = (JSON.parse(userId) as { session_id?: unknown }).session_id;
    return typeof sid === 'string' ? sid : null;
  } catch {
    return null;
  }
}

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

function textOfToolResult(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocksOf(content)
    .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .join('\n');
}

const SESSION_ID_RE = /SESSION_ID=([A-Za-z0-9_-]+)/;
const STOP_FEEDBACK_RE = /Stop hook feedback:\s*\n?([\s\S]*)/;

export function parseMessagesRequest(raw: Record<string, unknown>, index: number, classify: (system: string, tools: string[]) => Role): ParsedRequest {
  const system = blocksOf(raw.system)
    .map((b) => (typeof b.text === 'string' ? b.text : ''))
    .join('\n');
  const tools = Array.isArray(raw.tools) ? (raw.tools as Block[]).map((t) => String(t.name ?? '')) : [];
  const uses = new Map<string, ToolUse>();
  const messages: ParsedMessage[] = [];
  for (const m of Array.isArray(raw.messages) ? (raw.messages as Block[]) : []) {
    const role = m.role === 'assistant' ? 'assistant' : m.role === 'system' ? 'system' : 'user';
    const texts: string[] = [];
    const toolUses: ToolUse[] = [];
    const toolResults: ToolResult[] = [];
    for (const b of blocksOf(m.content)) {
      if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
      else if (b.type === 'tool_use') {
        const u: ToolUse = { id: String(b.id), name: String(b.name), input: (b.input ?? {}) as Record<string, unknown> };
        uses.set(u.id, u);
        toolUses.push(u);
      } else if (b.type === 'tool_result') {
        const id = String(b.tool_use_id);
        const use = uses.get(id);
        toolResults.push({ toolUseId: id, toolName: use?.name, toolInput: use?.input, isError: b.is_error === true, text: textOfToolResult(b.content) });
      }
    }
    messages.push({ role, text: texts.join('\n'), toolUses, toolResults });
  }
  let lastAssistant = -1;
  messages.forEach((m, i) => {
    if (m.role === 'assistant') lastAssistant = i;
  });
  const incoming = messages.slice(lastAssistant + 1);
  const toolResults = incoming.flatMap((m) => m.toolResults);
  const lastUserText = incoming
    .flatMap((m) => [m.text, ...m.toolResults.map((r) => r.text)])
    .filter(Boolean)
    .join('\n');
  let fb: RegExpExecArray | null = null;
  for (const m of incoming) if (m.role === 'user') fb = STOP_FEEDBACK_RE.exec(m.text) ?? fb;
  const firstUserText = messages.find((m) => m.role === 'user')?.text ?? '';
  const sid = SESSION_ID_RE.exec(lastUserText) ?? SESSION_ID_RE.exec(firstUserText);
  return {
    index,
    turn: 0,
    role: classify(system, tools),
    model: String(raw.model ?? 'claude-fake'),
    stream: raw.stream === true,
    system,
    tools,
    messages,
    incoming,
    lastUserText,
    toolResults,
    stopFeedback: fb ? fb[1]!.trim() : null,
    sessionId: sid ? sid[1]! : null,
    clientSessionId: clientSessionOf(raw),
    raw,
  };
}

// ---------------------------------------------------------------------------
// Scenario DSL
// ---------------------------------------------------------------------------

/** A tool call the fake model makes. `name` may be a function of the request (see `agent`). */
export interface ToolCall {
  name: string | ((req: ParsedRequest) => string);
  input: Record<string, unknown>;
}

export interface Reply {
  text?: string;
  tools?: ToolCall[];
}

export interface ScriptContext {
  /** Free-form state shared by all scripts of the scenario. */
  state: Record<string, unknown>;
  /** Every request so far (this one included). */
  log: readonly ParsedRequest[];
  /** Last `SESSION_ID=` the server saw in any request. */
  sessionId: string | null;
}

export type Matcher = (req: ParsedRequest, ctx: ScriptContext) => boolean;

export interface Step {
  /** Shows up in the request log as `answeredBy`. */
  name: string;
  /** When absent the step matches any request. */
  when?: Matcher;
  reply: Reply | ((req: ParsedRequest, ctx: ScriptContext) => Reply);
  /** How many times the step may answer (default 1; Infinity for "always"). */
  times?: number;
}

/**
 * A script answers one role's requests. As a list: each request is answered by
 * the first step, in order, that still has uses left and whose `when` matches.
 * As a function: return a Reply, or undefined to fall through to the default.
 * Either way, a request nothing answers ends the turn with text.
 */
export type Script = Step[] | ((req: ParsedRequest, ctx: ScriptContext) => Reply | undefined);

export interface Scenario {
  main: Script;
  reviewer?: Script;
  /** Identifies a reviewer request: a string/regex found in its system prompt. */
  reviewerMarker?: string | RegExp;
  /** Answer for tool-less side requests (titles, summaries). Default: a short text. */
  side?: (req: ParsedRequest) => Reply;
}

// Reply builders ------------------------------------------------------------

export const say = (text: string): Reply => ({ text });

export const reply = (text: string | undefined, ...tools: ToolCall[]): Reply => ({ ...(text === undefined ? {} : { text }), tools });

export const write = (file_path: string, content: string): ToolCall => ({ name: 'Write', input: { file_path, content } });

export const edit = (file_path: string, old_string: string, new_string: string): ToolCall => ({
  name: 'Edit',
  input: { file_path, old_string, new_string },
});

export const bash = (command: string, description = 'run a command'): ToolCall => ({ name: 'Bash', input: { command, description } });

/** Spawn a subagent. The tool is `Agent` in current clients and `Task` in older ones; use whichever is offered. */
export const agent = (input: { subagent_type: string; prompt: string; description?: string; run_in_background?: boolean }): ToolCall => ({
  name: (req) => (req.tools.includes('Agent') || !req.tools.includes('Task') ? 'Agent' : 'Task'),
  input: { description: input.description ?? 'Independent review', ...input },
});

// Matchers ------------------------------------------------------------------

export const on = {
  /** The opening request of a conversation (no assistant turn yet). */
  start: (): Matcher => (req) => !req.messages.some((m) => m.role === 'assistant'),
  /** The last user message carries Stop hook feedback (optionally matching `re`). */
  stopFeedback:
    (re?: RegExp): Matcher =>
    (req) =>
      req.stopFeedback !== null && (!re || re.test(req.stopFeedback)),
  /** The last user message answers a call of `tool` (any tool if omitted); filter on error/text. */
  toolResult:
    (tool?: string, opts: { error?: boolean; match?: RegExp } = {}): Matcher =>
    (req) =>
      req.toolResults.some(
        (r) =>
          (tool === undefined || r.toolName === tool || (tool === 'Agent' && r.toolName === 'Task')) &&
          (opts.error === undefined || r.isError === opts.error) &&
          (!opts.match || opts.match.test(r.text)),
      ),
  /** The last user message (text and tool results) matches `re`. */
  user:
    (re: RegExp): Matcher =>
    (req) =>
      re.test(req.lastUserText),
  all:
    (...ms: Matcher[]): Matcher =>
    (req, ctx) =>
      ms.every((m) => m(req, ctx)),
  any:
    (...ms: Matcher[]): Matcher =>
    (req, ctx) =>
      ms.some((m) => m(req, ctx)),
  not:
    (m: Matcher): Matcher =>
    (req, ctx) =>
      !m(req, ctx),
};

// ---------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------

export interface FakeApiOptions {
  /** Hard cap on /v1/messages requests; past it the server answers 400 so a loop cannot run forever. */
  maxRequests?: number;
}

export interface FakeApi {
  url: string;
  port: number;
  /** Every /v1/messages request, in arrival order. */
  requests: ParsedRequest[];
  /** Everything else the client asked for (probes, count_tokens, ...). */
  other: OtherRequest[];
  /** True once maxRequests was exceeded. */
  limitReached: boolean;
  /** Exceptions thrown by scenario scripts (the request got a text reply ending the turn). */
  scriptErrors: string[];
  byRole(role: Role): ParsedRequest[];
  /** A readable one-line-per-request summary, for failure messages. */
  summary(): string;
  close(): Promise<void>;
}

/** Where a routed script leaves the name of the step that answered (a function script is otherwise logged as `fn`). */
const STEP_NAME = Symbol('step');

const EXHAUSTED_TEXT = 'fake-api: script exhausted, ending the turn.';

function runScript(script: Script | undefined, used: Map<Step, number>, req: ParsedRequest, ctx: ScriptContext): { reply: Reply; by: string } {
  if (typeof script === 'function') {
    const r = script(req, ctx);
    return r ? { reply: r, by: (r as { [STEP_NAME]?: string })[STEP_NAME] ?? 'fn' } : { reply: say(EXHAUSTED_TEXT), by: '(exhausted)' };
  }
  for (const step of script ?? []) {
    const n = used.get(step) ?? 0;
    if (n >= (step.times ?? 1)) continue;
    if (step.when && !step.when(req, ctx)) continue;
    used.set(step, n + 1);
    return { reply: typeof step.reply === 'function' ? step.reply(req, ctx) : step.reply, by: step.name };
  }
  return { reply: say(EXHAUSTED_TEXT), by: '(exhausted)' };
}

/**
 * One scenario role shared by several clients (agents of one fleet talking to
 * one fake API): `pick` names the client a request comes from, and each
 * client's own step list answers it, with its own uses left. A request
 * `pick` cannot place is a script error (the test sees it in scriptErrors).
 */
export function routeScripts(pick: (req: ParsedRequest, ctx: ScriptContext) => string | undefined, scripts: Record<string, Step[]>): Script {
  // Uses are counted per client: a step object shared by two lists (a retry rule) has uses left in each.
  const used = new Map<string, Map<Step, number>>();
  return (req, ctx) => {
    const who = pick(req, ctx);
    if (who === undefined || !(who in scripts))
      throw new Error(`no script for this request (picked ${String(who)}); system starts: ${req.system.slice(0, 200)}`);
    if (!used.has(who)) used.set(who, new Map());
    const { reply, by } = runScript(scripts[who], used.get(who)!, req, ctx);
    // The log names the client and its step: "a:probe".
    return by === '(exhausted)' ? undefined : { ...reply, [STEP_NAME]: `${who}:${by}` };
  };
}

function sse(res: http.ServerResponse, event: string, data: Record<string, unknown>): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

export async function startFakeApi(scenario: Scenario, opts: FakeApiOptions = {}): Promise<FakeApi> {
  const maxRequests = opts.maxRequests ?? 60;
  const { reviewerMarker } = scenario;
  if (scenario.reviewer && reviewerMarker === undefined) throw new Error('fake-api: a scenario with a reviewer script needs reviewerMarker');
  const isReviewer = (system: string): boolean =>
    reviewerMarker === undefined ? false : typeof reviewerMarker === 'string' ? system.includes(reviewerMarker) : reviewerMarker.test(system);
  const classify = (system: string, tools: string[]): Role => (tools.length === 0 ? 'side' : isReviewer(system) ? 'reviewer' : 'main');

  const requests: ParsedRequest[] = [];
  const other: OtherRequest[] = [];
  const used = new Map<Step, number>();
  const ctx: ScriptContext = { state: {}, log: requests, sessionId: null };
  let limitReached = false;
  const scriptErrors: string[] = [];
  let msgSeq = 0;

  const handleMessages = (raw: Record<string, unknown>, res: http.ServerResponse): void => {
    const req = parseMessagesRequest(raw, requests.length + 1, classify);
    req.turn = requests.filter((r) => r.role === req.role).length + 1;
    requests.push(req);
    if (req.sessionId) ctx.sessionId = req.sessionId;

    if (requests.length > maxRequests) {
      limitReached = true;
      req.answeredBy = '(limit)';
      const message = `fake-api: request limit (${maxRequests}) reached`;
      req.reply = { error: message };
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }));
      return;
    }

    let chosen: { reply: Reply; by: string };
    try {
      if (req.role === 'side') chosen = { reply: scenario.side ? scenario.side(req) : say('Fake title'), by: '(side)' };
      else chosen = runScript(req.role === 'main' ? scenario.main : scenario.reviewer, used, req, ctx);
    } catch (err) {
      const message = `request #${req.index} (${req.role}): ${(err as Error).message}`;
      scriptErrors.push(message);
      chosen = { reply: say(`fake-api: script error: ${message}`), by: '(script error)' };
    }
    req.answeredBy = chosen.by;

    const msgId = `msg_fake_${++msgSeq}`;
    const toolUses: ToolUse[] = (chosen.reply.tools ?? []).map((t, i) => ({
      id: `toolu_${req.index}_${i}`,
      name: typeof t.name === 'function' ? t.name(req) : t.name,
      input: t.input,
    }));
    const text = chosen.reply.text ?? (toolUses.length === 0 ? 'OK' : undefined);
    const stopReason = toolUses.length > 0 ? 'tool_use' : 'end_turn';
    req.reply = { ...(text === undefined ? {} : { text }), tools: toolUses, stopReason };

    const content: Record<string, unknown>[] = [];
    if (text !== undefined) content.push({ type: 'text', text });
    for (const u of toolUses) content.push({ type: 'tool_use', id: u.id, name: u.name, input: u.input });
    const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

    if (!req.stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${msgId}` });
      res.end(
        JSON.stringify({ id: msgId, type: 'message', role: 'assistant', model: req.model, content, stop_reason: stopReason, stop_sequence: null, usage }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': `req_${msgId}` });
    sse(res, 'message_start', {
      message: {
        id: msgId,
        type: 'message',
        role: 'assistant',
        model: req.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    content.forEach((block, index) => {
      if (block.type === 'text') {
        sse(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
        sse(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
      } else {
        sse(res, 'content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
        sse(res, 'content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
      }
      sse(res, 'content_block_stop', { index });
    });
    sse(res, 'message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
    sse(res, 'message_stop', {});
    res.end();
  };

  const server = http.createServer((httpReq, res) => {
    const chunks: Buffer[] = [];
    httpReq.on('data', (c: Buffer) => chunks.push(c));
    httpReq.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (httpReq.url ?? '/').split('?')[0]!;
      try {
        if (httpReq.method === 'POST' && path === '/v1/messages') {
          handleMessages(JSON.parse(body) as Record<string, unknown>, res);
          return;
        }
        other.push({ method: httpReq.method ?? 'GET', path: httpReq.url ?? '/', body: body.slice(0, 2000) });
        if (httpReq.method === 'POST' && path === '/v1/messages/count_tokens') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ input_tokens: Math.max(1, Math.ceil(body.length / 4)) }));
        } else if (httpReq.method === 'HEAD') {
          res.writeHead(200);
          res.end();
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{}');
        }
      } catch (err) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `fake-api: ${(err as Error).message}` } }));
      }
    });
  });
  // Keep-alive sockets would hold close() open until the client exits.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    other,
    get limitReached() {
      return limitReached;
    },
    scriptErrors,
    byRole: (role) => requests.filter((r) => r.role === role),
    summary: () => summarize(requests),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const clip = (s: string, n = 160): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
};

export function summarize(requests: readonly ParsedRequest[]): string {
  return requests
    .map((r) => {
      const lastIn = r.toolResults.length
        ? r.toolResults.map((t) => `${t.toolName ?? '?'}${t.isError ? ' ERROR' : ''}: ${clip(t.text, 200)}`).join(' | ')
        : clip(
            r.incoming
              .filter((m) => m.role === 'user')
              .map((m) => m.text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, ''))
              .join(' '),
            200,
          );
      const out =
        r.reply && 'error' in r.reply
          ? `ERROR ${r.reply.error}`
          : r.reply
            ? [
                r.reply.text ? `text ${JSON.stringify(clip(r.reply.text, 60))}` : '',
                ...r.reply.tools.map((t) => `${t.name}(${clip(JSON.stringify(t.input), 120)})`),
              ]
                .filter(Boolean)
                .join(' + ')
            : '';
      return `#${r.index} ${r.role}#${r.turn} [${r.answeredBy}] <- ${lastIn}\n      -> ${out}`;
    })
    .join('\n');
}
