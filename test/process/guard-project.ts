// The governed project the guard's process tests send Bash calls to: outside
// /tmp (test/helpers/outside-tmp.ts), one intent IN_PROGRESS owning `scope`,
// selected for the session through the built CLI after the built hook's
// SessionStart, as a session would.
import { tmpdir } from 'node:os';
import { expect } from 'vitest';
import { makeProject } from '../governance/helpers.js';
import { outsideTmpDir } from '../helpers/outside-tmp.js';
import { payloads, rozBin, runHook, runProcess, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

export async function governedHookProject(opts: { base: string; sid: string; intent: string; name: string; scope: string }) {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = outsideTmpDir(opts.base);
  const proj = makeProject({
    git: true,
    intents: `active_intents:\n  - id: ${opts.intent}\n    name: ${opts.name}\n    status: IN_PROGRESS\n    owned_scope: ["${opts.scope}"]\n`,
  });
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  const { env: base } = sandbox();
  const env = { ...base, HOME: tempDir('home-', outsideTmpDir(opts.base)), CLAUDE_PROJECT_DIR: proj.root, TMPDIR: tmpdir() };
  const p = payloads(opts.sid, proj.root);
  await runHook('SessionStart', p.sessionStart(), env);
  const sel = await runProcess(process.execPath, [rozBin, 'intent', 'select', opts.intent, '--session', opts.sid], '', base, proj.root);
  expect(sel.code, sel.stderr).toBe(0);
  return { proj, env, p };
}
