// Runs a non-Claude client (Codex, Gemini) to its end, or kills it after a timeout,
// collecting its output: their e2e tests drive them in print mode with no pty.
import { spawn } from 'node:child_process';
import { killTree } from './kill-tree.js';

export interface EndedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export function runToEnd(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<EndedRun> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    // Codex's npm entry is a node shim over a native binary: kill everything it started.
    const timer = setTimeout(() => (child.pid === undefined ? child.kill('SIGKILL') : killTree(child.pid)), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, durationMs: Date.now() - started });
    });
  });
}

/** The JSON lines a logging hook appended to `file` (none if it never ran). */
export function jsonLines<T>(text: string | undefined): T[] {
  return (text ?? '')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}
