// Small helpers shared by the in-process benchmark sections.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function quantiles(xs: number[]): { median: number; p99: number; min: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]!, min: s[0]! };
}

export const round = (x: number, digits = 3): number => +x.toFixed(digits);

export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** A throwaway HOME and store, as the hook tests use. */
export function sandboxEnv(): { env: Record<string, string>; store: string; home: string } {
  const home = mkdtempSync(join(tmpdir(), 'roz-bench-sup-'));
  const store = join(home, 'store');
  return { env: { HOME: home, ROZ_STORAGE_PATH: store, PATH: process.env.PATH ?? '' }, store, home };
}

export const SID = 'bench-sup-1';

/** The typical PreToolUse payload the process benchmark sends too. */
export function preToolUseRaw(command = 'npm test -- --run && git diff --stat', cwd = '/tmp'): string {
  return JSON.stringify({
    session_id: SID,
    cwd,
    transcript_path: '/dev/null',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_use_id: 'toolu_bench',
    tool_input: { command },
  });
}
