// Throwaway worlds for end-to-end runs: a HOME, a git repository to work in,
// roz storage and a bin folder for fake tools, plus the env that ties them together.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The roz checkout this file lives in (test/e2e/harness -> repo root). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const ROZ_PLUGIN_DIR = join(REPO_ROOT, 'plugin');
export const ROZ_BIN = join(REPO_ROOT, 'bin', 'roz');
/**
 * The pinned clients (package.json devDependencies): the newest, and the oldest
 * roz supports (installed under an npm alias). Binaries are addressed by path:
 * both packages declare a `claude` bin, so node_modules/.bin/claude could be either.
 */
export const CLIENTS = {
  '2.1.330': join(REPO_ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'),
  '2.1.197': join(REPO_ROOT, 'node_modules', 'claude-code-2.1.197', 'bin', 'claude.exe'),
} as const;
export type ClientVersion = keyof typeof CLIENTS;
export const NEWEST_CLIENT: ClientVersion = '2.1.330';
export const OLDEST_CLIENT: ClientVersion = '2.1.197';
/**
 * Both pinned clients, oldest first: `describe.each(PINNED_CLIENTS)` runs a scenario on each.
 * ROZ_E2E_CLIENTS (comma-separated versions) narrows the list: CI's second pass, on the
 * oldest Node, runs the scenarios on the newest client only (.ci/run says why).
 */
export const PINNED_CLIENTS: ClientVersion[] = pinnedClients(process.env.ROZ_E2E_CLIENTS);

function pinnedClients(only: string | undefined): ClientVersion[] {
  const all: ClientVersion[] = [OLDEST_CLIENT, NEWEST_CLIENT];
  if (!only?.trim()) return all;
  const wanted = only.split(',').map((v) => v.trim());
  const unknown = wanted.filter((v) => !all.includes(v as ClientVersion));
  if (unknown.length) throw new Error(`ROZ_E2E_CLIENTS names ${unknown.join(', ')}: the pinned clients are ${all.join(', ')}`);
  return all.filter((v) => wanted.includes(v));
}
/**
 * The newest of PINNED_CLIENTS alone, for a scenario that takes roz's own path (its supervisor,
 * CLI, queue, review bookkeeping), which is the same code whichever client started it:
 * `describe.each(ROZ_PATH_CLIENTS)`. A scenario where the clients differ (the sandbox, the hook
 * transport, what the client sends) and every attack run on PINNED_CLIENTS (README.md, "Which pins").
 */
export const ROZ_PATH_CLIENTS: ClientVersion[] = PINNED_CLIENTS.slice(-1);
/** The client a test uses when it does not choose: the newest pinned one. */
export const CLIENT_VERSION: ClientVersion = NEWEST_CLIENT;
export const CLAUDE_BIN = CLIENTS[CLIENT_VERSION];
export function claudeBin(version: ClientVersion = CLIENT_VERSION): string {
  return CLIENTS[version];
}
export const FIXTURES_DIR = join(REPO_ROOT, 'test', 'e2e', 'fixtures');

export interface Workspace {
  root: string;
  home: string;
  /** A git repository with one commit; the client's cwd. */
  repo: string;
  /** ROZ_STORAGE_PATH. */
  storage: string;
  /** Prepended to PATH: drop fake executables here (see addFakeTool). */
  bin: string;
  /** Environment for the client and for roz CLI calls. */
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

// Only these are inherited: a parent Claude Code session or a developer's ROZ_*
// settings must not leak into the world under test.
const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'TERM', 'USER', 'LOGNAME', 'TZ'];

export function createWorkspace(extraEnv: Record<string, string> = {}): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'roz-e2e-ws-'));
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  const storage = join(root, 'storage');
  const bin = join(root, 'bin');
  // The client's and its tools' temp folder: beside the project, the home and the store, never
  // holding them (roz lets the file tools write in $TMPDIR), and removed with the workspace
  // (the client's sandbox leaves a claude-empty-* folder there on every sandboxed start).
  const tmp = join(root, 'tmp');
  for (const d of [home, repo, storage, bin, tmp]) mkdirSync(d, { recursive: true });

  const base: NodeJS.ProcessEnv = {};
  for (const k of INHERITED) if (process.env[k] !== undefined) base[k] = process.env[k];
  const env: NodeJS.ProcessEnv = {
    ...base,
    HOME: home,
    SHELL: '/bin/bash',
    PATH: `${bin}:${base.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
    ROZ_STORAGE_PATH: storage,
    TMPDIR: tmp,
    GIT_CONFIG_NOSYSTEM: '1',
    NO_COLOR: '1',
    ...extraEnv,
  };

  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: repo, env, stdio: 'pipe' });
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'roz e2e');
  git('config', 'user.email', 'e2e@roz.invalid');
  git('config', 'commit.gpgsign', 'false');
  writeFileSync(join(repo, 'README.md'), '# e2e project\n');
  git('add', 'README.md');
  git('commit', '-q', '-m', 'initial commit');

  return {
    root,
    home,
    repo,
    storage,
    bin,
    env,
    cleanup: () => {
      // Retried: a client's straggler (2.1.197 refusing to start left one) can still be writing
      // into HOME as the folder goes (ENOTEMPTY).
      if (!process.env.ROZ_E2E_KEEP) rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}

/** Put an executable `name` on the workspace PATH that prints `output` and exits 0. */
export function addFakeTool(ws: Workspace, name: string, output: string): string {
  const file = join(ws.bin, name);
  writeFileSync(file, `#!/bin/sh\necho ${JSON.stringify(output)} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `node <repo>/bin/roz ...args` in the workspace's environment. */
export function rozCli(ws: Pick<Workspace, 'repo' | 'env'>, args: string[]): CliResult {
  if (!existsSync(ROZ_BIN)) throw new Error(`roz CLI not found at ${ROZ_BIN}`);
  const r = spawnSync(process.execPath, [ROZ_BIN, ...args], { cwd: ws.repo, env: ws.env, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** `roz ... --json`, parsed; throws with the CLI's output when it fails. */
export function rozJson<T = unknown>(ws: Workspace, args: string[]): T {
  const r = rozCli(ws, [...args, '--json']);
  if (r.code !== 0) throw new Error(`roz ${args.join(' ')} --json exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`roz ${args.join(' ')} --json printed non-JSON:\n${r.stdout}\nstderr: ${r.stderr}`);
  }
}

/** `git status --porcelain` of the workspace repo. */
export function gitStatus(ws: Workspace): string {
  return execFileSync('git', ['status', '--porcelain'], { cwd: ws.repo, env: ws.env, encoding: 'utf8' });
}

/** `$HOME/.claude.json` that skips onboarding, trusts the project and approves the API key the client is given. */
export function seedClaudeJson(ws: Pick<Workspace, 'repo' | 'home'>, apiKey = 'sk-ant-test', client: ClientVersion = CLIENT_VERSION): void {
  const config = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: client,
    theme: 'dark',
    customApiKeyResponses: { approved: [apiKey], rejected: [] },
    projects: { [ws.repo]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  writeFileSync(join(ws.home, '.claude.json'), JSON.stringify(config, null, 2));
}
