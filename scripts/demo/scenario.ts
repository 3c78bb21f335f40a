// The demo's world and script, shared by `npm run demo` (scripts/demo/main.ts)
// and its end-to-end test (test/e2e/supervised.e2e.test.ts): a governed git
// repository, an offline HOME for the pinned Claude Code client, and the
// scripted model (test/e2e/harness/fake-api.ts) that walks through roz's gates.
//
// Paths are always passed in (this file is bundled into a temp dir by
// scripts/demo.mjs, so it must not locate anything from its own URL).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  agent,
  on,
  reply,
  say,
  write,
  bash,
  type Matcher,
  type ParsedRequest,
  type Reply,
  type Scenario,
  type ScriptContext,
  type ToolCall,
} from '../../test/e2e/harness/fake-api.js';
import { reviewerScript, rozStopBlock } from '../../test/e2e/harness/roz.js';
import { CLIENT_VERSION, type ClientVersion, seedClaudeJson } from '../../test/e2e/harness/workspace.js';

export { CLIENT_VERSION } from '../../test/e2e/harness/workspace.js';
export const DEMO_INTENT = 'INT-042';
export const DEMO_PROMPT = '#roz add a greeting module and clean the stale build output';
/** Seconds roz waits for the human's key in the demo (a new user reads first). */
export const DEMO_APPROVAL_TIMEOUT_S = 300;
export const IN_SCOPE_FILE = 'src/greeting.ts';
export const OUT_OF_SCOPE_FILE = 'package.json';
export const DESTRUCTIVE_COMMAND = 'rm -rf build';
export const FINAL_TEXT = 'Demo finished: roz reviewed the work and recorded COMPLETE. Type /exit to see the session stats.';

export interface DemoPaths {
  root: string;
  home: string;
  repo: string;
  storage: string;
}

export function demoPaths(root: string): DemoPaths {
  return { root, home: join(root, 'home'), repo: join(root, 'repo'), storage: join(root, 'storage') };
}

const INTENTS_YAML = `active_intents:
  - id: ${DEMO_INTENT}
    name: Greeting module
    status: IN_PROGRESS
    owned_scope: ["src/**", "build/"]
    constraints: [No new dependencies]
    acceptance_criteria: [src/greeting.ts exports greet(name)]
  - id: INT-043
    name: Release tooling
    status: DRAFT
    owned_scope: [package.json, "scripts/**"]
`;

/** A fresh governed git repository, an offline HOME that skips onboarding and trusts the repo, and roz storage. */
export function setupDemo(root: string, client: ClientVersion = CLIENT_VERSION): DemoPaths {
  const p = demoPaths(root);
  for (const d of [p.home, p.repo, p.storage]) mkdirSync(d, { recursive: true });
  const gitEnv = { ...process.env, HOME: p.home, GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: p.repo, env: gitEnv, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'roz demo');
  git('config', 'user.email', 'demo@roz.invalid');
  git('config', 'commit.gpgsign', 'false');
  mkdirSync(join(p.repo, '.orchestration'));
  mkdirSync(join(p.repo, 'src'));
  mkdirSync(join(p.repo, 'build'));
  writeFileSync(join(p.repo, '.orchestration', 'active_intents.yaml'), INTENTS_YAML);
  writeFileSync(join(p.repo, 'README.md'), '# demo project\n');
  writeFileSync(join(p.repo, 'package.json'), '{ "name": "demo", "version": "1.0.0" }\n');
  writeFileSync(join(p.repo, 'src', 'index.ts'), "export const version = '1.0.0';\n");
  writeFileSync(join(p.repo, 'build', 'index.js'), "exports.version = '0.9.0';\n");
  writeFileSync(join(p.repo, '.gitignore'), 'build/\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial commit');
  seedClaudeJson(p, 'sk-ant-demo', client);
  return p;
}

/** Only these reach the client from the caller's environment: a developer's ROZ_* or a parent Claude session must not leak in. */
const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'TERM', 'COLORTERM', 'TMPDIR', 'USER', 'LOGNAME', 'TZ'];

