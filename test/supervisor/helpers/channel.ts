// Helpers for channel tests: a supervisor in a throwaway store, raw frames
// over the socket, and a hook relay with a chosen verdict.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { renderOutput } from '../../../src/engine/output.js';
import type { Verdict } from '../../../src/core/verdict.js';
import { relayToSupervisor, type Relayed } from '../../../src/supervisor/hooks/channel-client.js';
import { Supervisor } from '../../../src/supervisor/supervisor.js';
import { FileSessionStore } from '../../../src/store/file-store.js';
import { tempDir } from '../../helpers/temp-dir.js';

export function sandboxEnv(): { env: Record<string, string>; store: string } {
  const home = tempDir('roz-sup-');
  const store = join(home, 'store');
  return { env: { HOME: home, ROZ_STORAGE_PATH: store, PATH: process.env.PATH ?? '' }, store };
}

export async function startSupervisor(opts: { approvalTimeoutMs?: number; ringCapacity?: number } = {}) {
  const { env, store } = sandboxEnv();
  const logged: string[] = [];
  const sup = await Supervisor.start({ env, approvalTimeoutMs: opts.approvalTimeoutMs ?? 10_000, ringCapacity: opts.ringCapacity, log: (l) => logged.push(l) });
  return { sup, env: { ...env, ...sup.childEnv() }, store, logged };
}

export const SID = 'sess-1';

export function preToolUse(command: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: SID,
    cwd: '/tmp',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_x',
    ...extra,
  });
}

/** Relay a verdict as the hook process does, and render what it would print (engine/output.ts). */
export async function relay(
  env: Record<string, string | undefined>,
  verdict: Verdict,
  raw = preToolUse('rm -rf build'),
  deadlineMs = 20_000,
): Promise<Relayed & { stdout: string }> {
  const r = await relayToSupervisor({ event: 'PreToolUse', raw, stderr: '', verdict, env, deadline: Date.now() + deadlineMs });
  return { ...r, stdout: renderOutput('PreToolUse', r.verdict, []) };
}

export const ASK: Verdict = { kind: 'ask', code: 'DESTRUCTIVE_BLOCKED', reason: 'rm -rf deletes files' };

/** Send raw bytes; resolves with the reply lines once the supervisor closes the connection, or after `untilReplies` lines (default 1). */
export function sendRaw(path: string, data: string | Buffer, opts: { untilClose?: boolean; untilReplies?: number } = {}): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    let buf = '';
    s.on('connect', () => s.write(data));
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      buf += d;
      if (!opts.untilClose && buf.split('\n').length - 1 >= (opts.untilReplies ?? 1)) s.destroy();
    });
    s.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'EPIPE' || (e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    s.on('close', () => resolve(buf.split('\n').filter(Boolean)));
  });
}

export function traceRecords(store: string, sid = SID): Array<Record<string, unknown>> {
  try {
    return readFileSync(join(store, 'sessions', sid, 'trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

/** Poll until `cond` holds (never a fixed sleep). */
export async function until(cond: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A governed project whose session has intent INT-1 (scope build/**) selected, so `rm -rf build` is an `ask`. */
export async function governedRepo(store: string): Promise<string> {
  const repo = tempDir('roz-governed-');
  mkdirSync(join(repo, '.orchestration'));
  writeFileSync(
    join(repo, '.orchestration', 'active_intents.yaml'),
    'active_intents:\n  - id: INT-1\n    name: cleanup\n    status: IN_PROGRESS\n    owned_scope: ["build/**"]\n',
  );
  await new FileSessionStore(store).update(SID, new Date(), (st) => {
    st.governance = {
      intent_id: 'INT-1',
      selected_at: new Date().toISOString(),
      selected_via: 'cli',
      files: {},
      mutations: 0,
      model_id: null,
      project_root: repo,
    };
    return { value: null, trace: [] };
  });
  return repo;
}
