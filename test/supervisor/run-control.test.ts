// `roz run` (real pty, a fake claude) with the human in another terminal:
// the control record appears while the run lives, `roz queue` lists the
// fake client's ask, `roz approve` is refused because this launch does not
// confine its agent (not claude: no roz settings, so advisory) while the TUI
// keyboard still answers, and `roz agent stop main` ends the run.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundle, repoRoot } from './helpers/bundle.js';
import { startPtyScreen, type PtyScreen } from './helpers/pty-screen.js';

const ROZ = join(repoRoot, 'bin', 'roz');
const fakeClaude = join(repoRoot, 'test/supervisor/fixtures/fake-claude.mjs');
let entry: string;
let fakeHook: string;
let running: PtyScreen | null = null;
let home: string | null = null;

beforeAll(async () => {
  if (!existsSync(join(repoRoot, 'plugin', 'dist'))) throw new Error('run npm run build first');
  [entry, fakeHook] = await Promise.all([bundle('test/supervisor/fixtures/run-entry.ts'), bundle('test/supervisor/fixtures/fake-hook.ts')]);
}, 60_000);

afterEach(() => {
  running?.kill();
  running = null;
  if (home) rmSync(home, { recursive: true, force: true });
  home = null;
});

function roz(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [ROZ, ...args], { cwd, env, encoding: 'utf8', timeout: 20_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('roz run with the human in another terminal', () => {
  it('lists the ask, refuses approve (advisory launch), the keyboard answers, agent stop main ends the run', async () => {
    home = mkdtempSync(join(tmpdir(), 'roz-runctl-home-'));
    const store = join(home, 'store');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ROZ_STORAGE_PATH: store,
      FAKE_HOOK: fakeHook,
      TERM: 'xterm-256color',
      NO_COLOR: '1',
    };
    const pty = startPtyScreen(process.execPath, [entry, '--approval-timeout', '30', '--no-stats', '--', process.execPath, fakeClaude], {
      cols: 100,
      rows: 30,
      env,
      cwd: home,
    });
    running = pty;
    await pty.waitFor('FAKE CLAUDE READY');
    const records = readdirSync(join(store, 'control'));
    expect(records).toHaveLength(1);
    const rec = JSON.parse(readFileSync(join(store, 'control', records[0]!), 'utf8')) as { enforcement: { mode: string; reasons: string[] } };
    expect(rec.enforcement.mode).toBe('advisory');

    pty.write('h');
    await pty.waitFor(/APPROVAL NEEDED · Bash · DESTRUCTIVE_BLOCKED[\s\S]*\[a\] approve once/, 'the approval prompt');
    const q = await roz(['queue', '--json'], env, home);
    expect(q.code, q.stderr).toBe(0);
    const queue = JSON.parse(q.stdout) as Array<{ id: string; agent: string; tool: string }>;
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({ agent: 'main', tool: 'Bash' });

    const refused = await roz(['approve', queue[0]!.id], env, home);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/advisory: the agent is not Claude Code launched with roz settings[\s\S]*only from the TUI keyboard/);
    expect(pty.screen()).toContain('[a] approve once');
    pty.write('a');
    await pty.waitFor('HOOK ANSWER allow: roz: approved by the human', 'the keyboard still answers');
    expect(JSON.parse((await roz(['queue', '--json'], env, home)).stdout)).toEqual([]);

    const stop = await roz(['agent', 'stop', 'main'], env, home);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toMatch(/stopping main/);
    // Stopped by the human: the run ends cleanly (0), not with SIGTERM's 143.
    expect(await pty.exited).toBe(0);
    expect(readdirSync(join(store, 'control'))).toEqual([]);
    expect((await roz(['queue'], env, home)).code).toBe(3);
  }, 60_000);
});
