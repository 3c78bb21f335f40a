// A scripted fake OpenAI Responses API on loopback, so the real Codex CLI can
// run offline (issue 33). Each request is answered by the first step whose
// `when` matches; a step replies with one shell call (Codex's `exec_command`
// function tool, which its hooks see as `Bash`) or a final message, streamed
// as server-sent events the way `/v1/responses` streams them.
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from './workspace.js';

/** The pinned Codex CLI (package.json devDependencies), and the model name its scripted runs use. */
export const CODEX_BIN = join(REPO_ROOT, 'node_modules', '@openai', 'codex', 'bin', 'codex.js');
export const CODEX_MODEL = 'gpt-5-fake';

/**
 * A Codex home in `home` whose user config sends the scripted model's requests to this fake API; `top`
 * adds top-level keys, `tables` more tables (a trusted project, the shell's environment policy). Its path
 * is what CODEX_HOME names.
 */
export function codexHome(home: string, baseUrl: string, more: { top?: string; tables?: string } = {}): string {
  const dir = join(home, '.codex');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'config.toml'),
    `model = "${CODEX_MODEL}"\nmodel_provider = "fake"\n${more.top ?? ''}[model_providers.fake]\nname = "fake"\nbase_url = "${baseUrl}"\nwire_api = "responses"\n${more.tables ?? ''}`,
  );
  return dir;
}

export interface ResponsesRequest {
  /** 1-based position among all /responses requests. */
  index: number;
  /** Names of the function tools the client offered. */
  tools: string[];
  /** Output text of every function_call_output in the input, oldest first. */
  toolOutputs: string[];
  raw: Record<string, unknown>;
}

/**
 * A shell call (`yieldMs`: it returns after that long and goes on in the background; `escalate`: the model
 * asks to run it outside Codex's sandbox, with that justification, which makes Codex ask its user), Codex's
 * freeform `apply_patch`, or a final message.
 */
export type ResponsesReply = { shell: string; yieldMs?: number; escalate?: string } | { patch: string } | { say: string };

export interface ResponsesStep {
  name: string;
  when: (req: ResponsesRequest) => boolean;
  /** Or made from the request (say, a command naming the session id roz told the agent). */
  reply: ResponsesReply | ((req: ResponsesRequest) => ResponsesReply);
}

export interface FakeResponsesApi {
  /** Base URL for a Codex `model_providers` entry (ends in /v1). */
  baseUrl: string;
  requests: ResponsesRequest[];
  close(): Promise<void>;
}

type Item = Record<string, unknown>;

/**
 * A model catalog (Codex's `model_catalog_json`) with one model whose metadata
 * offers the freeform `apply_patch` tool: the fallback metadata of an unknown
 * model offers none (docs/clients.md).
 */
export function patchModelCatalog(slug: string): string {
  return JSON.stringify({
    models: [
      {
        slug,
        display_name: slug,
        description: 'scripted fake',
        default_reasoning_level: 'low',
        supported_reasoning_levels: [{ effort: 'low', description: 'Low' }],
        shell_type: 'unified_exec',
        visibility: 'list',
        supported_in_api: true,
        priority: 1,
        base_instructions: 'You are a scripted fake.',
        supports_reasoning_summaries: false,
        default_reasoning_summary: 'none',
        support_verbosity: false,
        default_verbosity: null,
        apply_patch_tool_type: 'freeform',
        truncation_policy: { mode: 'tokens', limit: 10000 },
        supports_parallel_tool_calls: false,
        context_window: 200000,
        effective_context_window_percent: 95,
        experimental_supported_tools: [],
        input_modalities: ['text'],
        supports_search_tool: false,
      },
    ],
  });
}

export function parseResponsesRequest(raw: Record<string, unknown>, index: number): ResponsesRequest {
  const tools = Array.isArray(raw.tools) ? (raw.tools as Item[]).map((t) => String(t.name ?? t.type ?? '')) : [];
  const input = Array.isArray(raw.input) ? (raw.input as Item[]) : [];
  const toolOutputs = input
    .filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output')
    .map((i) => (typeof i.output === 'string' ? i.output : JSON.stringify(i.output ?? '')));
  return { index, tools, toolOutputs, raw };
}

function sse(res: http.ServerResponse, event: Item): void {
  res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}

/** Serves the script; a request no step matches is answered with a plain final message. */
export async function startFakeResponsesApi(steps: ResponsesStep[]): Promise<FakeResponsesApi> {
  const requests: ResponsesRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      const parsed = parseResponsesRequest(JSON.parse(body) as Record<string, unknown>, requests.length + 1);
      requests.push(parsed);
      // Codex's TUI also asks the model side questions with no tools offered (observed: a structured
      // `text` format, e.g. a title for the thread): they get a plain answer and never take a step.
      const step = parsed.tools.length === 0 ? undefined : steps.find((s) => s.when(parsed));
      const scripted = step?.reply ?? { say: parsed.tools.length === 0 ? '{}' : 'Nothing scripted.' };
      const reply: ResponsesReply = typeof scripted === 'function' ? scripted(parsed) : scripted;
      const id = `resp_${parsed.index}`;
      const item: Item =
        'shell' in reply
          ? {
              type: 'function_call',
              name: 'exec_command',
              call_id: `call_${parsed.index}`,
              // yield_time_ms: the call returns after that long and the command goes on in the background.
              arguments: JSON.stringify({
                cmd: reply.shell,
                ...(reply.yieldMs ? { yield_time_ms: reply.yieldMs } : {}),
                ...(reply.escalate ? { sandbox_permissions: 'require_escalated', justification: reply.escalate } : {}),
              }),
            }
          : 'patch' in reply
            ? { type: 'custom_tool_call', name: 'apply_patch', call_id: `call_${parsed.index}`, input: reply.patch }
            : { type: 'message', role: 'assistant', id: `msg_${parsed.index}`, content: [{ type: 'output_text', text: reply.say }] };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      sse(res, { type: 'response.created', response: { id } });
      sse(res, { type: 'response.output_item.done', item });
      sse(res, { type: 'response.completed', response: { id, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } });
      res.end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** Step matchers: the first turn, and a turn after N tool outputs. */
export const onResponses = {
  start: () => (r: ResponsesRequest) => r.toolOutputs.length === 0,
  afterOutputs: (n: number) => (r: ResponsesRequest) => r.toolOutputs.length === n,
};
