// A scripted fake Gemini API (generateContent / streamGenerateContent) on
// loopback, so the real Gemini CLI can run offline (issue 33). The main
// agent's requests (those offering tools) are answered by the script; the
// CLI's side requests that want JSON (its model router) get a fixed answer.
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from './workspace.js';

/** The pinned Gemini CLI (package.json devDependencies). */
export const GEMINI_BIN = join(REPO_ROOT, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');

/**
 * The real Gemini CLI pointed at this fake API from the home `home`: its sign-in choice (an API key) in
 * the home's user settings, and the environment naming the key, the API and a trusted workspace.
 */
export function geminiClientEnv(home: string, api: Pick<FakeGeminiApi, 'baseUrl'>): Record<string, string> {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
  return { GEMINI_API_KEY: 'e2e-fake', GOOGLE_GEMINI_BASE_URL: api.baseUrl, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
}

export interface GeminiRequest {
  /** 1-based position among the main agent's requests. */
  index: number;
  model: string;
  /** Every functionResponse part in the conversation, oldest first. */
  functionResponses: Array<{ name: string; response: unknown }>;
  raw: Record<string, unknown>;
}

export type GeminiReply = { call: string; args: Record<string, unknown> } | { say: string };

export interface GeminiStep {
  name: string;
  when: (req: GeminiRequest) => boolean;
  reply: GeminiReply;
}

export interface FakeGeminiApi {
  /** For GOOGLE_GEMINI_BASE_URL. */
  baseUrl: string;
  requests: GeminiRequest[];
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;

function candidate(parts: Obj[]): Obj {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  };
}

export async function startFakeGeminiApi(steps: GeminiStep[]): Promise<FakeGeminiApi> {
  const requests: GeminiRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      const m = /\/models\/([^:/]+):(generateContent|streamGenerateContent)/.exec(req.url ?? '');
      if (req.method !== 'POST' || !m) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      const raw = JSON.parse(body) as Obj;
      const stream = m[2] === 'streamGenerateContent';
      const send = (payload: Obj) => {
        if (stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(`data: ${JSON.stringify(payload)}\n\n`);
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(payload));
        }
      };
      const config = (raw.generationConfig ?? {}) as Obj;
      if (!Array.isArray(raw.tools) && config.responseMimeType === 'application/json') {
        send(candidate([{ text: JSON.stringify({ complexity_reasoning: 'scripted', complexity_score: 10 }) }]));
        return;
      }
      const parts = (Array.isArray(raw.contents) ? (raw.contents as Obj[]) : []).flatMap((c) => (Array.isArray(c.parts) ? (c.parts as Obj[]) : []));
      const functionResponses = parts.filter((p) => p.functionResponse).map((p) => p.functionResponse as { name: string; response: unknown });
      const parsed: GeminiRequest = { index: requests.length + 1, model: m[1] ?? '', functionResponses, raw };
      requests.push(parsed);
      const reply: GeminiReply = steps.find((s) => s.when(parsed))?.reply ?? { say: 'Nothing scripted.' };
      send(candidate('call' in reply ? [{ functionCall: { name: reply.call, args: reply.args } }] : [{ text: reply.say }]));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

export const onGemini = {
  afterResponses: (n: number) => (r: GeminiRequest) => r.functionResponses.length === n,
};
