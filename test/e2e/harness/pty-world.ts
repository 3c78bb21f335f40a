// The world of a scenario that runs `roz run` (and its clients) in a real pty:
// a throwaway folder with the client's home, a git repository with one
// commit, roz's store; the screens it started and the fake API it served; and
// the one clean-up that leaves nothing running or on disk. The fleet, resume,
// reboot, attach and dialog scenarios each wrote this set-up and tear-down
// by hand.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PtyScreen } from '../../supervisor/helpers/pty-screen.js';
import { killProcessesIn, killTree } from './kill-tree.js';
import { seedClaudeJson, type ClientVersion } from './workspace.js';

/** roz run's hotkey (Ctrl-]): the keyboard between the agent's pane and roz's panel. */
export const HOTKEY = '\x1d';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Keys typed one at a time, as a person would: the TUI reads each before the next. */
export async function press(t: PtyScreen, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    t.write(k);
    await sleep(250);
  }
}

/** roz's own screen has the keys (not a client's pane): its tab bar on the first row, saying so. */
const rozScreen = (t: PtyScreen): boolean => /\b1 trace\b.*\b6 agents\b.*\? keys/.test(t.row(0));

/**
 * roz's agents tab, from either view: Ctrl-] first when a client's pane is in view, then 6 unless
 * the tab is already open, each key sent once the screen shows the one before took effect. A
 * busy TUI reads two keys sent 250 ms apart as one input ("6j"), which is neither key: under
 * load press() lost them.
 */
export async function openAgentsTab(t: PtyScreen, ms = 20_000): Promise<string> {
  if (!rozScreen(t)) {
    t.write(HOTKEY);
    await t.waitFor(() => rozScreen(t), "roz's screen", ms);
  }
  const agentsTab = /^agents · \d/m;
  if (agentsTab.test(t.screen())) return t.screen();
  t.write('6');
  return t.waitFor(agentsTab, 'the agents tab', ms);
}

/**
 * The human blocks the request in roz's panel from the keyboard: b, the reason, Enter, each key sent once
 * the panel shows the one before took effect (a second after the panel came up, as a person reads it).
 */
export async function blockFromKeyboard(t: PtyScreen, reason: string, ms = 20_000): Promise<void> {
  await sleep(1_000);
  t.write('b');
  await t.waitFor('block reason:', 'the block reason field', ms);
  t.write(reason);
  await t.waitFor(`block reason: ${reason}`, 'the reason typed', ms);
  t.write('\r');
}

export interface PtyWorld {
  dir: string;
  home: string;
  repo: string;
  storage: string;
  /** git in the repository, with the world's HOME and no system config. */
  git(...args: string[]): SpawnSyncReturns<string>;
  /** Where `roz agent add NAME` puts the agent's worktree. */
  worktree(agent: string): string;
}

export interface WorldOptions {
  /** The client whose first-run dialogs are answered in the home (seedClaudeJson); none for another client. */
  client?: ClientVersion;
  /** Agents whose worktrees the client trusts as it trusts the checkout (it asks about a new folder otherwise). */
  trust?: readonly string[];
}

export interface PtyWorlds {
  /** A new world under the run's temp folder: `prefix` names it (roz-e2e-fleet-...). */
  enter(prefix: string, opts?: WorldOptions): PtyWorld;
  /** A screen to kill at clean-up, with everything it started. */
  track(t: PtyScreen): PtyScreen;
  /** Something to close at clean-up (the fake API). */
  closes(c: { close(): Promise<void> }): void;
  /** Kills every screen and any process still working in the world (background supervisors and their clients outlive their screens), closes the API, removes the folder (kept with ROZ_E2E_KEEP). */
  leave(): Promise<void>;
}

/** One per describe: `afterEach(() => worlds.leave())`. */
export function ptyWorlds(): PtyWorlds {
  let dir: string | undefined;
  const terms: PtyScreen[] = [];
  // A screen that ended is not killed by its pid again: the number may belong to another process by then.
  const ended = new WeakSet<PtyScreen>();
  const closers: Array<{ close(): Promise<void> }> = [];
  return {
    enter(prefix, opts = {}) {
      const d = realpathSync(mkdtempSync(join(tmpdir(), `roz-e2e-${prefix}-`)));
      dir = d;
      const [home, repo, storage] = ['home', 'repo', 'storage'].map((x) => join(d, x)) as [string, string, string];
      for (const x of [home, repo, storage]) mkdirSync(x);
      const gitEnv = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
      const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, env: gitEnv, encoding: 'utf8' });
      git('init', '-q', '-b', 'main');
      git('config', 'user.name', 'roz e2e');
      git('config', 'user.email', 'e2e@roz.invalid');
      writeFileSync(join(repo, 'README.md'), '# fleet\n');
      git('add', '-A');
      git('commit', '-q', '-m', 'initial commit');
      const worktree = (agent: string) => join(d, 'repo.roz', agent);
      if (opts.client) {
        seedClaudeJson({ repo, home }, 'sk-ant-e2e', opts.client);
        if (opts.trust?.length) {
          const file = join(home, '.claude.json');
          const cj = JSON.parse(readFileSync(file, 'utf8')) as { projects: Record<string, unknown> };
          for (const a of opts.trust) cj.projects[worktree(a)] = cj.projects[repo];
          writeFileSync(file, JSON.stringify(cj, null, 2));
        }
      }
      return { dir: d, home, repo, storage, git, worktree };
    },
    track(t) {
      terms.push(t);
      void t.exited.then(() => ended.add(t));
      return t;
    },
    closes(c) {
      closers.push(c);
    },
    async leave() {
      for (const t of terms.splice(0)) if (!ended.has(t)) killTree(t.pid);
      if (dir) killProcessesIn(dir);
      for (const c of closers.splice(0)) await c.close();
      // A killed client may still be writing into its home for a moment: retried, and if it still
      // writes, left to the run's own temp folder (test/helpers/private-tmpdir.ts removes it).
      if (dir && !process.env.ROZ_E2E_KEEP)
        try {
          rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        } catch {
          // removed with the run's TMPDIR
        }
      dir = undefined;
    },
  };
}
