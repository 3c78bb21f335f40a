// Enforced or advisory: the decision (pure) and the SessionStart hook that
// makes it, says it out loud, and records it for `roz debug` and `roz stats`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideMode, type ModeInputs } from '../../src/core/enforce/mode.js';
import { enforcedSettings } from '../../src/core/enforce/settings.js';
import { hookCommand, payloads, roz, runProcess, sandbox } from '../helpers/hooks.js';

const store = '/h/.roz';
const good = enforcedSettings(
  { store, codeCache: null, configFiles: [], orchestration: null, settingsFile: null, claudeUserDir: null },
  { network: 'user', secretEnv: [] },
);
const base: ModeInputs = {
  sandboxTools: { ok: true, missing: [] },
  run: { file: '/r/s.json', doc: good, launchedWith: true },
  managed: null,
  others: [],
  store,
};

describe('decideMode', () => {
  it('is enforced only when a verified run file or managed settings confine Bash and nothing weakens them', () => {
    expect(decideMode(base)).toEqual({ mode: 'enforced', reasons: [] });
    expect(decideMode({ ...base, run: null, managed: { file: '/etc/m.json', doc: good } }).mode).toBe('enforced');
    expect(decideMode({ ...base, run: { ...base.run!, launchedWith: null } }).mode).toBe('enforced'); // cannot tell (no /proc): trust the launcher's env
    // roz's own `allowAllUnixSockets: false` wins over a project's `true`
    expect(decideMode({ ...base, others: [{ file: '/p/.claude/settings.json', doc: { sandbox: { network: { allowAllUnixSockets: true } } } }] }).mode).toBe(
      'enforced',
    );
  });

  it.each<[string, Partial<ModeInputs>, RegExp]>([
    ['plain claude', { run: null }, /not started by `roz exec`/],
    ['no bwrap', { sandboxTools: { ok: false, missing: ['bwrap'] } }, /bwrap not installed/],
    ['unsupported platform', { sandboxTools: null }, /no OS sandbox/],
    ['run file not on the command line', { run: { file: '/r/s.json', doc: good, launchedWith: false } }, /not started with --settings/],
    ['unreadable run file', { run: { file: '/r/s.json', doc: null, error: 'ENOENT', launchedWith: true } }, /cannot be read \(ENOENT\)/],
    ['run file with the sandbox off', { run: { file: '/r/s.json', doc: { sandbox: { enabled: false } }, launchedWith: true } }, /does not confine Bash/],
    [
      'excludedCommands in local settings',
      { others: [{ file: '/p/.claude/settings.local.json', doc: { sandbox: { excludedCommands: ['git'] } } }] },
      /excludedCommands in \/p\/\.claude\/settings\.local\.json/,
    ],
    [
      'Unix sockets allowed by the run file',
      { run: { file: '/r/s.json', doc: { ...good, sandbox: { ...(good.sandbox as object), network: { allowAllUnixSockets: true } } }, launchedWith: true } },
      /allowAllUnixSockets in \/r\/s\.json/,
    ],
    [
      'Unix sockets allowed by a weaker file the run file does not pin',
      {
        run: { file: '/r/s.json', doc: { ...good, sandbox: { ...(good.sandbox as object), network: {} } }, launchedWith: true },
        others: [{ file: '/u/settings.json', doc: { sandbox: { network: { allowAllUnixSockets: true } } } }],
      },
      /allowAllUnixSockets in \/u\/settings\.json/,
    ],
    [
      'managed settings turn it off',
      { managed: { file: '/etc/m.json', doc: { sandbox: { enabled: false } } } },
      /managed settings \/etc\/m\.json turn the sandbox off/,
    ],
  ])('advisory: %s', (_what, change, why) => {
    const e = decideMode({ ...base, ...change });
    expect(e.mode).toBe('advisory');
    expect(e.reasons.join('\n')).toMatch(why);
  });
});

describe('SessionStart records the mode', () => {
  const SID = '0b6f3c1e-8f7a-4d2b-9c3e-1a2b3c4d5e6f';
  // A node process stands in for the client: its argv carries parentArgs, and it
  // starts the hook as the client does (/bin/sh -c '<hooks.json command>'; a
  // shell running anything else is refused as not the client's: engine/hook-origin.ts).
  const client = "require('node:child_process').spawn('/bin/sh', ['-c', process.argv[1]], { stdio: 'inherit' }).on('exit', (c) => process.exit(c ?? 1))";
  const start = (env: NodeJS.ProcessEnv, parentArgs: string[] = []) =>
    runProcess(process.execPath, ['-e', client, '--', hookCommand('SessionStart'), ...parentArgs], JSON.stringify(payloads(SID).sessionStart()), env);

  it('advisory without roz exec: a systemMessage, and roz debug --json says "advisory" with reasons', async () => {
    const { env } = sandbox();
    const r = await start(env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json?.systemMessage).toMatch(/ADVISORY mode.*not started by `roz exec`/s);
    const dbg = JSON.parse((await roz(['debug', SID, '--json'], env)).stdout);
    expect(dbg.enforcement).toBe('advisory');
    expect(dbg.enforcement_reasons.join()).toMatch(/roz exec/);
    const stats = JSON.parse((await roz(['stats', '--json'], env)).stdout);
    expect(stats.enforcement).toEqual({ enforced: 0, advisory: 1, unknown: 0 });
  });

  it('enforced when the client was started with the run settings file; advisory when only the env names it', async () => {
    const { home, store, env } = sandbox();
    mkdirSync(store, { recursive: true });
    const file = join(home, 'settings.json');
    writeFileSync(
      file,
      JSON.stringify(
        enforcedSettings(
          { store, codeCache: null, configFiles: [], orchestration: null, settingsFile: file, claudeUserDir: null },
          { network: 'user', secretEnv: [] },
        ),
      ),
    );
    const e = { ...env, ROZ_SETTINGS_FILE: file };
    const ok = await start(e, ['--settings', file]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json?.systemMessage ?? '').not.toMatch(/ADVISORY/);
    expect(JSON.parse((await roz(['debug', SID, '--json'], e)).stdout).enforcement).toBe('enforced');

    const forged = await start(e);
    expect(forged.json?.systemMessage).toMatch(/not started with --settings/);
    expect(JSON.parse((await roz(['debug', SID, '--json'], e)).stdout).enforcement).toBe('advisory');
  });
});
