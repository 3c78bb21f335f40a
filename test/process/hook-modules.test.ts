// What a hook process loads of node itself. node:crypto (~5 ms to load: its
// module graph pulls in streams and ciphers), node:net and child_process are
// whole milliseconds a hook pays on every tool call; the common paths, the
// governed ones included, must load nothing bare `node -e ""` does not, but
// vm (the code cache) and os. Run the way the client runs them (hooks.json's
// command through /bin/sh), with a preload that lists node's modules at exit.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../governance/helpers.js';
import { hookCommand, payloads, rozBin, runProcess, sandbox } from '../helpers/hooks.js';

const preload = join(import.meta.dirname, 'fixtures', 'module-list.cjs');
const ALLOWED = ['NativeModule vm', 'NativeModule os', 'Internal Binding os'];

function modulesOf(stderr: string): string[] {
  const line = stderr.split('\n').find((l) => l.startsWith('ROZ-MODULES '));
  if (!line) throw new Error(`no module list in: ${stderr}`);
  return JSON.parse(line.slice('ROZ-MODULES '.length)) as string[];
}

/** The hook for `event` as hooks.json runs it, with the module list preloaded. */
async function hook(event: string, payload: unknown, env: NodeJS.ProcessEnv, cwd?: string) {
  const cmd = hookCommand(event).replace(' node ', ` node -r ${preload} `);
  const r = await runProcess('/bin/sh', ['-c', cmd], JSON.stringify(payload), env, cwd);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).not.toMatch(/refused|failed open/);
  return { r, extra: modulesOf(r.stderr).filter((m) => !bare.includes(m)) };
}

let bare: string[] = [];

describe('what a hook process loads of node', () => {
  it('the common paths load nothing node -e "" does not, but vm and os: no crypto, net, child_process or streams', async () => {
    const plain = await runProcess(process.execPath, ['-r', preload, '-e', ''], '', { PATH: process.env.PATH });
    bare = modulesOf(plain.stderr);
    expect(bare.length).toBeGreaterThan(20);

    // Ungoverned: a Bash call, a Read, a stop.
    {
      const { env } = sandbox();
      const p = payloads('mods-0', makeProject({ intents: null, git: true }).root);
      await hook('SessionStart', p.sessionStart(), env);
      for (let round = 0; round < 2; round++) {
        const runs = [
          await hook('PreToolUse', p.pre('Bash', { command: 'npm test -- --run && git diff --stat' }), env),
          await hook('PreToolUse', p.pre('Read', { file_path: '/etc/hostname' }), env),
          await hook('Stop', p.stop(), env),
        ];
        for (const [i, { extra }] of runs.entries())
          expect(
            extra.filter((m) => !ALLOWED.includes(m)),
            `ungoverned run ${i}`,
          ).toEqual([]);
      }
    }

    // Governed, with an intent selected. Its first hook records the audit's
    // base (git, once per selection), and the stop's scope audit runs git by
    // design: those may start processes, nothing may load node:crypto.
    const proj = makeProject({ git: true });
    const { env } = sandbox();
    const p = payloads('mods-1', proj.root);
    await hook('SessionStart', p.sessionStart(), env);
    const sel = await runProcess(process.execPath, [rozBin, 'intent', 'select', 'INT-001', '--session', 'mods-1'], '', env, proj.root);
    expect(sel.code, sel.stderr).toBe(0);
    const file = join(proj.root, 'src', 'auth', 'a.ts');
    const ledger = join(proj.root, '.orchestration', 'agent_trace.jsonl');
    expect((await hook('PreToolUse', p.pre('Read', { file_path: join(proj.root, 'README.md') }), env)).extra).toContain('NativeModule child_process');
    for (let round = 0; round < 2; round++) {
      const runs = [
        await hook('PreToolUse', p.pre('Bash', { command: 'npm test -- --run && git diff --stat' }), env),
        await hook('PreToolUse', p.pre('Read', { file_path: join(proj.root, 'README.md') }), env),
        // A Write of a file the session already wrote: the stale-file check hashes it.
        await hook('PreToolUse', p.pre('Write', { file_path: file, content: `export const a = ${round};\n` }), env),
      ];
      writeFileSync(file, `export const a = ${round};\n`);
      // The recorded change: content hashes, a record id, the ledger line.
      runs.push(await hook('PostToolUse', p.post('Write', { file_path: file, content: `export const a = ${round};\n` }), env));
      for (const [i, { extra }] of runs.entries())
        expect(
          extra.filter((m) => !ALLOWED.includes(m)),
          `governed run ${i} of round ${round}`,
        ).toEqual([]);
      expect((await hook('Stop', p.stop(), env)).extra).not.toContain('NativeModule crypto');
    }
    const records = readFileSync(ledger, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(2);
    expect(records[1].files[0].conversations[0].ranges[0].content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(records[0].id).not.toBe(records[1].id);
  });

  it('the check can fail: a hook that loads node:crypto shows it', async () => {
    const { env } = sandbox();
    const cmd = hookCommand('PreToolUse').replace(' node ', ` node -r ${preload} -r node:crypto `);
    const r = await runProcess('/bin/sh', ['-c', cmd], JSON.stringify(payloads('mods-2').pre('Read', { file_path: '/etc/hostname' })), env);
    expect(modulesOf(r.stderr)).toContain('NativeModule crypto');
  });
});
