// The enforced settings document: sandbox on with no way out, roz's paths
// read-only by absolute path, deny rules for the file tools, the network
// policy, fragments that merge without dropping a rule.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { enforcedSettings, mergeSettings, permissionsFragment, type ProtectedPaths } from '../../src/core/enforce/settings.js';
import { planLaunch, takeSettingsArg, withSettings } from '../../src/supervisor/launch/launch-args.js';

const paths: ProtectedPaths = {
  store: '/h/.roz',
  codeCache: '/h/.cache/roz',
  configFiles: ['/etc/roz.toml'],
  orchestration: '/p/.orchestration',
  settingsFile: '/h/.roz/runs/run-x/settings.json',
  claudeUserDir: '/h/.claude',
};

describe('enforced settings', () => {
  const doc = enforcedSettings(paths, { network: 'user', secretEnv: ['ROZ_TOKEN'] }) as {
    sandbox: Record<string, unknown> & { filesystem: { denyWrite: string[] }; network?: unknown; credentials: unknown };
    permissions: { deny: string[] };
  };

  it('turns the sandbox on with no unsandboxed escape and no Unix sockets', () => {
    expect(doc.sandbox).toMatchObject({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, autoAllowBashIfSandboxed: true });
    expect(doc.sandbox.network).toEqual({ allowAllUnixSockets: false });
    expect(doc.sandbox.credentials).toEqual({ envVars: [{ name: 'ROZ_TOKEN', mode: 'deny' }] });
  });

  it('makes every protected path read-only by absolute path', () => {
    expect(doc.sandbox.filesystem.denyWrite).toEqual([
      '/h/.roz',
      '/h/.cache/roz',
      '/etc/roz.toml',
      '/p/.orchestration',
      '/h/.roz/runs/run-x/settings.json',
      '/h/.claude',
    ]);
    expect(doc.sandbox.filesystem.denyWrite.every((p) => p.startsWith('/'))).toBe(true);
  });

  it('denies the file tools roz paths with //absolute rules, never the project .claude/', () => {
    expect(doc.permissions.deny).toEqual([
      'Edit(//h/.roz/**)',
      'Edit(//h/.cache/roz/**)',
      'Edit(//p/.orchestration/**)',
      'Read(//h/.roz/control/**)',
      'Edit(//etc/roz.toml)',
      'Edit(//h/.roz/runs/run-x/settings.json)',
    ]);
    expect(permissionsFragment({ ...paths, claudeUserDir: '/p/.claude' }).permissions).not.toContain('.claude');
  });

  it("makes the supervisors' control records unreadable to Bash (their secret; docs/fleet.md)", () => {
    expect((doc.sandbox.filesystem as { denyRead?: string[] }).denyRead).toEqual(['/h/.roz/control']);
  });

  it('keeps the user network settings by default, opens every host or lists domains on request', () => {
    expect(Object.keys(doc.sandbox.network as object)).toEqual(['allowAllUnixSockets']);
    const open = enforcedSettings(paths, { network: 'open', secretEnv: [] }) as { sandbox: { network: unknown; credentials?: unknown } };
    expect(open.sandbox.network).toEqual({ allowAllUnixSockets: false, allowedDomains: ['*'] });
    expect(open.sandbox.credentials).toBeUndefined();
    const list = enforcedSettings(paths, { network: ['*.npmjs.org', 'github.com'], secretEnv: [] }) as { sandbox: { network: unknown } };
    expect(list.sandbox.network).toEqual({ allowAllUnixSockets: false, allowedDomains: ['*.npmjs.org', 'github.com'] });
  });

  it('merges fragments: objects key by key, arrays add without duplicates, later scalars win', () => {
    const user = {
      sandbox: { enabled: false, allowUnsandboxedCommands: true, filesystem: { denyWrite: ['/mine', '/h/.roz'] } },
      permissions: { deny: ['Bash(rm:*)'] },
      model: 'opus',
    };
    const merged = mergeSettings(user, doc, { hooks: { PreToolUse: [{ matcher: '*' }] } }) as typeof doc & { model: string; hooks: unknown };
    expect(merged.sandbox.enabled).toBe(true);
    expect(merged.sandbox.allowUnsandboxedCommands).toBe(false);
    expect(merged.sandbox.filesystem.denyWrite[0]).toBe('/mine');
    expect(merged.sandbox.filesystem.denyWrite.filter((p) => p === '/h/.roz')).toHaveLength(1);
    expect(merged.permissions.deny).toContain('Bash(rm:*)');
    expect(merged.model).toBe('opus');
    expect(merged.hooks).toEqual({ PreToolUse: [{ matcher: '*' }] });
    expect(user.sandbox.filesystem.denyWrite).toEqual(['/mine', '/h/.roz']); // inputs untouched
  });
});

describe('[enforce] network config', () => {
  it('defaults to "user" and takes "open", a domain list, or ROZ_ENFORCE_NETWORK', () => {
    expect(resolveConfig({ home: '/h', env: {} }).config.enforce.network).toBe('user');
    expect(resolveConfig({ home: '/h', env: {}, file: { path: 'c', data: { enforce: { network: 'open' } } } }).config.enforce.network).toBe('open');
    expect(resolveConfig({ home: '/h', env: { ROZ_ENFORCE_NETWORK: 'a.com, *.b.org' } }).config.enforce.network).toEqual(['a.com', '*.b.org']);
    const bad = resolveConfig({ home: '/h', env: {}, file: { path: 'c', data: { enforce: { network: 'closed' } } } });
    expect(bad.config.enforce.network).toBe('user');
    expect(bad.problems.join()).toMatch(/enforce\.network: expected "user", "open" or a list of domains/);
  });
});

describe('launch arguments', () => {
  it("takes the user's --settings out (roz merges it under its own) and puts roz's first", () => {
    expect(takeSettingsArg(['-p', 'x', '--settings', 'mine.json', '--model', 'm'])).toEqual({ args: ['-p', 'x', '--model', 'm'], value: 'mine.json' });
    expect(takeSettingsArg(['--settings={"a":1}'])).toEqual({ args: [], value: '{"a":1}' });
    expect(takeSettingsArg(['-p', '--', '--settings', 'x'])).toEqual({ args: ['-p', '--', '--settings', 'x'] });
    const plan = planLaunch('/x/claude.exe', ['--settings', 'u.json', '-p', 'hi'], { env: {}, home: '/nonexistent', pluginDir: '/p' });
    expect(plan.userSettings).toBe('u.json');
    expect(withSettings(plan, '/run/s.json').args).toEqual(['--settings', '/run/s.json', '--plugin-dir', '/p', '-p', 'hi']);
  });
});
