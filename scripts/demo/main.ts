// `npm run demo`: `roz run claude` with the pinned real Claude Code client
// against the scripted model of the end-to-end tests, offline (no API key, no
// network). Bundled and started by scripts/demo.mjs.
//
// Environment: ROZ_DEMO_DIR=<dir> works there (kept) instead of a fresh temp
// dir; ROZ_DEMO_NO_WAIT=1 skips "press Enter to start"; ROZ_DEMO_CLIENT=<version>
// runs another pinned client (2.1.197; default the newest).
import { spawn } from 'node:child_process';
import { demoIntro } from './intros.js';
import { untilAgentsEnd } from './reattach.js';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startFakeApi, summarize } from '../../test/e2e/harness/fake-api.js';
import { CLIENTS, REPO_ROOT, type ClientVersion } from '../../test/e2e/harness/workspace.js';
import { CLIENT_VERSION, DEMO_APPROVAL_TIMEOUT_S, demoClientArgs, demoEnv, demoScenario, setupDemo } from './scenario.js';

export { fleetMain } from './fleet-main.js';

/** What every demo starts from: roz's plugin and CLI, the pinned client, and its own directory. */
export interface DemoStart {
  plugin: string;
  rozBin: string;
  claude: string;
  /** Which pinned client `claude` is (ROZ_DEMO_CLIENT, else the newest). */
  client: ClientVersion;
  /** `ROZ_DEMO_DIR` (kept), else a fresh temp directory named `<prefix>XXXXXX`. */
  dir: string;
  /** The directory was given (`ROZ_DEMO_DIR`): it stays after the demo. */
  kept: boolean;
}

/** Check what a demo needs (roz built, the pinned client, a terminal) and make its directory; else say why (exit 1). */
export function demoStart(root: string, prefix: string): DemoStart | number {
  const plugin = join(root, 'plugin');
  const rozBin = join(root, 'bin', 'roz');
  // By path: both pinned clients are installed, and both declare a `claude` bin.
  const wanted = process.env.ROZ_DEMO_CLIENT || CLIENT_VERSION;
  if (!(wanted in CLIENTS)) return fail(`ROZ_DEMO_CLIENT=${wanted}: the pinned clients are ${Object.keys(CLIENTS).join(', ')}`);
  const client = wanted as ClientVersion;
  // The harness's paths are relative to where it was bundled from: only their place under the checkout is used.
  const claude = join(root, relative(REPO_ROOT, CLIENTS[client]));
  if (!existsSync(join(plugin, 'dist', 'cli.mjs'))) return fail('roz is not built: run `npm run build` (npm run demo does it for you)');
  if (!existsSync(claude)) return fail(`the pinned Claude Code client is missing (${claude}): run \`npm install\``);
  if (!process.stdin.isTTY || !process.stdout.isTTY) return fail('the demo needs an interactive terminal');
  const given = process.env.ROZ_DEMO_DIR;
  const dir = given ? (mkdirSync(given, { recursive: true }), given) : mkdtempSync(join(tmpdir(), prefix));
  return { plugin, rozBin, claude, client, dir, kept: given !== undefined && given !== '' };
}

export async function main(root: string): Promise<number> {
  const start = demoStart(root, 'roz-demo-');
  if (typeof start === 'number') return start;
  const { plugin, rozBin, claude, client, dir, kept } = start;
  const paths = setupDemo(dir, client);
  const api = await startFakeApi(demoScenario(paths, plugin), { maxRequests: 80 });
  const env = demoEnv(paths, api.url);
  const b = (s: string): string => (process.env.NO_COLOR ? s : `\x1b[1m${s}\x1b[0m`);
  process.stdout.write(`${demoIntro({ client, repo: paths.repo, b }).join('\n')}\n`);
  if (!process.env.ROZ_DEMO_NO_WAIT) {
    process.stdout.write(`${b('Press Enter to start')} (Ctrl-C to quit) `);
    const ok = await waitForEnter();
    if (!ok) {
      await api.close();
      cleanup(dir, kept);
      return 130;
    }
  }

  const args = [rozBin, 'run', '--approval-timeout', String(DEMO_APPROVAL_TIMEOUT_S), '--plugin-dir', plugin, '--', claude, ...demoClientArgs()];
  const child = spawn(process.execPath, args, { cwd: paths.repo, env, stdio: 'inherit' });
  // The terminal's signals reach roz run directly (same process group); it forwards them to claude.
  const ignore = (): void => undefined;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) process.on(sig, ignore);
  const code = await new Promise<number>((resolve) => {
    child.on('exit', (c, sig) => resolve(c ?? (sig ? 128 : 1)));
    child.on('error', (err) => {
      process.stderr.write(`roz demo: could not start roz run: ${err.message}\n`);
      resolve(1);
    });
  }).then((c) => untilAgentsEnd({ rozBin, env, cwd: paths.repo, code: c, waitForEnter }));
  writeFileSync(
    join(dir, 'fake-api.log'),
    `${summarize(api.requests)}\n\ntools offered to the main agent: ${api.byRole('main')[0]?.tools.join(', ') ?? '(none)'}\n`,
  );
  await api.close();
  let sid = '<session>';
  try {
    const seen = readdirSync(join(paths.storage, 'sessions'));
    if (seen.length === 1) sid = seen[0]!;
  } catch {
    /* no session recorded */
  }
  const roz = `ROZ_STORAGE_PATH=${paths.storage} node ${rozBin}`;
  process.stdout.write(
    [
      '',
      `${b('roz demo finished')} (roz run exited ${code}). Look again any time:`,
      `  ${roz} trace ${sid}`,
      `  ${roz} stats --tui ${sid}`,
      `  ${roz} debug ${sid}`,
      `  the demo project and store are kept in ${dir}`,
      '',
    ].join('\n'),
  );
  return code;
}

function fail(msg: string): number {
  process.stderr.write(`roz demo: ${msg}\n`);
  return 1;
}

function cleanup(dir: string, kept: boolean): void {
  if (!kept) rmSync(dir, { recursive: true, force: true });
}

/** Wait for Enter (true) or Ctrl-C / end of input (false), then let go of stdin for the child. */
export function waitForEnter(): Promise<boolean> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    stdin.setRawMode?.(true);
    const done = (ok: boolean): void => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      process.stdout.write('\n');
      resolve(ok);
    };
    const onData = (d: Buffer): void => {
      const s = d.toString('utf8');
      if (s.includes('\r') || s.includes('\n')) done(true);
      else if (s.includes('\x03') || s.includes('\x04')) done(false);
    };
    stdin.on('data', onData);
    stdin.resume();
  });
}