/** Environment for `roz run` and the client: offline, the fake API, the temp HOME and storage. */
export function demoEnv(p: DemoPaths, apiUrl: string, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of INHERITED) if (from[k] !== undefined) env[k] = from[k]!;
  return {
    ...env,
    HOME: p.home,
    SHELL: '/bin/bash',
    ROZ_STORAGE_PATH: p.storage,
    GIT_CONFIG_NOSYSTEM: '1',
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-ant-demo',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    IS_SANDBOX: '1',
    // Offer MCP tools (roz's select_active_intent) directly instead of behind the client's tool search.
    ENABLE_TOOL_SEARCH: 'false',
    // ROZ_HOOKS=command: the demo with a hook process per event instead of http hooks (src/supervisor/hooks/http-hooks.ts).
    ...(from.ROZ_HOOKS ? { ROZ_HOOKS: from.ROZ_HOOKS } : {}),
  };
}

/**
 * The client's arguments: manual permission mode (the default "auto mode"
 * needs the real API) with the demo's tools pre-authorised, so the only
 * prompt the human sees is roz's own; the first prompt is given on the
 * command line.
 */
export function demoClientArgs(): string[] {
  return [
    '--permission-mode',
    'default',
    '--allowedTools',
    'Write',
    'Edit',
    'Read',
    'Bash',
    'Agent',
    'mcp__plugin_roz_roz__select_active_intent',
    '--',
    DEMO_PROMPT,
  ];
}

