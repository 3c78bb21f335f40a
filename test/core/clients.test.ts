// The client table (core/clients.ts), Codex's launch line (core/codex-launch.ts)
// and the patch reader (core/apply-patch.ts): pure, so checked directly.
import { describe, expect, it } from 'vitest';
import { patchFiles } from '../../src/core/apply-patch.js';
import { asRozTool, clientById, clientModelId, hookClient, parseClientId } from '../../src/core/clients.js';
import { CLIENT_COMMANDS, clientForCommand } from '../../src/core/client-commands.js';
import { CodexArgsError, codexLaunch, worktreeEntries, type CodexLaunchInput } from '../../src/core/codex-launch.js';
import { planWorktreeSandbox, type LinkedWorktree } from '../../src/core/enforce/worktree-sandbox.js';
import { mutationOf } from '../../src/core/governance/mutations.js';
import { loadOnDemand, NotLoaded } from '../../src/core/on-demand.js';

describe('client descriptors', () => {
  it('tells the client from the command, by its executable name', () => {
    expect(clientForCommand('claude')?.id).toBe('claude');
    expect(clientForCommand('/x/node_modules/@openai/codex/bin/codex.js')?.id).toBe('codex');
    expect(clientForCommand('codex')?.id).toBe('codex');
    expect(clientForCommand('gemini')?.id).toBe('gemini');
    expect(clientForCommand('aider')).toBeNull();
    expect(parseClientId('codex')).toBe('codex');
    expect(parseClientId('cursor')).toBeNull();
  });
  it('a hook serves Claude Code unless roz launched another client', () => {
    expect(hookClient({}).id).toBe('claude');
    expect(hookClient({ ROZ_CLIENT: 'codex' }).id).toBe('codex');
    expect(hookClient({ ROZ_CLIENT: 'nonsense' }).id).toBe('claude');
  });
  it("renames another client's tools to roz's, keeping the original; a patch tool keeps its name", () => {
    const gemini = clientById('gemini');
    const shell: Record<string, unknown> = { tool_name: 'run_shell_command', tool_input: { command: 'ls' } };
    expect(asRozTool(shell, gemini)).toBe(true);
    expect(shell).toMatchObject({ tool_name: 'Bash', client_tool_name: 'run_shell_command' });
    const write: Record<string, unknown> = { tool_name: 'write_file' };
    asRozTool(write, gemini);
    expect(write.tool_name).toBe('Write');
    const patch: Record<string, unknown> = { tool_name: 'apply_patch' };
    expect(asRozTool(patch, clientById('codex'))).toBe(false);
    expect(patch.tool_name).toBe('apply_patch');
    // A name that is an Object property is not a tool.
    const proto: Record<string, unknown> = { tool_name: 'constructor' };
    expect(asRozTool(proto, gemini)).toBe(false);
  });
  it('spells model ids with the vendor, keeping one that has it', () => {
    expect(clientModelId(clientById('codex'), 'gpt-5')).toBe('openai/gpt-5');
    expect(clientModelId(clientById('codex'), 'azure/gpt-5')).toBe('azure/gpt-5');
  });
});

describe('apply_patch: the files a patch writes', () => {
  const patch = [
    '*** Begin Patch',
    '*** Add File: src/new.ts',
    '+x',
    '*** Update File: src/a.ts',
    '*** Move to: src/b.ts',
    '@@',
    '-a',
    '+b',
    '*** Delete File: old.txt',
    '*** End Patch',
    '*** Add File: after-end.ts',
  ].join('\n');
  it('names every added, updated, moved and deleted file, and nothing after the end', () => {
    expect(patchFiles(patch)).toEqual({ paths: ['src/new.ts', 'src/a.ts', 'src/b.ts', 'old.txt'] });
    expect(patchFiles(`apply_patch <<'EOF'\n${patch}\nEOF`).paths).toEqual(['src/new.ts', 'src/a.ts', 'src/b.ts', 'old.txt']);
  });
  it('reports text that is not a patch (governance refuses what it cannot place)', () => {
    expect(patchFiles('echo hi').problem).toContain('Begin Patch');
    expect(patchFiles('*** Begin Patch\n*** End Patch').problem).toBe('the patch names no file');
  });
  it('is a mutation of those files for governance (the reader loaded on demand, as the hook does)', async () => {
    expect(() =>
      mutationOf({ session_id: 's', cwd: '/p', hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: {} }, () => ({}) as never),
    ).toThrow(NotLoaded);
    await loadOnDemand('apply-patch');
    const base = { session_id: 's', cwd: '/p', hook_event_name: 'PreToolUse', tool_name: 'apply_patch' };
    const m = mutationOf({ ...base, tool_input: { command: patch } }, () => ({ writes: false, targets: [], unknown: [] }) as never);
    expect(m?.targets.map((t) => t.path)).toEqual(['src/new.ts', 'src/a.ts', 'src/b.ts', 'old.txt']);
    const empty = mutationOf({ ...base, tool_input: {} }, () => ({ writes: false, targets: [], unknown: [] }) as never);
    expect(empty?.unknown).toHaveLength(1);
  });
});

