// The exact files a git work-tree move changes (`git stash`, `git stash pop`,
// `git switch REF`, `git merge REF`), asked of git itself, so such a command
// is judged by what it changes rather than as "anything in the work tree".
// Spawns git, so it runs only for those commands. Null when git cannot say
// (the caller keeps the whole-tree judgement).
import { isAbsolute, join } from 'node:path';
import type { GitMove } from '../core/shell/write-rules.js';

type ChildProcess = typeof import('node:child_process');
const cp = (): ChildProcess => process.getBuiltinModule('node:child_process') as ChildProcess;

function git(cwd: string, args: string[]): string | null {
  const r = cp().spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    timeout: 5_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return r.status === 0 ? r.stdout : null;
}

const lines = (out: string): string[] => out.split('\n').filter(Boolean);

/** Absolute paths of the files `move` would change, run from `dir`; null when unknown. */
export function filesOfGitMove(dir: string, move: GitMove): string[] | null {
  // A ref from the agent's command is passed to git as an argument: never as an option.
  const ref = move.op === 'to-ref' ? move.ref : move.op === 'stash-apply' ? move.entry : 'HEAD';
  if (ref.startsWith('-') || ref.includes('\0')) return null;
  const top = git(dir, ['rev-parse', '--show-toplevel'])?.trim();
  if (!top || !isAbsolute(top)) return null;
  let rel: string[] = [];
  if (move.op === 'stash-push') {
    const tracked = git(top, ['diff', '--name-only', 'HEAD']);
    if (tracked === null) return null;
    rel = lines(tracked);
    if (move.untracked) {
      const others = git(top, ['ls-files', '--others', '--exclude-standard', '--full-name']);
      if (others === null) return null;
      rel.push(...lines(others));
    }
  } else if (move.op === 'stash-apply') {
    const out = git(top, ['stash', 'show', '--name-only', '--include-untracked', move.entry]) ?? git(top, ['stash', 'show', '--name-only', move.entry]);
    if (out === null) return null;
    rel = lines(out);
  } else {
    const out = move.ref.includes('...') ? git(top, ['diff', '--name-only', move.ref]) : git(top, ['diff', '--name-only', 'HEAD', move.ref]);
    if (out === null) return null;
    rel = lines(out);
  }
  return [...new Set(rel)].map((p) => join(top, p));
}
