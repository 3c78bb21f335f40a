// Which project, if any, is governed: a few existsSync calls, no parsing. Kept
// apart from orchestration.ts so the hook can decide whether to load intent
// governance (yaml, globs, the ledger schema) before paying for it.
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

export const ORCHESTRATION = '.orchestration';

/**
 * `name` inside `dir`, which is already normalized (from join, resolve or
 * dirname): what join(dir, name) gives for a plain name, without normalizing
 * the whole path again. A hook builds these paths dozens of times, and
 * path.join's normalizeString over every character was enough work to get
 * V8's optimizing compiler started in a governed post-tool-use (11M
 * instructions on a background thread, callgrind).
 */
const child = (dir: string, name: string): string => (dir.endsWith(sep) ? dir + name : dir + sep + name);

export const orchestrationPaths = (root: string) => {
  const dir = join(root, ORCHESTRATION);
  return {
    dir,
    intents: child(dir, 'active_intents.yaml'),
    ledger: child(dir, 'agent_trace.jsonl'),
    map: child(dir, 'intent_map.md'),
    lessons: child(dir, 'CLAUDE.md'),
    ignore: child(dir, '.intentignore'),
  };
};

/** The directory holding `.git` above `start`, or null. */
export function gitTopLevel(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(child(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

const governed = (dir: string): boolean => existsSync(orchestrationPaths(dir).intents);

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

/** Same directory, or one inside the other. */
function related(a: string, b: string): boolean {
  const [x, y] = [realOr(a), realOr(b)];
  const within = (p: string, dir: string): boolean => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
  return within(x, y) || within(y, x);
}

/**
 * The governed project for a hook: the session's remembered project, the
 * hook's cwd, its git toplevel, or CLAUDE_PROJECT_DIR — the first that has
 * `.orchestration/active_intents.yaml`. Null means governance is off.
 *
 * CLAUDE_PROJECT_DIR is the client's (the agent cannot change a hook's
 * environment): when it is governed, a candidate nested inside it or above it
 * (`src/.orchestration/` written by the agent and chosen with `--project src`,
 * or one made in a parent directory) is refused and the project's own
 * `.orchestration/` governs. A governed directory unrelated to it (the agent
 * cd'd into another project) governs there.
 */
export function findProjectRoot(cwd: string, opts: { remembered?: string | null; projectDir?: string | undefined } = {}): string | null {
  const anchor = opts.projectDir && governed(opts.projectDir) ? opts.projectDir : null;
  const candidates = [opts.remembered, cwd, gitTopLevel(cwd), opts.projectDir].filter((c): c is string => !!c);
  for (const c of candidates) {
    if (!governed(c)) continue;
    if (anchor && c !== anchor && related(c, anchor)) return anchor;
    return c;
  }
  return null;
}

/**
 * What `.orchestration/` is right now: `dev:ino` of a real directory, `link`
 * for a symbolic link (or anything else), null when absent. Recorded when a
 * session starts, compared before roz writes there (engine/governance/orchestration-trust.ts).
 */
export function orchestrationIdentity(root: string): string | null {
  try {
    const st = lstatSync(orchestrationPaths(root).dir, { bigint: true });
    return st.isDirectory() ? `${st.dev}:${st.ino}` : 'link';
  } catch {
    return null;
  }
}

/** When `.orchestration/` was made (ms since the epoch), or null where the file system does not say. */
export function orchestrationBirth(root: string): number | null {
  try {
    const ms = lstatSync(orchestrationPaths(root).dir).birthtimeMs;
    return ms > 0 ? ms : null;
  } catch {
    return null;
  }
}

/**
 * `.orchestration/` as a session found it, for each directory that could
 * become its project (CLAUDE_PROJECT_DIR, the cwd, its git toplevel), by real
 * path: recorded once, at the session's first hook (SessionStart).
 */
export function orchestrationAtStart(cwd: string, projectDir: string | undefined): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const c of [projectDir, cwd, gitTopLevel(cwd)]) if (c) out[realOr(c)] = orchestrationIdentity(c);
  return out;
}
