// The fleet demo's world and script (`npm run demo -- --fleet`, issue 25),
// shared with its end-to-end test (test/e2e/fleet-demo.e2e.test.ts): the
// demo's governed git repository, two agents `b` and `c` that `roz agent add`
// puts in worktrees of their own while `roz run claude` runs in the base
// checkout, and the scripted model: each agent's first turn runs a
// destructive command, so each waits for the human.
//
// Paths are always passed in (bundled into a temp dir by scripts/demo.mjs).
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bash, on, say, type Matcher, type Scenario } from '../../test/e2e/harness/fake-api.js';
import type { ClientVersion } from '../../test/e2e/harness/workspace.js';
import { type DemoPaths, setupDemo } from './scenario.js';

export interface FleetAgent {
  name: string;
  prompt: string;
  command: string;
  done: string;
}

export const FLEET_AGENTS: readonly FleetAgent[] = [
  {
    name: 'b',
    prompt: 'B-TASK: publish my branch, force-pushing over whatever is there',
    command: 'git push --force origin roz/b',
    done: 'B-DONE: the force push ran (it fails: the demo has no remote).',
  },
  {
    name: 'c',
    // Changes no file (a command that does needs an intent selected first: INTENT_REQUIRED).
    prompt: 'C-TASK: delete the old experiment branch on the remote',
    command: 'git push origin --delete roz/old-experiment',
    done: 'C-DONE: the delete ran (it fails: the demo has no remote).',
  },
];

/** Claude Code's arguments for main and every agent: the demo's tools pre-authorised, so every prompt seen is roz's. */
export const FLEET_CLIENT_ARGS = ['--permission-mode', 'default', '--allowedTools', 'Bash'];

/** Where `roz agent add NAME` puts the agent's worktree (docs/fleet.md: `<parent>/<repo>.roz/<name>`). */
export const fleetWorktree = (p: DemoPaths, name: string): string => join(`${p.repo}.roz`, name);

/** The demo's repository, with every agent's future worktree trusted by the client like the checkout (it asks about a new folder otherwise). */
export function setupFleetDemo(root: string, client?: ClientVersion): DemoPaths {
  const p = setupDemo(realpathSync(root), client);
  const file = join(p.home, '.claude.json');
  const cj = JSON.parse(readFileSync(file, 'utf8')) as { projects: Record<string, unknown> };
  for (const a of FLEET_AGENTS) cj.projects[fleetWorktree(p, a.name)] = cj.projects[p.repo];
  writeFileSync(file, JSON.stringify(cj, null, 2));
  return p;
}

const ran =
  (command: string): Matcher =>
  (req) =>
    req.toolResults.some((r) => r.toolName === 'Bash' && String(r.toolInput?.command ?? '') === command);

/** Each agent: its prompt → its destructive command (roz asks the human) → it reports what happened. Main gets no prompt. */
export function fleetScenario(): Scenario {
  return {
    main: FLEET_AGENTS.flatMap((a) => [
      {
        name: `${a.name}-ask`,
        when: on.all(on.start(), on.user(new RegExp(a.prompt.split(':')[0]!))),
        reply: { text: `Running \`${a.command}\`: roz asks the human first.`, tools: [bash(a.command, a.prompt)] },
      },
      {
        name: `${a.name}-done`,
        when: ran(a.command),
        // Refused by roz (the human's b, a timeout) or ran: the agent says which.
        reply: (req) =>
          say(
            req.toolResults.some((r) => r.toolName === 'Bash' && r.isError && /PreToolUse|roz/.test(r.text))
              ? `${a.name}: roz refused it, so nothing ran.`
              : a.done,
          ),
      },
    ]),
  };
}
