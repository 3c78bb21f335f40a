// The PreToolUse gates, on a real temp project (paths, symlinks) with the real shell analysers.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOnDemand } from '../../src/core/on-demand.js';
import { intentsOnPreToolUse, type GovernanceContext } from '../../src/core/governance/policy.js';
import { sha256 } from '../../src/core/sha256.js';
import { emptyGovernance, rememberFile, type GovernanceState } from '../../src/core/governance/state.js';
import { classifyDestructive } from '../../src/core/shell/destructive.js';
import { writeTargets } from '../../src/core/shell/writes.js';
import { loadProject } from '../../src/store/orchestration.js';
import { resolveReal } from '../../src/store/realpath.js';
import type { Verdict } from '../../src/core/verdict.js';
import { makeProject, pre, type Project } from './helpers.js';

function ctxFor(p: Project, cwd = p.root): GovernanceContext {
  const project = loadProject(p.root);
  return {
    project,
    paths: { cwd, home: p.home, root: project.root, realish: resolveReal },
    storeRoot: resolveReal(p.store),
    writes: writeTargets,
    destructive: classifyDestructive,
    hashFile: (f) => {
      try {
        return sha256(readFileSync(f));
      } catch {
        return null;
      }
    },
  };
}

function withIntent(id = 'INT-001'): GovernanceState {
  return { ...emptyGovernance(), intent_id: id, selected_at: '2026-03-01T10:00:00Z', selected_via: 'mcp' };
}

const bash = (p: Project, command: string, gov = withIntent(), cwd = p.root): Verdict =>
  intentsOnPreToolUse(gov, pre(cwd, 'Bash', { command }), ctxFor(p, cwd)).verdict;
const write = (p: Project, file_path: string, gov = withIntent(), tool = 'Write'): Verdict =>
  intentsOnPreToolUse(gov, pre(p.root, tool, { file_path, content: 'x' }), ctxFor(p)).verdict;
const code = (v: Verdict): string => (v.kind === 'deny' || v.kind === 'ask' ? `${v.kind}:${v.code}` : v.kind);

// These call governance directly; the engine loads these modules on demand (test/process/hook-startup.test.ts).
beforeAll(loadAllOnDemand);

