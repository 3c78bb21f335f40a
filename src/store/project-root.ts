// Which project, if any, is governed: a few existsSync calls, no parsing. Kept
// apart from orchestration.ts so the hook can decide whether to load intent
// governance (yaml, globs, the ledger schema) before paying for it.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const ORCHESTRATION = '.orchestration';
export const orchestrationPaths = (root: string) => {
  const dir = join(root, ORCHESTRATION);
  return {
    dir,
    intents: join(dir, 'active_intents.yaml'),
    ledger: join(dir, 'agent_trace.jsonl'),
    map: join(dir, 'intent_map.md'),
    lessons: join(dir, 'CLAUDE.md'),
    ignore: join(dir, '.intentignore'),
  };
};

/** The directory holding `.git` above `start`, or null. */
export function gitTopLevel(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

const governed = (dir: string): boolean => existsSync(orchestrationPaths(dir).intents);

/**
 * The governed project for a hook: the session's remembered project, the
 * hook's cwd, its git toplevel, or CLAUDE_PROJECT_DIR — the first that has
 * `.orchestration/active_intents.yaml`. Null means governance is off.
 */
export function findProjectRoot(cwd: string, opts: { remembered?: string | null; projectDir?: string | undefined } = {}): string | null {
  const candidates = [opts.remembered, cwd, gitTopLevel(cwd), opts.projectDir].filter((c): c is string => !!c);
  for (const c of candidates) if (governed(c)) return c;
  return null;
}
