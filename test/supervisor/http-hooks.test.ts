// The supervisor's http hook endpoint (what the client's `http` hooks POST
// to under `roz run`): token checked, the engine run in-process with the same
// answer a hook process gives, an ask waits for the human, and the settings
// fragment the client is launched with.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { httpHooksFragment, parseClientVersion, supportsHttpHooks } from '../../src/supervisor/hooks/http-hooks.js';
import { hooklessPlugin, pluginHooks } from '../../src/supervisor/launch/http-launch.js';
import { hookTransport, type RunRequest } from '../../src/supervisor/host/run-service.js';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { CLIENTS } from '../e2e/harness/workspace.js';
import { repoRoot } from './helpers/bundle.js';
import { governedRepo, preToolUse, sandboxEnv, SID, traceRecords, until } from './helpers/channel.js';
import { tempDir } from '../helpers/temp-dir.js';

let sup: Supervisor | null = null;
afterEach(async () => {
  await sup?.close();
  sup = null;
});

async function start() {
  const { env, store } = sandboxEnv();
  const s = await Supervisor.start({
    env: { ...env, CLAUDE_PLUGIN_ROOT: join(repoRoot, 'plugin') },
    approvalTimeoutMs: 10_000,
    httpHooks: true,
    log: () => {},
  });
  sup = s;
  const post = async (event: string, body: string, token = s.token) => {
    const r = await fetch(`${s.httpUrl}/hook/${event}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    return { status: r.status, text: await r.text() };
  };
  return { sup: s, env, store, post };
}

describe('http hooks: the supervisor endpoint', () => {
  it('refuses a wrong token and an unknown event; answers as the hook process would', async () => {
    const { sup: s, env, store, post } = await start();
    expect(s.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await post('PreToolUse', preToolUse('ls'), 'nope')).status).toBe(401);
    expect((await post('Bogus', preToolUse('ls'))).status).toBe(404);
    // A write into roz's own store: denied by the engine (no human involved).
    const input = preToolUse('', { tool_name: 'Write', tool_input: { file_path: join(store, 'sessions', SID, 'state.json'), content: '{}' } });
    const viaHttp = await post('PreToolUse', input);
    expect(viaHttp.status).toBe(200);
    expect(JSON.parse(viaHttp.text).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    // The same event through the real hook process gives the same answer.
    const proc = spawnSync(process.execPath, [join(repoRoot, 'bin', 'roz'), 'hook', 'pre-tool-use'], {
      input,
      env: { ...env, CLAUDE_PLUGIN_ROOT: join(repoRoot, 'plugin') },
      encoding: 'utf8',
    });
    expect(JSON.parse(proc.stdout).hookSpecificOutput).toEqual(JSON.parse(viaHttp.text).hookSpecificOutput);
    expect(traceRecords(store).filter((r) => r.event === 'PreToolUse')).toHaveLength(2);
    expect(s.events.last()).toMatchObject({ event: 'PreToolUse', session_id: SID });
  });

  it("an engine ask waits for the human's key, then answers", async () => {
    const { sup: s, store, post } = await start();
    const repo = await governedRepo(store);
    const answer = post('PreToolUse', preToolUse('rm -rf build', { cwd: repo }));
    await until(() => s.snapshot().pending.length === 1, 'the ask to reach the human', 10_000);
    s.answer(s.snapshot().pending[0]!.id, { action: 'allow', scope: 'once' } as never);
    const r = await answer;
    expect(JSON.parse(r.text).hookSpecificOutput.permissionDecision).toBe('allow');
  });
});

describe('http hooks: launch settings', () => {
  it('client versions: 2.1.295 and later only', () => {
    expect(supportsHttpHooks(parseClientVersion('2.1.330 (Claude Code)'))).toBe(true);
    expect(supportsHttpHooks(parseClientVersion('2.1.295'))).toBe(true);
    expect(supportsHttpHooks(parseClientVersion('2.1.294'))).toBe(false);
    expect(supportsHttpHooks(parseClientVersion('2.1.197 (Claude Code)'))).toBe(false);
    expect(supportsHttpHooks(parseClientVersion('3.0.0'))).toBe(true);
    expect(supportsHttpHooks(parseClientVersion('garbage'))).toBe(false);
  });

  it("every plugin event becomes an http hook; only PreToolUse blocks on failure; the token stays in the client's env", () => {
    const frag = httpHooksFragment({ baseUrl: 'http://127.0.0.1:4000', pluginHooks: pluginHooks(join(repoRoot, 'plugin')), preToolUseTimeoutS: 135 }) as {
      hooks: Record<string, any[]>;
    };
    // SessionStart cannot be an http hook (the client refuses it): it stays a command hook.
    expect(Object.keys(frag.hooks).sort()).toEqual(
      Object.keys(pluginHooks(join(repoRoot, 'plugin')))
        .filter((e) => e !== 'SessionStart')
        .sort(),
    );
    expect(frag.hooks.PreToolUse).toEqual([
      {
        matcher: '*',
        hooks: [
          {
            type: 'http',
            url: 'http://127.0.0.1:4000/hook/PreToolUse',
            headers: { Authorization: 'Bearer ${ROZ_TOKEN}' },
            allowedEnvVars: ['ROZ_TOKEN'],
            timeout: 135,
            onFailure: 'block',
          },
        ],
      },
    ]);
    expect(frag.hooks.Stop![0].hooks[0]).not.toHaveProperty('onFailure');
    expect((frag as any).sandbox).toEqual({ network: { allowedDomains: ['127.0.0.1:4000'] } });
    expect(JSON.stringify(frag)).not.toMatch(/[0-9a-f]{64}/);
  });

  it('the plugin copy keeps agents, MCP server and bin, and only the SessionStart command hook', () => {
    const store = tempDir('roz-store-');
    const dir = hooklessPlugin(join(repoRoot, 'plugin'), store);
    expect(hooklessPlugin(join(repoRoot, 'plugin'), store)).toBe(dir);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'hooks', 'hooks.json'), 'utf8')).hooks)).toEqual(['SessionStart']);
    expect(readFileSync(join(dir, '.claude-plugin', 'plugin.json'), 'utf8')).toContain('"name": "roz"');
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toContain('bin/roz');
    expect(readFileSync(join(dir, 'agents', 'roz.md'), 'utf8').length).toBeGreaterThan(100);
  });
});

describe('http hooks: which runs get them', () => {
  it('the pinned clients: 2.1.330 gets http hooks, 2.1.197 keeps command hooks; so do an installed plugin and ROZ_HOOKS=command', () => {
    const home = tempDir('roz-home-');
    const env = { PATH: process.env.PATH ?? '', HOME: home };
    const req = (command: string, extra: Partial<RunRequest> = {}): RunRequest => ({
      command,
      args: [],
      cwd: home,
      env,
      supervisor: { approvalTimeoutMs: 10_000 },
      ...extra,
    });
    const plugin = join(repoRoot, 'plugin');
    const newest = hookTransport(req(CLIENTS['2.1.330']), CLIENTS['2.1.330'], env, plugin);
    expect(newest).toEqual({ http: true, note: expect.stringMatching(/http to the supervisor \(client 2\.1\.330\)/) });
    const oldest = hookTransport(req(CLIENTS['2.1.197']), CLIENTS['2.1.197'], env, plugin);
    expect(oldest).toEqual({ http: false, note: expect.stringMatching(/client 2\.1\.197 predates onFailure/) });
    expect(hookTransport(req(CLIENTS['2.1.330']), CLIENTS['2.1.330'], { ...env, ROZ_HOOKS: 'command' }, plugin).http).toBe(false);
    expect(hookTransport(req(CLIENTS['2.1.330'], { args: ['--plugin-dir', '/x'] }), CLIENTS['2.1.330'], env, plugin).http).toBe(false);
    mkdirSync(join(home, '.claude', 'plugins'), { recursive: true });
    writeFileSync(join(home, '.claude', 'plugins', 'installed_plugins.json'), JSON.stringify({ plugins: { 'roz@local': {} } }));
    expect(hookTransport(req(CLIENTS['2.1.330']), CLIENTS['2.1.330'], env, plugin)).toEqual({ http: false, note: expect.stringMatching(/installed/) });
  }, 60_000);
});
