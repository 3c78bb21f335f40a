// The client's own permission dialog (its PermissionRequest hook) as a request
// in roz's one queue: the plugin's hook command from hooks.json as a process,
// a real Supervisor and its control socket, `roz queue/approve/block` as the
// built CLI. roz never answers the dialog by itself: standalone, past the
// wait, or answered in the pane, the hook prints no decision.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Enforcement } from '../../src/core/enforce/mode.js';
import { controlKey } from '../../src/store/control-record.js';
import { ControlServer } from '../../src/supervisor/control/control-server.js';
import { httpHooksFragment } from '../../src/supervisor/hooks/http-hooks.js';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { pluginDir, type ProcResult, payloads, repoRoot, runHook, sandbox } from '../helpers/hooks.js';
import { until } from '../supervisor/helpers/channel.js';

const ROZ = join(repoRoot, 'bin', 'roz');
const ENFORCED: Enforcement = { mode: 'enforced', reasons: [] };
// Copies of ../shared/reference/payloads (the client's own samples): a clone of the repository holds them.
const reference = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'client-payloads', name), 'utf8')) as Record<string, unknown>;

let sup: Supervisor | null = null;
let ctl: ControlServer | null = null;

afterEach(async () => {
  await ctl?.close();
  await sup?.close();
  ctl = null;
  sup = null;
});

function setup(approvalTimeoutMs = 20_000) {
  const box = sandbox();
  const project = join(box.home, 'project');
  mkdirSync(project);
  const p = payloads('5a0e7c2e-1111-4b1c-9d2a-0c1d2e3f4a5b', project);
  const permission = (file = 'hello.txt') => ({
    ...p.pre('Write', { file_path: join(project, file), content: 'hello\n' }),
    hook_event_name: 'PermissionRequest',
    tool_use_id: undefined,
    permission_suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
  });
  return { ...box, project, p, permission, approvalTimeoutMs };
}

async function start(s: ReturnType<typeof setup>) {
  const env = s.env as Record<string, string>;
  sup = await Supervisor.start({ env, approvalTimeoutMs: s.approvalTimeoutMs, log: () => {} });
  ctl = await ControlServer.start({ supervisor: sup, store: s.store, repo: controlKey(s.project), cwd: s.project, enforcement: ENFORCED });
  return { sup, hookEnv: { ...env, ...sup.childEnv() } };
}

function roz(args: string[], s: ReturnType<typeof setup>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [ROZ, ...args], { cwd: s.project, env: s.env, encoding: 'utf8', timeout: 20_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("the client's own permission dialog in roz's queue", () => {
  it('registers PermissionRequest and Notification as command hooks (hooks.json) and as http hooks (the settings roz writes)', () => {
    const hooks = (JSON.parse(readFileSync(join(pluginDir, 'hooks', 'hooks.json'), 'utf8')) as { hooks: Record<string, any[]> }).hooks;
    expect(hooks.PermissionRequest?.[0]?.hooks[0]?.command).toMatch(/ hook permission-request$/);
    // It waits for the human like a PreToolUse ask, inside the client's hook timeout.
    expect(hooks.PermissionRequest?.[0]?.hooks[0]?.timeout).toBe(600);
    expect(hooks.Notification?.[0]?.hooks[0]?.command).toMatch(/ hook notification$/);
    const http = httpHooksFragment({ baseUrl: 'http://127.0.0.1:1', pluginHooks: hooks, preToolUseTimeoutS: 125 }).hooks as Record<string, any[]>;
    expect(http.PermissionRequest?.[0]?.hooks[0]).toMatchObject({ type: 'http', url: 'http://127.0.0.1:1/hook/PermissionRequest', timeout: 125 });
    // Fails open: a supervisor that is down leaves the client's own dialog, never a denial.
    expect(http.PermissionRequest?.[0]?.hooks[0]?.onFailure).toBeUndefined();
    expect(http.Notification?.[0]?.hooks[0]).toMatchObject({ type: 'http', url: 'http://127.0.0.1:1/hook/Notification' });
  });

  it("standalone, the reference payloads pass through: no decision, the client's dialog decides (control)", async () => {
    const s = setup();
    for (const name of ['PermissionRequest.json', 'PermissionRequest-Write.json']) {
      const r = await runHook('PermissionRequest', { ...reference(name), cwd: s.project }, s.env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
    }
    const n = await runHook('Notification', { ...reference('Notification.json'), cwd: s.project }, s.env);
    expect(n.code, n.stderr).toBe(0);
    expect(n.stdout).toBe('');
  });

  it('waits in `roz queue` as "waiting for you" in the human\'s words; `roz approve` makes it the hook\'s allow', async () => {
    const s = setup();
    const { sup, hookEnv } = await start(s);
    const hook = runHook('PermissionRequest', s.permission(), hookEnv);
    await until(() => sup.queue().length === 1, 'the dialog to queue');
    const q = JSON.parse((await roz(['queue', '--json'], s)).stdout) as Array<Record<string, unknown>>;
    expect(q).toHaveLength(1);
    expect(q[0]).toMatchObject({ agent: 'main', tool: 'Write' });
    expect(q[0]!.summary).toBe(`the client asks: Write ${join(s.project, 'hello.txt')}`);
    expect(sup.agents()[0]!.live.status).toMatchObject({ kind: 'waiting' });
    const ok = await roz(['approve', String(q[0]!.id)], s);
    expect(ok.code, ok.stderr).toBe(0);
    const r = await hook;
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    expect(sup.queue()).toEqual([]);
  });

  it('`roz block ID REASON` is the hook\'s deny with the reason for the model; the turn then reads "blocked by you"', async () => {
    const s = setup();
    const { sup, hookEnv } = await start(s);
    await runHook('UserPromptSubmit', s.p.prompt('write hello'), hookEnv);
    const hook = runHook('PermissionRequest', s.permission(), hookEnv);
    await until(() => sup.queue().length === 1, 'the dialog to queue');
    const b = await roz(['block', sup.queue()[0]!.id, 'use notes.txt instead'], s);
    expect(b.code, b.stderr).toBe(0);
    const r: ProcResult = await hook;
    expect(r.json?.hookSpecificOutput?.hookEventName).toBe('PermissionRequest');
    expect(r.json?.hookSpecificOutput?.decision?.behavior).toBe('deny');
    expect(r.json?.hookSpecificOutput?.decision?.message).toContain('use notes.txt instead');
    await runHook('Stop', s.p.stop(), hookEnv);
    await until(() => sup.agents()[0]!.live.status.kind === 'blocked', 'the turn to end blocked by you');
  });

  it('answered in the pane (a tool event follows), it leaves the queue and the hook prints no decision', async () => {
    const s = setup();
    const { sup, hookEnv } = await start(s);
    const hook = runHook('PermissionRequest', s.permission(), hookEnv);
    await until(() => sup.queue().length === 1, 'the dialog to queue');
    // The later permission_prompt Notification comes while the dialog is open: it stays queued.
    await runHook('Notification', { ...reference('Notification.json'), session_id: s.p.stop().session_id, cwd: s.project }, hookEnv);
    expect(sup.queue()).toHaveLength(1);
    await runHook('PostToolUse', s.p.post('Write', { file_path: join(s.project, 'hello.txt'), content: 'hello\n' }), hookEnv);
    const r = await hook;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(sup.queue()).toEqual([]);
  });

  it('roz never answers it by itself: past the wait the hook prints no decision (not a denial)', async () => {
    const s = setup(1_500);
    const { sup, hookEnv } = await start(s);
    const r = await runHook('PermissionRequest', s.permission(), hookEnv);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(sup.queue()).toEqual([]);
  });
});
