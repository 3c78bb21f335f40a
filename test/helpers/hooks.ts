// Runs roz hooks exactly as Claude Code does: the command line from the
// plugin's own hooks.json, through a shell, JSON on stdin.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp-dir.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const pluginDir = join(repoRoot, 'plugin');
export const rozBin = join(repoRoot, 'bin', 'roz');

type HooksJson = { hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string }> }>> };
const hooksJson = JSON.parse(readFileSync(join(pluginDir, 'hooks', 'hooks.json'), 'utf8')) as HooksJson;

export function hookCommand(event: string): string {
  const entry = hooksJson.hooks[event]?.[0]?.hooks[0];
  if (!entry) throw new Error(`plugin/hooks/hooks.json has no ${event} hook`);
  return entry.command;
}

export interface ProcResult {
  code: number | null;
  stdout: string;
  stderr: string;
  json: Record<string, any> | null;
}

export function runProcess(cmd: string, args: string[], input: string | Buffer, env: NodeJS.ProcessEnv, cwd?: string): Promise<ProcResult> {
  return new Promise((resolve, reject) => {
    // detached: in a session of its own, as the client starts hooks (src/engine/hook-origin.ts checks it).
    const child = spawn(cmd, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.stdin.on('error', () => {});
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      let json: Record<string, any> | null = null;
      if (stdout.trim()) {
        try {
          json = JSON.parse(stdout);
        } catch {
          json = null;
        }
      }
      resolve({ code, stdout, stderr: Buffer.concat(err).toString('utf8'), json });
    });
    child.stdin.end(input);
  });
}

/** A throwaway store + HOME, and env for hook processes. */
export function sandbox(extraEnv: Record<string, string> = {}): { store: string; home: string; env: NodeJS.ProcessEnv } {
  const home = tempDir('roz-home-');
  const store = join(home, 'store');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    ROZ_STORAGE_PATH: store,
    CLAUDE_PLUGIN_ROOT: pluginDir,
    NO_COLOR: '1',
    ...extraEnv,
  };
  return { store, home, env };
}

/** Invoke the plugin's hook for `event` with `payload` on stdin. */
export function runHook(event: string, payload: unknown, env: NodeJS.ProcessEnv): Promise<ProcResult> {
  const input = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  return runProcess('/bin/sh', ['-c', hookCommand(event)], input, env);
}

/** Run the roz CLI. */
export function roz(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<ProcResult> {
  return runProcess(process.execPath, [rozBin, ...args], input, env);
}

/** Payload builders shaped like shared/reference/payloads. */
export function payloads(sessionId: string, cwd = '/tmp/project') {
  const base = {
    session_id: sessionId,
    transcript_path: `/tmp/.claude/projects/x/${sessionId}.jsonl`,
    cwd,
    permission_mode: 'default',
  };
  return {
    sessionStart: () => ({ ...base, hook_event_name: 'SessionStart', source: 'startup' }),
    prompt: (prompt: string) => ({ ...base, hook_event_name: 'UserPromptSubmit', prompt }),
    pre: (tool_name: string, tool_input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      ...base,
      hook_event_name: 'PreToolUse',
      tool_name,
      tool_input,
      tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
      ...extra,
    }),
    post: (tool_name: string, tool_input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      ...base,
      hook_event_name: 'PostToolUse',
      tool_name,
      tool_input,
      tool_response: {},
      ...extra,
    }),
    stop: (active = false) => ({ ...base, hook_event_name: 'Stop', stop_hook_active: active, last_assistant_message: 'Done.' }),
    subagentStart: (agent_id: string, agent_type = 'roz:roz') => ({ ...base, hook_event_name: 'SubagentStart', agent_id, agent_type }),
    subagentStop: (agent_id: string, agent_type = 'roz:roz', active = false) => ({
      ...base,
      hook_event_name: 'SubagentStop',
      agent_id,
      agent_type,
      stop_hook_active: active,
      last_assistant_message: 'COMPLETE',
    }),
    sessionEnd: () => ({ ...base, hook_event_name: 'SessionEnd', reason: 'other' }),
  };
}