describe('governance PreToolUse policy', () => {
  const p = makeProject();

  it('lets reads and non-writing commands through', () => {
    expect(code(intentsOnPreToolUse(emptyGovernance(), pre(p.root, 'Read', { file_path: 'src/x' }), ctxFor(p)).verdict)).toBe('none');
    expect(code(bash(p, 'ls -la && git status', emptyGovernance()))).toBe('none');
  });

  it('INTENT_REQUIRED: a mutation without a selected intent, with the selectable intents and how to select', () => {
    const v = write(p, 'src/auth/a.ts', emptyGovernance());
    expect(code(v)).toBe('deny:INTENT_REQUIRED');
    if (v.kind !== 'deny') return;
    expect(v.reason).toMatch(/Write .*src\/auth\/a\.ts/);
    expect(v.reason).toMatch(/select_active_intent/);
    expect(v.reason).toMatch(/INT-001/);
    expect(v.reason).not.toMatch(/INT-002/); // DRAFT is not selectable
    expect(code(bash(p, 'echo hi > src/auth/a.ts', emptyGovernance()))).toBe('deny:INTENT_REQUIRED');
  });

  it('INTENT_REQUIRED: the selected intent is no longer IN_PROGRESS or gone', () => {
    expect(code(write(p, 'src/old/a.ts', withIntent('INT-003')))).toBe('deny:INTENT_REQUIRED');
    expect(code(write(p, 'src/auth/a.ts', withIntent('INT-999')))).toBe('deny:INTENT_REQUIRED');
  });

  it('allows writes inside owned_scope (relative, absolute, single-file glob)', () => {
    expect(code(write(p, 'src/auth/a.ts'))).toBe('none');
    expect(code(write(p, join(p.root, 'src/auth/deep/b.ts')))).toBe('none');
    expect(code(write(p, 'src/middleware/jwt.ts', withIntent(), 'Edit'))).toBe('none');
    expect(code(bash(p, 'echo x > src/auth/out.txt'))).toBe('none');
  });

  it('SCOPE_VIOLATION: outside owned_scope, saying what is allowed', () => {
    const v = write(p, 'src/billing/x.ts');
    expect(code(v)).toBe('ask:SCOPE_VIOLATION');
    if (v.kind === 'ask') expect(v.reason).toMatch(/src\/billing\/x\.ts.*owned_scope of intent INT-001 \(src\/auth\/\*\*, src\/middleware\/jwt\.ts\)/);
  });

  describe('scope escapes', () => {
    it('echo x > ../outside', () => {
      expect(code(bash(p, 'echo x > ../outside'))).toBe('ask:SCOPE_VIOLATION');
      expect(code(bash(p, 'echo x > ../../outside', withIntent(), join(p.root, 'src/auth')))).toBe('ask:SCOPE_VIOLATION');
      expect(code(bash(p, 'echo x > src/auth/../../README.md'))).toBe('ask:SCOPE_VIOLATION');
    });

    it('a symlink inside the scope pointing out', () => {
      symlinkSync(p.outside, join(p.root, 'src/auth/link'));
      const v = write(p, 'src/auth/link/evil.ts');
      expect(code(v)).toBe('ask:SCOPE_VIOLATION');
      if (v.kind === 'ask') expect(v.reason).toMatch(/outside the project.*symlinks/);
      expect(code(bash(p, 'echo x > src/auth/link/evil.ts'))).toBe('ask:SCOPE_VIOLATION');
    });

    it('a dangling symlink inside the scope pointing out', () => {
      symlinkSync(join(p.outside, 'not-yet'), join(p.root, 'src/auth/dangling.ts'));
      expect(code(write(p, 'src/auth/dangling.ts'))).toBe('ask:SCOPE_VIOLATION');
    });

    it('absolute paths and ~', () => {
      expect(code(write(p, join(p.outside, 'x.ts')))).toBe('ask:SCOPE_VIOLATION');
      expect(code(bash(p, `echo x > ${join(p.outside, 'x')}`))).toBe('ask:SCOPE_VIOLATION');
      expect(code(bash(p, 'touch ~/.bashrc'))).toBe('ask:SCOPE_VIOLATION');
      expect(code(write(p, '/etc/passwd'))).toBe('ask:SCOPE_VIOLATION');
    });

    it('cd / && rm x', () => {
      expect(code(bash(p, 'cd / && rm x'))).toBe('ask:SCOPE_VIOLATION');
      expect(code(bash(p, 'cd src/auth && rm x'))).toBe('none');
      expect(code(bash(p, 'cd .. && touch project/src/auth/y'))).toBe('none');
    });

    it(`python -c "open('x','w')"`, () => {
      expect(code(bash(p, `python -c "open('x','w')"`))).toBe('ask:SCOPE_VIOLATION');
    });

    it('writes roz cannot resolve count as out of scope, saying why', () => {
      const v = bash(p, 'echo x > "$TARGET"');
      expect(code(v)).toBe('ask:SCOPE_VIOLATION');
      if (v.kind === 'ask') expect(v.reason).toMatch(/cannot tell which files/);
    });
  });

  it('.orchestration/ and the roz store are never writable, with or without an intent', () => {
    expect(code(write(p, '.orchestration/active_intents.yaml'))).toBe('deny:SCOPE_VIOLATION');
    expect(code(bash(p, 'echo >> .orchestration/agent_trace.jsonl', emptyGovernance()))).toBe('deny:SCOPE_VIOLATION');
    expect(code(write(p, join(p.store, 'sessions/x/state.json')))).toBe('deny:STORE_PROTECTED');
  });

  it('.intentignore paths are outside governance (no intent, no scope)', () => {
    const q = makeProject({ ignore: '# scratch\ndist/\n*.log\n/tmp/**\n' });
    const none = emptyGovernance();
    expect(code(write(q, 'dist/bundle.js', none))).toBe('none');
    expect(code(write(q, 'src/deep/debug.log', none))).toBe('none');
    expect(code(bash(q, 'echo x > /tmp/scratch.txt', none))).toBe('none');
    expect(code(write(q, 'src/auth/a.ts', none))).toBe('deny:INTENT_REQUIRED');
    // mixing an ignored and a governed target still needs the intent and scope
    expect(code(bash(q, 'echo x | tee dist/a src/billing/b'))).toBe('ask:SCOPE_VIOLATION');
  });

  it('STALE_FILE: the file changed on disk since the agent read it', () => {
    const file = p.write('src/auth/stale.ts', 'one\n');
    const gov = withIntent();
    rememberFile(gov, file, sha256('one\n'), 'read', new Date());
    expect(code(write(p, 'src/auth/stale.ts', gov, 'Edit'))).toBe('none');
    writeFileSync(file, 'two\n');
    const v = write(p, 'src/auth/stale.ts', gov, 'Edit');
    expect(code(v)).toBe('deny:STALE_FILE');
    if (v.kind === 'deny') expect(v.reason).toMatch(/Re-read it/);
  });

  it('DESTRUCTIVE_BLOCKED: destructive commands ask the human', () => {
    expect(code(bash(p, 'git push --force', emptyGovernance()))).toBe('ask:DESTRUCTIVE_BLOCKED');
    expect(code(bash(p, 'rm -rf src/auth'))).toBe('ask:DESTRUCTIVE_BLOCKED');
    // a denial is stricter than asking
    expect(code(bash(p, 'rm -rf src/billing'))).toBe('ask:SCOPE_VIOLATION');
  });

  it('HOOK_ERROR: an invalid intents file refuses every mutation, with line and column', () => {
    const q = makeProject({ intents: 'active_intents:\n  - id: INT-001\n    status: WIP\n' });
    const v = write(q, 'src/auth/a.ts');
    expect(code(v)).toBe('deny:HOOK_ERROR');
    if (v.kind === 'deny') expect(v.reason).toMatch(/active_intents\.yaml:\d+:\d+: /);
    expect(code(bash(q, 'ls'))).toBe('none');
  });

  it('a file tool without a path is an unknown write', () => {
    mkdirSync(join(p.root, 'src/auth/nb'), { recursive: true });
    expect(code(intentsOnPreToolUse(withIntent(), pre(p.root, 'NotebookEdit', {}), ctxFor(p)).verdict)).toBe('deny:SCOPE_VIOLATION');
  });
});
