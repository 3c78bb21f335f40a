// The fleet demo's world and script (`npm run demo -- --fleet`, issue 25),
// shared with its end-to-end test (test/e2e/fleet-demo.e2e.test.ts): the
// demo's governed git repository, two agents `b` and `c` that `roz agent add`
// puts in worktrees of their own while `roz run claude` runs in the base
// checkout, and the scripted model: b runs a destructive command (roz asks the
// human); c writes a file (its client's own dialog, in roz's queue), commits
// it and is reviewed by roz's reviewer, so `m` merges it.
//
// Paths are always passed in (bundled into a temp dir by scripts/demo.mjs).
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agent, bash, on, reply, say, write, type Matcher, type ParsedRequest, type Reply, type Scenario, type Step } from '../../test/e2e/harness/fake-api.js';
import { reviewerScript, rozStopBlock } from '../../test/e2e/harness/roz.js';
import type { ClientVersion } from '../../test/e2e/harness/workspace.js';
import { DEMO_INTENT, type DemoPaths, reviewerMarker, setupDemo } from './scenario.js';

export interface FleetAgent {
  name: string;
  prompt: string;
  /** What it does that waits for the human, as the intro says it. */
  does: string;
  /** b: the destructive command roz asks about. */
  command?: string;
  /** c: the file it writes (its client's own permission dialog, answered from roz's queue), commits and has reviewed. */
  file?: string;
  /** Its branch gets a commit of draft notes nobody reviewed (set up by the demo): `m` refuses it. */
  notes?: boolean;
  done: string;
}

export const FLEET_AGENTS: readonly FleetAgent[] = [
  {
    name: 'b',
    prompt: 'B-TASK: publish my branch, force-pushing over whatever is there',
    does: 'runs `git push --force origin roz/b`; roz asks you first',
    command: 'git push --force origin roz/b',
    notes: true,
    done: 'B-DONE: the force push ran (it fails: the demo has no remote).',
  },
  {
    name: 'c',
    // `#roz`: its turn ends with a review by roz's reviewer, so `m` merges it.
    prompt: '#roz C-TASK: add the hello module in src/hello.ts and commit it',
    does: "writes src/hello.ts (Claude Code asks; the request is in roz's queue), commits, and roz's reviewer approves it",
    file: 'src/hello.ts',
    done: 'C-DONE: src/hello.ts is committed on roz/c.',
  },
];

export const C_HELLO = 'export const hello = (name: string): string => `Hello from c, ${name}!`;\n';

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

const ranLike =
  (re: RegExp): Matcher =>
  (req) =>
    req.toolResults.some((r) => r.toolName === 'Bash' && re.test(String(r.toolInput?.command ?? '')));

const wrote =
  (file: string): Matcher =>
  (req) =>
    req.toolResults.some((r) => r.toolName === 'Write' && String(r.toolInput?.file_path ?? '') === file);

/**
 * The scripted model. b: its prompt → its destructive command (roz asks the human) → it reports what
 * happened. c: selects the intent, writes its file (its client's own dialog: a Write in default permission
 * mode, in roz's queue), commits it; its `#roz` turn ends with roz's reviewer, which approves; then `m`
 * merges it. Main gets no prompt.
 */
export function fleetScenario(p: DemoPaths, pluginDir: string): Scenario {
  const c = FLEET_AGENTS.find((a) => a.file)!;
  const cFile = join(fleetWorktree(p, c.name), c.file!);
  const commit = `git add ${c.file} && git commit -q -m "c: the hello module" && echo C-COMMITTED`;
  return {
    reviewerMarker: reviewerMarker(pluginDir),
    main: [
      ...FLEET_AGENTS.filter((a) => a.command).flatMap((a): Step[] => [
        {
          name: `${a.name}-ask`,
          when: on.all(on.start(), on.user(new RegExp(a.prompt.split(':')[0]!))),
          reply: { text: `Running \`${a.command}\`: roz asks the human first.`, tools: [bash(a.command!, a.prompt)] },
        },
        {
          name: `${a.name}-done`,
          when: ran(a.command!),
          // Refused by roz (the human's b, a timeout) or ran: the agent says which.
          reply: (req: ParsedRequest): Reply =>
            say(
              req.toolResults.some((r) => r.toolName === 'Bash' && r.isError && /PreToolUse|roz/.test(r.text))
                ? `${a.name}: roz refused it, so nothing ran.`
                : a.done,
            ),
        },
      ]),
      {
        name: 'c-select',
        when: on.all(on.start(), on.user(/C-TASK/)),
        reply: reply(`First I select intent ${DEMO_INTENT} so roz knows what I may touch.`, bash(`roz intent select ${DEMO_INTENT}`, 'Select the intent')),
      },
      {
        name: 'c-write',
        when: ranLike(/^roz intent select/),
        reply: reply(`Writing ${c.file}: Claude Code asks before a Write, and roz puts its question in its queue.`, write(cFile, C_HELLO)),
      },
      {
        name: 'c-commit',
        when: on.all(wrote(cFile), on.toolResult('Write', { error: false })),
        reply: reply('Committing it on roz/c.', bash(commit, 'Commit the hello module')),
      },
      { name: 'c-refused', when: wrote(cFile), reply: say('c: the Write was refused, so nothing is committed.') },
      { name: 'c-done', when: on.toolResult('Bash', { match: /C-COMMITTED/ }), reply: say(c.done) },
      {
        name: 'c-review',
        when: rozStopBlock(),
        reply: (req) => {
          if (!req.sessionId) throw new Error(`no SESSION_ID in what the model was told:\n${req.lastUserText}`);
          const prompt = `SESSION_ID=${req.sessionId}\n\n## Summary\nAdded ${c.file} (hello), committed on roz/c.\n\n## Files changed\n- ${c.file} (new)\n`;
          return reply(
            'roz blocked my stop: spawning its reviewer.',
            agent({ subagent_type: 'roz:roz', description: 'Independent review', prompt, run_in_background: false }),
          );
        },
      },
      // The TUI runs the reviewer in the background; its result comes back as a task notification.
      { name: 'c-wait', when: on.any(on.toolResult('Agent'), rozStopBlock()), reply: say('Waiting for the roz:roz reviewer.'), times: Infinity },
      { name: 'c-finish', when: on.user(/<task-notification>/), reply: say('C: reviewed and approved; it can be merged (m).'), times: Infinity },
    ],
    reviewer: reviewerScript('COMPLETE', `${c.file} exports hello() as asked; nothing else changed`),
  };
}
