// A temp folder no other user can write into, up to the root: what Gemini CLI
// needs before it reads a settings file from it (it skips one below a folder
// others can write, as /tmp; docs/clients.md). The checkout's node_modules when
// the checkout is in such a place, else ~/.cache (a checkout under /tmp, as a
// fresh clone may be). Removed by the caller.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writableByOthers } from '../../src/supervisor/launch/client-launch.js';

const REPO_NODE_MODULES = join(import.meta.dirname, '..', '..', 'node_modules');

export function ownerOnlyTempDir(prefix: string): string {
  const home = join(homedir(), '.cache', 'roz-tests');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  for (const base of [REPO_NODE_MODULES, home]) if (writableByOthers(base) === null) return mkdtempSync(join(base, prefix));
  throw new Error(`no folder that only this user can write, up to /: ${REPO_NODE_MODULES} and ${home} both have one others can write`);
}