describe("codex exec's command line under roz", () => {
  const input = (over: Partial<CodexLaunchInput> = {}): CodexLaunchInput => ({
    args: ['exec', '--skip-git-repo-check', 'do it'],
    hookCommand: (n) => `'/usr/bin/node' '/roz/bin/roz' hook ${n}`,
    hooks: CLIENT_COMMANDS.codex.hooks,
    project: '/work/p',
    readOnly: ['/home/u/.roz', '/work/p/.orchestration', '/work/p/.roz-store'],
    denyRead: ['/home/u/.roz/control'],
    secretEnv: ['ROZ_TOKEN'],
    network: 'user',
    legacySandboxIn: [],
    ...over,
  });
  const overrides = (args: string[]): string[] => args.flatMap((a, i) => (args[i - 1] === '-c' ? [a] : []));

  it("puts roz's hooks, Codex's hook-trust bypass and a profile with roz's files read-only before the user's arguments", () => {
    const l = codexLaunch(input());
    expect(l.args.slice(0, 2)).toEqual(['exec', '--dangerously-bypass-hook-trust']);
    expect(l.args.slice(-2)).toEqual(['--skip-git-repo-check', 'do it']);
    const c = overrides(l.args);
    // A hook Codex times out fails open: PreToolUse may wait for a human up to 590 s, so Codex waits 600.
    expect(c).toContain(`hooks.PreToolUse=[{hooks=[{type="command",command="'/usr/bin/node' '/roz/bin/roz' hook pre-tool-use",timeout=600}]}]`);
    expect(c).toContain('hooks.Stop=[{hooks=[{type="command",command="\'/usr/bin/node\' \'/roz/bin/roz\' hook stop",timeout=30}]}]');
    expect(c).toContain('shell_environment_policy.exclude=["ROZ_TOKEN"]');
    expect(l.mode).toBe('exec');
    expect(c).toContain('features.codex_hooks=true');
    // The mark the hooks look for among their ancestors before they believe the session is enforced.
    expect(c).toContain(clientById('codex').sandboxMark);
    expect(c).toContain(
      'permissions.roz={extends=":workspace", filesystem={":slash_tmp"="read", ":tmpdir"="read", "/home/u/.roz/control"="none", ":project_roots"={".orchestration"="read", ".roz-store"="read"}}}',
    );
    expect(l.enforced).toBe(true);
    expect(l.notes.join('\n')).not.toContain('advisory');
  });
  it('forces the older workspace-write settings where a config sets sandbox_mode, and says what is advisory', () => {
    const l = codexLaunch(input({ legacySandboxIn: ['/home/u/.codex/config.toml'] }));
    const c = overrides(l.args);
    expect(c).toContain('sandbox_mode="workspace-write"');
    expect(c).toContain('sandbox_workspace_write.exclude_slash_tmp=true');
    expect(c.some((v) => v.startsWith('default_permissions'))).toBe(false);
    expect(l.enforced).toBe(false);
    expect(l.notes.join('\n')).toMatch(/advisory: .*\.orchestration\/, \.roz-store\/ read-only/);
    expect(l.notes.join('\n')).toMatch(/advisory: .*set sandbox_mode, so the supervisors' control records stay readable/);
  });
  it('opens the network only when roz says open, and says a domain list is not enforced', () => {
    expect(overrides(codexLaunch(input({ network: 'open' })).args)).toContain('permissions.roz.network={enabled=true}');
    const listed = codexLaunch(input({ network: ['github.com'] }));
    expect(listed.enforced).toBe(false);
    expect(listed.notes.join('\n')).toContain('advisory');
  });
  it("refuses a command line that would replace roz's sandbox or hooks, or is not `codex exec`", () => {
    for (const bad of [
      ['exec', '-s', 'danger-full-access', 'x'],
      ['exec', '--sandbox=read-only', 'x'],
      ['exec', '--dangerously-bypass-approvals-and-sandbox', 'x'],
      ['exec', '--full-auto', 'x'],
      ['exec', '-c', 'sandbox_mode="danger-full-access"', 'x'],
      ['exec', '-c', 'hooks.PreToolUse=[]', 'x'],
      ['exec', '--config=features.codex_hooks=false', 'x'],
      ['exec', '-c', 'shell_environment_policy.inherit="all"', 'x'],
      ['exec', '--add-dir', '/', 'x'],
      ['--add-dir=/home', 'x'],
      ['-C', '/elsewhere'],
      ['--profile', 'wide'],
      ['--worktree'],
      ['--remote', 'unix://'],
      ['--disable', 'codex_hooks'],
      ['--disable=codex_hooks'],
      ['resume', '--last'],
      ['sandbox', 'sh'],
      ['login'],
    ])
      expect(() => codexLaunch(input({ args: bad })), bad.join(' ')).toThrow(CodexArgsError);
    expect(() => codexLaunch(input({ args: ['exec', '-c', 'model="o3"', 'x'] }))).not.toThrow();
    // After `--`, everything is the prompt.
    expect(() => codexLaunch(input({ args: ['exec', '--', '-s'] }))).not.toThrow();
  });
  describe("an agent's linked worktree: what a Claude agent's sandbox opens to commit, and its denials", () => {
    const linked: LinkedWorktree = {
      worktree: '/work/p',
      gitDir: '/r/.git/worktrees/a',
      commonDir: '/r/.git',
      branch: 'refs/heads/roz/a',
      commonEntries: ['HEAD', 'config', 'hooks', 'info', 'objects', 'refs', 'logs', 'worktrees', 'packed-refs'],
      looseRefs: ['refs/heads', 'refs/heads/main', 'refs/heads/roz', 'refs/heads/roz/a', 'refs/heads/roz/b', 'refs/tags'],
      reflogs: ['HEAD', 'refs', 'refs/heads', 'refs/heads/main', 'refs/heads/roz', 'refs/heads/roz/a', 'refs/heads/roz/b'],
      worktreeIds: ['a', 'b'],
      otherWorktrees: ['/r', '/work/b'],
    };
    const plan = planWorktreeSandbox(linked, true);

    it('writes its admin dir (with the staging store) and its ref and reflog folders; the refs beside its own stay read-only', () => {
      expect(worktreeEntries('/work/p', plan)).toEqual({
        write: ['/r/.git/logs/refs/heads/roz', '/r/.git/refs/heads/roz', '/r/.git/worktrees/a'],
        // Only what lies inside a writable folder: the rest (main, config, objects, other admin dirs) is read-only already.
        read: ['/r/.git/logs/refs/heads/roz/b', '/r/.git/refs/heads/roz/b'],
      });
    });
    it('puts them in the profile, turns the login shell off for the git shim, and says it commits on its branch', () => {
      const l = codexLaunch(input({ worktree: plan, gitShim: true }));
      const c = overrides(l.args);
      const profile = c.find((v) => v.startsWith('permissions.roz='))!;
      for (const w of ['/r/.git/logs/refs/heads/roz', '/r/.git/refs/heads/roz', '/r/.git/worktrees/a']) expect(profile).toContain(`"${w}"="write"`);
      for (const r of ['/r/.git/logs/refs/heads/roz/b', '/r/.git/refs/heads/roz/b']) expect(profile).toContain(`"${r}"="read"`);
      for (const never of ['/r/.git/config', '/r/.git/objects', '/r/.git/refs/heads/main', '/r/.git/refs/heads', '/r/.git/worktrees/b'])
        expect(profile).not.toContain(`"${never}"="write"`);
      expect(c).toContain('allow_login_shell=false');
      expect(l.enforced).toBe(true);
      expect(l.notes.join('\n')).toContain("its git admin dir and its branch's ref writable");
    });
    it('opens nothing of .git elsewhere, or where another layer forces the older sandbox settings', () => {
      for (const l of [codexLaunch(input()), codexLaunch(input({ worktree: plan, legacySandboxIn: ['/home/u/.codex/config.toml'] }))]) {
        expect(overrides(l.args).join(' ')).not.toContain('="write"');
        expect(l.notes.join('\n')).not.toContain('admin dir');
      }
      expect(overrides(codexLaunch(input()).args)).not.toContain('allow_login_shell=false');
    });
  });
  it("starts Codex's TUI in this process (no shared daemon) with the same hooks and profile, the user's options and prompt after", () => {
    for (const args of [[], ['do it'], ['-m', 'gpt-5', 'do it'], ['--', 'exec']]) {
      const l = codexLaunch(input({ args }));
      expect(l.mode, args.join(' ')).toBe('interactive');
      expect(l.args.slice(0, 2)).toEqual(['--dangerously-bypass-hook-trust', '--no-daemon']);
      expect(l.args.slice(l.args.length - args.length)).toEqual(args);
      expect(overrides(l.args)).toContain(clientById('codex').sandboxMark);
      expect(l.enforced).toBe(true);
    }
  });
});
