// `npm run demo -- --fleet --mixed` (issue 33): the fleet demo plus a Codex CLI
// agent, `cx`, in a worktree of its own under the same `roz run claude`,
// driven by its own scripted model (the Responses API fake the tests use,
// test/e2e/harness/fake-responses-api.ts). cx selects the intent, writes a file
// in its scope (a ledger record naming codex), then runs `rm -rf build`: roz
// holds the call (Codex obeys no `ask`) and it waits in the one queue beside
// the Claude agents' requests. Shared with its end-to-end test
// (test/e2e/fleet-demo-mixed.e2e.test.ts).
//
// Paths are always passed in (bundled into a temp dir by scripts/demo.mjs).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeResponsesApi, type FakeResponsesApi, type ResponsesRequest } from '../../test/e2e/harness/fake-responses-api.js';
import { fleetWorktree } from './fleet-scenario.js';
import { DEMO_INTENT, DESTRUCTIVE_COMMAND, type DemoPaths } from './scenario.js';

export const CODEX_AGENT = {
  name: 'cx',
  prompt: 'CX-TASK: add src/cx.ts, then clean the stale build output',
  does: `a Codex CLI agent: selects ${DEMO_INTENT}, writes src/cx.ts, then runs \`${DESTRUCTIVE_COMMAND}\`; roz holds it for you`,
  done: 'CX-DONE',
} as const;
export const CODEX_MODEL = 'gpt-5-fake';

const SCRIPT = [`roz intent select ${DEMO_INTENT}`, "mkdir -p src && echo 'export const cx = 1;' > src/cx.ts", DESTRUCTIVE_COMMAND];

/** cx's scripted model: one shell call per turn, in order, then its end. */
export function startCodexModel(): Promise<FakeResponsesApi> {
  return startFakeResponsesApi([
    ...SCRIPT.map((shell, i) => ({ name: `cx-${i}`, when: (r: ResponsesRequest) => r.toolOutputs.length === i, reply: { shell } })),
    { name: 'cx-done', when: (r: ResponsesRequest) => r.toolOutputs.length === SCRIPT.length, reply: { say: CODEX_AGENT.done } },
  ]);
}

/**
 * What the Codex agent needs in the demo's world: a user config naming the scripted model, with the
 * checkout and cx's future worktree trusted (the user's choice, made once; roz never marks a project
 * trusted), `codex` on PATH (the pinned one), and a TMPDIR that does not hold CODEX_HOME (Codex
 * refuses its sandbox helper under the temp dir: docs/clients.md). Returns the environment to add.
 */
export function setupCodex(root: string, p: DemoPaths, api: FakeResponsesApi): Record<string, string> {
  const home = join(p.home, '.codex');
  const bin = join(p.root, 'bin');
  const tmp = join(p.root, 'tmp');
  for (const d of [home, bin, tmp]) mkdirSync(d, { recursive: true });
  writeFileSync(
    join(home, 'config.toml'),
    `model = "${CODEX_MODEL}"\nmodel_provider = "fake"\n[model_providers.fake]\nname = "fake"\nbase_url = "${api.baseUrl}"\nwire_api = "responses"\n` +
      `[projects."${p.repo}"]\ntrust_level = "trusted"\n[projects."${fleetWorktree(p, CODEX_AGENT.name)}"]\ntrust_level = "trusted"\n`,
  );
  symlinkSync(join(root, 'node_modules', '@openai', 'codex', 'bin', 'codex.js'), join(bin, 'codex'));
  return { CODEX_HOME: home, TMPDIR: tmp, PATH: `${bin}:${process.env.PATH ?? ''}` };
}
