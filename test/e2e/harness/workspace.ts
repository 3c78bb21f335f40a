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
/** The pinned client (package.json devDependencies). */
export const CLIENT_VERSION = '2.1.330';
export const CLAUDE_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'claude');
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
const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'USER', 'LOGNAME', 'TZ'];

export function createWorkspace(extraEnv: Record<string, string> = {}): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'roz-e2e-ws-'));
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  const storage = join(root, 'storage');
  const bin = join(root, 'bin');
  for (const d of [home, repo, storage, bin]) mkdirSync(d, { recursive: true });

  const base: NodeJS.ProcessEnv = {};
  for (const k of INHERITED) if (process.env[k] !== undefined) base[k] = process.env[k];
  const env: NodeJS.ProcessEnv = {
    ...base,
    HOME: home,
    SHELL: '/bin/bash',
    PATH: `${bin}:${base.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
    ROZ_STORAGE_PATH: storage,
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
      if (!process.env.ROZ_E2E_KEEP) rmSync(root, { recursive: true, force: true });
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
export function seedClaudeJson(ws: Pick<Workspace, 'repo' | 'home'>, apiKey = 'sk-ant-test'): void {
  const config = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: CLIENT_VERSION,
    theme: 'dark',
    customApiKeyResponses: { approved: [apiKey], rejected: [] },
    projects: { [ws.repo]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  writeFileSync(join(ws.home, '.claude.json'), JSON.stringify(config, null, 2));
}
