// roz's MCP server over stdio (`roz mcp`, declared in the plugin's .mcp.json):
// the select_active_intent tool binds an intent to the session and returns
// its <intent_context>. See docs/governance.md for how the session is found.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { isSafeSessionId } from '../core/hook-input.js';
import { intentLine } from '../core/governance/render.js';
import { loadConfig } from '../engine/config-loader.js';
import { bindSelection } from '../engine/governance/select.js';
import { rozVersion } from '../core/version.js';
import { FileSessionStore } from '../store/file-store.js';
import { findProjectRoot, loadIntents } from '../store/orchestration.js';
import { agentRootsFor } from '../store/agent-registry.js';
import { intentsHome } from '../store/project-root.js';
import { loadAllOnDemand } from '../core/on-demand.js';
import type { SessionStore } from '../store/session-store.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

export interface McpOptions {
  env?: Record<string, string | undefined>;
  /** Where the project is looked for when CLAUDE_PROJECT_DIR is unset (the server's cwd). */
  cwd?: string;
  store?: SessionStore;
  now?: () => Date;
}

/**
 * The SDK checks a client's answer to an elicitation against its JSON schema, with an Ajv (and its
 * formats) it builds in the server's constructor unless given a validator: most of this server's
 * start, paid by every client session. roz's server never elicits, so its validator passes nothing.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "roz's MCP server asks the client nothing" }),
};

const text = (t: string, isError = false) => ({ content: [{ type: 'text' as const, text: t }], ...(isError ? { isError: true } : {}) });

export function createMcpServer(opts: McpOptions = {}): McpServer {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const config = loadConfig(env).config;
  const store = opts.store ?? new FileSessionStore(config.storage.path);
  const now = opts.now ?? (() => new Date());
  const server = new McpServer({ name: 'roz', version: rozVersion }, { jsonSchemaValidator: NO_ELICITATION });
  // An agent in its worktree selects among the base checkout's intents (store/agent-registry.ts): the ones its hooks enforce.
  const project = (): { root: string; intentsFrom: string } | null => {
    const start = env.CLAUDE_PROJECT_DIR ?? cwd;
    const agent = agentRootsFor(env, config.storage.path, start);
    const root = findProjectRoot(start, { projectDir: env.CLAUDE_PROJECT_DIR, agent });
    return root ? { root, intentsFrom: intentsHome(root, agent) } : null;
  };

  server.registerTool(
    'select_active_intent',
    {
      title: 'Select the active intent',
      description:
        'Declare which intent (from .orchestration/active_intents.yaml) your next file changes belong to. ' +
        "Call this before changing any file; only IN_PROGRESS intents can be selected. Returns the intent's scope, constraints, acceptance criteria and lessons.",
      inputSchema: { intent_id: z.string().min(1).describe('The intent id, e.g. INT-001') },
    },
    async ({ intent_id }) => {
      await loadAllOnDemand();
      const found = project();
      if (!found) return text('roz: this project has no .orchestration/active_intents.yaml, so intent governance is off: there is nothing to select.', true);
      const { root, intentsFrom } = found;
      const sid = env.CLAUDE_CODE_SESSION_ID && isSafeSessionId(env.CLAUDE_CODE_SESSION_ID) ? env.CLAUDE_CODE_SESSION_ID : null;
      try {
        const out = await bindSelection({
          store,
          storeRoot: config.storage.path,
          root,
          intentsFrom,
          intentId: intent_id,
          sessionId: sid,
          via: 'mcp',
          now: now(),
        });
        if (!out.ok) return text(`roz: cannot select ${intent_id}: ${out.reason}`, true);
        return text(`Intent ${intent_id} is now active for this session.\n\n${out.context}`);
      } catch (err) {
        return text(`roz: could not record the selection (${(err as Error).message}); try again or run \`roz intent select ${intent_id}\` with Bash.`, true);
      }
    },
  );

  server.registerTool(
    'list_active_intents',
    {
      title: 'List intents',
      description: 'List the intents of this project that can be selected (IN_PROGRESS) and the others.',
      inputSchema: {},
    },
    async () => {
      await loadAllOnDemand();
      const found = project();
      if (!found) return text('roz: intent governance is off for this project (no .orchestration/active_intents.yaml).');
      const parsed = loadIntents(found.intentsFrom);
      if (!parsed.ok)
        return text(`roz: .orchestration/active_intents.yaml is invalid: ${parsed.problems.map((p) => `${p.line}:${p.column} ${p.reason}`).join('; ')}`, true);
      const lines = parsed.intents.map((i) => `${i.status.padEnd(11)} ${intentLine(i)}`);
      return text(lines.join('\n') || '(no intents)');
    },
  );
  return server;
}

/** Serve MCP on stdin/stdout until the client closes the pipe. */
export async function startMcpServer(opts: McpOptions = {}): Promise<void> {
  const server = createMcpServer(opts);
  await server.connect(new StdioServerTransport());
}
