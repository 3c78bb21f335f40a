// The review snapshot walks the work tree honouring its .gitignore files,
// which the agent writes, against paths the agent makes, inside the session
// lock (issue 24, bounded time). A .gitignore line that backtracks for more
// than 20 s in the `ignore` library on a 100-level path costs the hook
// milliseconds here, and the snapshot still honours ordinary lines.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { payloads, roz, runHook, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const SID = 'bounded-gitignore-1';

describe('a hostile .gitignore', () => {
  it('does not stall the #roz snapshot: the hook answers in seconds and the tree is taken', async () => {
    const proj = tempDir('roz-ignore-');
    const git = (...args: string[]) => execFileSync('git', ['-C', proj, ...args], { stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'base');
    writeFileSync(join(proj, '.gitignore'), '**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b\n*.log\n');
    const deep = join(proj, ...Array.from({ length: 100 }, () => 'a'));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'a'), 'deep\n');
    writeFileSync(join(proj, 'x.log'), 'ignored\n');
    const { env } = sandbox({ CLAUDE_PROJECT_DIR: proj });
    const p = payloads(SID, proj);
    const started = Date.now();
    const r = await runHook('UserPromptSubmit', p.prompt('#roz add a greeting'), env);
    const ms = Date.now() - started;
    expect(r.code, r.stderr).toBe(0);
    // A hook process with a snapshot of 100 directories, on a loaded 2-core machine; `ignore` alone took over 20 s.
    expect(ms).toBeLessThan(10_000);
    const state = JSON.parse((await roz(['debug', SID, '--json'], env)).stdout);
    expect(state.review.base?.tree, JSON.stringify(state.review)).toMatch(/^[0-9a-f]{40}$/);
  }, 30_000);
});
