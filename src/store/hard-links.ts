// A hard link is the same file under another name: `ln .orchestration/active_intents.yaml src/x`
// then a Write to src/x rewrites the intents, and no path check sees it. So a
// write target that is a regular file with more than one link is compared, by
// device and inode, with the files roz protects; a match is reported as the
// protected path, and every check on paths then applies to it. Only files
// with nlink > 1 pay for the comparison (a stat of each candidate).
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The protected file `real` is a hard link of, or null. `candidates` is asked only when `real` has other links. */
export function protectedLinkTarget(real: string, candidates: () => Iterable<string>): string | null {
  let st;
  try {
    st = statSync(real);
  } catch {
    return null;
  }
  if (!st.isFile() || st.nlink < 2) return null;
  for (const f of candidates()) {
    try {
      const c = lstatSync(f);
      if (c.ino === st.ino && c.dev === st.dev) return f;
    } catch {
      /* gone */
    }
  }
  return null;
}

/** The entries of `dir` (not recursive), or none. */
export function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir).map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/** What of roz's store a session could be attacked through: its own session files, config, templates, the intents parse cache. */
export function storeFilesFor(storeRoot: string, sessionId: string): string[] {
  return [
    join(storeRoot, 'config.toml'),
    ...filesIn(join(storeRoot, 'sessions', sessionId)),
    ...filesIn(join(storeRoot, 'templates')),
    ...filesIn(join(storeRoot, 'cache', 'intents')),
  ];
}
