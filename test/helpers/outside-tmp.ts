// A folder for a test project that is not under /tmp: there /tmp is the
// project's neighbourhood, not scratch, and the guard and governance judge
// writes to it differently. Beside this checkout, unless the checkout itself is
// under /tmp (a CI clone), then in the user's cache, then /var/tmp.
import { mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function outsideTmpDir(name: string): string {
  const tmp = realpathSync('/tmp');
  const candidates = [join(import.meta.dirname, '..', '..', 'node_modules', '.cache'), join(homedir(), '.cache'), '/var/tmp'];
  const dir = candidates.find((d) => {
    mkdirSync(d, { recursive: true });
    const real = realpathSync(d);
    return real !== tmp && !real.startsWith(`${tmp}/`);
  });
  if (!dir) throw new Error(`no directory outside /tmp to put a test project in (tried ${candidates.join(', ')})`);
  const base = join(dir, name);
  mkdirSync(base, { recursive: true });
  return base;
}
