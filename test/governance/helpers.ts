// A throwaway governed project (optionally a git repo) and hook inputs for governance tests.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HookInput } from '../../src/core/hook-input.js';
import { newSession, type SessionState } from '../../src/core/session-state.js';
import { orchestrationAtStart } from '../../src/store/project-root.js';
import { AGENT_TRACE_VERSION, type TraceRecord } from '../../src/core/governance/trace-record.js';
import { tempDir } from '../helpers/temp-dir.js';

export const INTENTS_YAML = `active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS
    owned_scope:
      - "src/auth/**"
      - src/middleware/jwt.ts
    constraints:
      - Must not use external auth providers
    acceptance_criteria:
      - Unit tests in tests/auth/ pass
    created_at: "2026-02-18T12:00:00Z"
  - id: INT-002
    name: Rate limiting
    status: DRAFT
    owned_scope: ["src/rate/**"]
  - id: INT-003
    name: Old work
    status: COMPLETED
    owned_scope: ["src/old/**"]
`;

export interface Project {
  root: string;
  home: string;
  store: string;
  outside: string;
  write(rel: string, text: string): string;
}

export function makeProject(opts: { intents?: string | null; git?: boolean; ignore?: string } = {}): Project {
  const base = realpathSync(tempDir('roz-gov-'));
  const root = join(base, 'project');
  const home = join(base, 'home');
  const store = join(home, '.roz');
  const outside = join(base, 'outside');
  for (const d of [root, home, outside, join(root, 'src', 'auth')]) mkdirSync(d, { recursive: true });
  const write = (rel: string, text: string): string => {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
  if (opts.intents !== null) write('.orchestration/active_intents.yaml', opts.intents ?? INTENTS_YAML);
  if (opts.ignore) write('.orchestration/.intentignore', opts.ignore);
  if (opts.git) {
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: root,
        stdio: 'ignore',
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
      });
    git('init', '-q', '-b', 'main');
    write('README.md', 'hi\n');
    git('add', 'README.md');
    git('commit', '-q', '-m', 'init');
  }
  return { root, home, store, outside, write };
}

/** A session; with `root`, one that saw that project's .orchestration/ at its start (as the engine records it). */
export function session(id = 'sess-1', root?: string): SessionState {
  const s = newSession(id, new Date('2026-03-01T10:00:00Z'));
  if (root) s.orchestration_at_start = orchestrationAtStart(root, root);
  return s;
}

const common = (cwd: string, sid = 'sess-1') => ({ session_id: sid, cwd, transcript_path: `/tmp/transcripts/${sid}.jsonl` });

export function pre(cwd: string, tool_name: string, tool_input: Record<string, unknown>, extra: Record<string, unknown> = {}): HookInput<'PreToolUse'> {
  return { ...common(cwd), hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: 'toolu_1', ...extra } as HookInput<'PreToolUse'>;
}

export function post(
  cwd: string,
  tool_name: string,
  tool_input: Record<string, unknown>,
  tool_response: unknown = {},
  extra: Record<string, unknown> = {},
): HookInput<'PostToolUse'> {
  return { ...common(cwd), hook_event_name: 'PostToolUse', tool_name, tool_input, tool_response, tool_use_id: 'toolu_1', ...extra } as HookInput<'PostToolUse'>;
}

export function failure(cwd: string, command: string, error: string): HookInput<'PostToolUseFailure'> {
  return {
    ...common(cwd),
    hook_event_name: 'PostToolUseFailure',
    tool_name: 'Bash',
    tool_input: { command },
    error,
    is_interrupt: false,
  } as HookInput<'PostToolUseFailure'>;
}

export function sampleRecord(over: Partial<TraceRecord> = {}, pad = 0): TraceRecord {
  return {
    version: AGENT_TRACE_VERSION,
    id: crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    tool: { name: 'roz', version: '0.1.0' },
    files: [
      {
        path: 'src/a.ts',
        conversations: [{ contributor: { type: 'ai' }, ranges: [{ start_line: 1, end_line: 2, content_hash: `sha256:${'a'.repeat(64)}` }] }],
      },
    ],
    metadata: {
      'dev.roz': { session_id: 's', intent_id: 'INT-001', mutation_class: 'INTENT_EVOLUTION', tool_name: 'Write' },
      ...(pad ? { pad: 'x'.repeat(pad) } : {}),
    },
    ...over,
  };
}
