// Protected paths and the sandbox flag, through the plugin's own PreToolUse
// hook as a process: the file tools (which the sandbox does not confine) may
// not write .claude/, ~/.claude/, roz's code cache or config, .orchestration/
// or the run's settings file, also through a symlink; a Bash call that asks
// to leave the sandbox is refused.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { payloads, pluginDir, runHook, sandbox } from '../helpers/hooks.js';

const SID = '5d7c2a44-3b4a-4c55-9d1e-6f0e8a1b2c3d';

async function decision(env: NodeJS.ProcessEnv, cwd: string, tool: string, input: Record<string, unknown>) {
  const p = payloads(SID);
  const r = await runHook('PreToolUse', { ...p.pre(tool, input), cwd }, env);
  expect(r.code, r.stderr).toBe(0);
  const out = r.json?.hookSpecificOutput;
  return out ? `${out.permissionDecision}:${String(out.permissionDecisionReason ?? '').match(/^\[(\w+)\]/)?.[1] ?? ''}` : 'none';
}

describe('protected paths (PreToolUse)', () => {
  it('denies file-tool writes into every protected area, resolved through symlinks, and allows ordinary work', async () => {
    const { home, env } = sandbox();
    const project = join(home, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    const settingsFile = join(home, 'store', 'runs', 'run-1', 'settings.json');
    const cfg = join(home, 'elsewhere', 'roz.toml');
    const e = { ...env, ROZ_SETTINGS_FILE: settingsFile, ROZ_CONFIG: cfg, ROZ_CODE_CACHE: join(home, 'cache') };
    // a link inside the project that points at the client's settings folder
    mkdirSync(join(project, '.claude'), { recursive: true });
    symlinkSync(join(project, '.claude'), join(project, 'src', 'conf'));
    writeFileSync(join(project, 'src', 'a.ts'), 'a\n');

    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['project .claude/settings.local.json', 'Write', { file_path: join(project, '.claude', 'settings.local.json'), content: '{}' }, 'deny:PROTECTED_PATH'],
      ['through a symlink', 'Write', { file_path: join(project, 'src', 'conf', 'settings.json'), content: '{}' }, 'deny:PROTECTED_PATH'],
      ['relative, via ..', 'Edit', { file_path: 'src/../.claude/agents/x.md', old_string: 'a', new_string: 'b' }, 'deny:PROTECTED_PATH'],
      ['~/.claude/settings.json', 'Write', { file_path: '~/.claude/settings.json', content: '{}' }, 'deny:PROTECTED_PATH'],
      ["roz's plugin (the hooks' code)", 'Edit', { file_path: join(pluginDir, 'bin', 'roz'), old_string: 'a', new_string: 'b' }, 'deny:PROTECTED_PATH'],
      ['the code cache', 'Write', { file_path: join(home, 'cache', 'hook.cache'), content: 'x' }, 'deny:PROTECTED_PATH'],
      ['the config file', 'Write', { file_path: cfg, content: '[review]\nmode = "never"\n' }, 'deny:PROTECTED_PATH'],
      ['the run settings file', 'Write', { file_path: settingsFile, content: '{}' }, 'deny:PROTECTED_PATH'],
      ['a nested .orchestration/', 'Write', { file_path: join(project, 'src', '.orchestration', 'active_intents.yaml'), content: 'x' }, 'deny:PROTECTED_PATH'],
      ['a notebook in .claude/', 'NotebookEdit', { notebook_path: join(project, '.claude', 'n.ipynb'), new_source: 'x' }, 'deny:PROTECTED_PATH'],
      ['Bash redirect into .claude/ (advisory first line)', 'Bash', { command: `echo '{}' > .claude/settings.local.json` }, 'deny:PROTECTED_PATH'],
      ['ordinary project file', 'Write', { file_path: join(project, 'src', 'a.ts'), content: 'b\n' }, 'none'],
      ['a plan file under ~/.claude/plans', 'Write', { file_path: join(home, '.claude', 'plans', 'p.md'), content: 'x' }, 'none'],
      ['ordinary Bash', 'Bash', { command: 'echo hi > src/b.ts' }, 'none'],
    ];
    for (const [what, tool, input, want] of cases) expect(`${what}: ${await decision(e, project, tool, input)}`).toBe(`${what}: ${want}`);
  });

  it('denies a Bash call that asks to run outside the sandbox', async () => {
    const { home, env } = sandbox();
    expect(await decision(env, home, 'Bash', { command: 'ls', dangerouslyDisableSandbox: true })).toBe('deny:SANDBOX_BYPASS');
    expect(await decision(env, home, 'Bash', { command: 'ls', dangerouslyDisableSandbox: false })).toBe('none');
  });
});