/** The reviewer's requests carry its agent file's first heading in the system prompt. */
export function reviewerMarker(pluginDir: string): string {
  const body = readFileSync(join(pluginDir, 'agents', 'roz.md'), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
  const heading = /^#{1,6} .+$/m.exec(body)?.[0];
  if (!heading) throw new Error(`no heading in ${pluginDir}/agents/roz.md to recognise the reviewer by`);
  return heading.trim();
}

const SELECT_SUFFIX = '__select_active_intent';

/** The MCP tool the client offers for roz's select_active_intent, if any. */
export const selectToolName = (req: ParsedRequest): string | undefined => req.tools.find((t) => t.endsWith(SELECT_SUFFIX));

const WAIT_FOR_MCP = 'WaitForMcpServers';

/**
 * Select the intent with roz's MCP tool when offered. The client connects MCP
 * servers in the background, so on the first request the tool may not be
 * there yet: wait for it once (the client's WaitForMcpServers), and if it is
 * still missing select with the CLI through Bash.
 */
function selectIntent(req: ParsedRequest): Reply {
  const tool = selectToolName(req);
  if (!tool && req.tools.includes(WAIT_FOR_MCP) && !req.toolResults.some((r) => r.toolName === WAIT_FOR_MCP)) {
    return reply("Waiting for roz's MCP server to connect.", { name: WAIT_FOR_MCP, input: {} });
  }
  const call: ToolCall = tool ? { name: tool, input: { intent_id: DEMO_INTENT } } : bash(`roz intent select ${DEMO_INTENT}`, 'Select the intent');
  return reply(`First I select intent ${DEMO_INTENT} (Greeting module) so roz knows what I may touch.`, call);
}

const selected: Matcher = (req) =>
  req.toolResults.some((r) => r.toolName?.endsWith(SELECT_SUFFIX) || (r.toolName === 'Bash' && /roz intent select/.test(String(r.toolInput?.command ?? ''))));
const bashResult =
  (re: RegExp): Matcher =>
  (req) =>
    req.toolResults.some((r) => r.toolName === 'Bash' && re.test(String(r.toolInput?.command ?? '')));

/** What a compliant model does with roz's block: spawn roz:roz, the session id first in the prompt. */
function spawnDemoReviewer(req: ParsedRequest, ctx: ScriptContext): Reply {
  if (!req.sessionId) throw new Error(`no SESSION_ID in what the model was told:\n${req.lastUserText}`);
  const kept = ctx.state.buildKept === true;
  const widened = ctx.state.versionBumped === true;
  const build = kept ? 'build/ kept: its deletion was refused.' : 'Removed build/ after the human approved.';
  const version = widened
    ? `Bumped ${OUT_OF_SCOPE_FILE} after the human added it to ${DEMO_INTENT}'s scope.`
    : `${OUT_OF_SCOPE_FILE} untouched: the human refused it (out of scope).`;
  const prompt = `SESSION_ID=${req.sessionId}\n\n## Summary\nAdded ${IN_SCOPE_FILE} (greet). ${build} ${version}\n\n## Files changed\n- ${IN_SCOPE_FILE} (new)\n${widened ? `- ${OUT_OF_SCOPE_FILE} (version)\n` : ''}${kept ? '' : '- build/ (deleted)\n'}`;
  return reply(
    'roz blocked my stop: spawning its reviewer.',
    agent({ subagent_type: 'roz:roz', description: 'Independent review', prompt, run_in_background: false }),
  );
}

const wroteOutOfScope: Matcher = (req) =>
  req.toolResults.some((r) => r.toolName === 'Write' && String(r.toolInput?.file_path ?? '').endsWith(OUT_OF_SCOPE_FILE));

/** The scripted model: select, write in scope, write out of scope (the human decides), rm -rf (the human decides), claim done, review. */
export function demoScenario(p: DemoPaths, pluginDir: string): Scenario {
  return {
    reviewerMarker: reviewerMarker(pluginDir),
    main: [
      { name: 'select-intent', when: on.start(), reply: selectIntent },
      { name: 'select-intent-after-wait', when: on.toolResult(WAIT_FOR_MCP), reply: selectIntent },
      {
        name: 'write-in-scope',
        when: selected,
        reply: reply(
          `Writing ${IN_SCOPE_FILE}, inside the intent's scope.`,
          write(join(p.repo, IN_SCOPE_FILE), 'export const greet = (name: string): string => `Hello, ${name}!`;\n'),
        ),
      },
      {
        // Claude Code 2.1.197 refuses a Write of an existing file it has not read (before any hook runs): read it first.
        name: 'read-out-of-scope',
        when: on.toolResult('Write', { error: false }),
        reply: reply(`Reading ${OUT_OF_SCOPE_FILE} before changing it.`, { name: 'Read', input: { file_path: join(p.repo, OUT_OF_SCOPE_FILE) } }),
      },
      {
        name: 'write-out-of-scope',
        when: on.toolResult('Read'),
        reply: reply(
          `Now bumping the version in ${OUT_OF_SCOPE_FILE} (not in ${DEMO_INTENT}'s scope: roz asks YOU; press g to add it to the intent, b to refuse).`,
          write(join(p.repo, OUT_OF_SCOPE_FILE), '{ "name": "demo", "version": "1.1.0" }\n'),
        ),
      },
      {
        name: 'destructive',
        when: wroteOutOfScope,
        reply: (req, ctx) => {
          ctx.state.versionBumped = req.toolResults.some((r) => r.toolName === 'Write' && !r.isError);
          const said = ctx.state.versionBumped
            ? `The human widened ${DEMO_INTENT}'s scope, so ${OUT_OF_SCOPE_FILE} is bumped.`
            : `The human refused it, so I leave ${OUT_OF_SCOPE_FILE} alone.`;
          return reply(
            `${said} Next I delete the stale build output: roz asks YOU in its approval panel, press a to approve.`,
            bash(DESTRUCTIVE_COMMAND, 'Delete the stale build output'),
          );
        },
      },
      {
        name: 'claim-done',
        when: bashResult(/^rm -rf build/),
        reply: (req, ctx) => {
          // The human may have blocked it (b) or let it time out: say so, as an honest agent would.
          ctx.state.buildKept = req.toolResults.some((r) => r.toolName === 'Bash' && r.isError);
          return say(
            ctx.state.buildKept
              ? `Done: ${IN_SCOPE_FILE} added; build/ kept, since the deletion was refused.`
              : `Done: ${IN_SCOPE_FILE} added and build/ cleaned.`,
          );
        },
      },
      { name: 'spawn-reviewer', when: rozStopBlock(), reply: spawnDemoReviewer },
      // The TUI runs the reviewer in the background; its result comes back as a task notification.
      { name: 'wait', when: on.any(on.toolResult('Agent'), rozStopBlock()), reply: say('Waiting for the roz:roz reviewer.'), times: Infinity },
      { name: 'finish', when: on.user(/<task-notification>/), reply: say(FINAL_TEXT), times: Infinity },
    ],
    reviewer: reviewerScript('COMPLETE', `${IN_SCOPE_FILE} exports greet() as asked; nothing outside ${DEMO_INTENT}'s scope changed`),
  };
}
