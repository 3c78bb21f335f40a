// Files beyond the project in a repo without intents (issue 22): overwritten, truncated, moved or
// deleted outside the project and its scratch areas is asked about; creating, appending, scratch is not.
import { beforeAll, describe, expect, it } from 'vitest';
import { outsideWrites, projectBounds } from '../../../src/core/guard.js';
import { writeTargets } from '../../../src/core/shell/writes.js';
import { loadAllOnDemand } from '../../../src/core/on-demand.js';

// Rarely run writers live in the on-demand effects module (issue 30).
beforeAll(loadAllOnDemand);

const bounds = projectBounds('/work/app/src', { CLAUDE_PROJECT_DIR: '/work/app', TMPDIR: '/run/user/1000/tmp' }, '/home/me', '/tmp');
const outside = (command: string): string[] => outsideWrites(writeTargets(command).targets, bounds).map((f) => f.command);

describe('outsideWrites', () => {
  it.each([
    ['> /etc/passwd', ['/etc/passwd']],
    ['cp /dev/null ~/.bashrc', ['~/.bashrc']],
    ['truncate -s 0 /etc/hosts', ['/etc/hosts']],
    ['mv / /tmp/x', ['/']],
    ['rm -f ../../other/file', ['../../other/file']],
    ['python3 -c "import os; os.remove(\'/etc/passwd\')"', ['/etc/passwd']],
  ])('%s destroys %j', (command, paths) => {
    expect(outside(command)).toEqual(paths);
  });

  it.each([
    'echo x > src/a.ts',
    'rm -f ../README.md',
    'echo x >> ~/.bashrc',
    'mkdir -p ~/.config/tool',
    'cp -r . /tmp/backup',
    'rm -rf /run/user/1000/tmp/x',
    'rm /tmp/roz-*',
    'echo x > /dev/null',
    'git clone https://x.io/r ~/src/r',
  ])('%s stays inside or only creates', (command) => {
    expect(outside(command)).toEqual([]);
  });

  it("a home under a temp dir (CI) is still the user's: ~/ is never scratch", () => {
    const ci = projectBounds('/work/app', {}, '/tmp/ci-home', '/tmp');
    expect(outsideWrites(writeTargets('cp /dev/null ~/.bashrc').targets, ci).map((f) => f.command)).toEqual(['~/.bashrc']);
    expect(outsideWrites(writeTargets('rm -f /tmp/ci-home/.ssh/config').targets, ci).map((f) => f.command)).toEqual(['/tmp/ci-home/.ssh/config']);
  });

  it('takes the project from CLAUDE_PROJECT_DIR, else the cwd', () => {
    expect(projectBounds('/a/b', {}, '/h', '/tmp').root).toBe('/a/b');
    expect(projectBounds('/a/b', { CLAUDE_PROJECT_DIR: '/a' }, '/h', '/tmp').root).toBe('/a');
  });
});
